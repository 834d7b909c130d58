// Mail ids kept as runs of consecutive ones in the ledger: the service numbers mails in ascending order,
// so a chunk's mails are usually one run, a few characters whatever its size. Written as base-64 varints (marks.ts
// DIGITS), each run starting with the gap after the previous run's last id: the posted mails (posted-mails.ts) add
// their tasks to each run, the bounce guard's final mails (bounce-guard.ts) are spans alone.
import { DIGITS } from './marks';

/** Numbers ≥ 0 as base-64 varints: 5 bits a digit, low bits first, the sixth bit saying another digit follows. */
export function varints(values: number[]): string {
  let text = '';
  for (const value of values) {
    let rest = value;
    do {
      const low = rest % 32;
      rest = Math.floor(rest / 32);
      text += DIGITS[low + (rest > 0 ? 32 : 0)];
    } while (rest > 0);
  }
  return text;
}

/** The numbers of `varints`, in groups of `group` (a text cut short inside one throws). */
export function readVarints(text: string, group: number): number[] {
  const values: number[] = [];
  let value = 0;
  let scale = 1;
  for (const char of text) {
    const digit = DIGITS.indexOf(char);
    if (digit < 0) throw new Error('mail ids: the record is cut short');
    value += (digit % 32) * scale;
    scale *= 32;
    if (digit >= 32) continue;
    values.push(value);
    value = 0;
    scale = 1;
  }
  if (scale !== 1 || values.length % group) throw new Error('mail ids: the record is cut short');
  return values;
}

export const zigzag = (n: number): number => (n >= 0 ? n * 2 : -n * 2 - 1);
export const unzigzag = (n: number): number => (n % 2 === 0 ? n / 2 : -(n + 1) / 2);

/** Consecutive ids from `first` to `last`. */
export type Span = [first: number, last: number];

/** Ascending spans, apart from each other: per span, the gap after the previous one and its length − 1. */
export function encodeSpans(spans: Span[]): string {
  const values: number[] = [];
  let last = -1;
  for (const [first, end] of spans) {
    values.push(first - last - 1, end - first);
    last = end;
  }
  return varints(values);
}

export function decodeSpans(text: string): Span[] {
  const values = readVarints(text, 2);
  const spans: Span[] = [];
  let last = -1;
  for (let i = 0; i < values.length; i += 2) {
    const first = last + 1 + values[i];
    last = first + values[i + 1];
    spans.push([first, last]);
  }
  return spans;
}

/** Whether `id` is in one of the spans. */
export function inSpans(spans: Span[], id: number): boolean {
  return spans.some(([first, last]) => id >= first && id <= last);
}

/** Adds `id` to the spans (in place, joining the spans it meets); false when it was there. */
export function addToSpans(spans: Span[], id: number): boolean {
  let at = 0;
  while (at < spans.length && spans[at][1] < id - 1) at++;
  const span = spans[at];
  if (!span || span[0] > id + 1) {
    spans.splice(at, 0, [id, id]);
    return true;
  }
  if (id >= span[0] && id <= span[1]) return false;
  if (id === span[0] - 1) span[0] = id;
  else span[1] = id;
  const next = spans[at + 1];
  if (next && next[0] === span[1] + 1) {
    span[1] = next[1];
    spans.splice(at + 1, 1);
  }
  return true;
}
