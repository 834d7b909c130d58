// Redaction: no API key may reach a message, a log line or an error field. A service that echoes a key may
// send it back changed (lower-cased, cut short), so redact() hides every fragment of a key of
// KEY_FRAGMENT_MIN characters or more, in any letter case, wherever it is in the text. The transport passes
// every error through it (redactInit); features apply it to any other text of an answer they show.
import type { ApiErrorInit } from '../errors';

/** What a hidden key (or fragment of one) reads as. */
export const KEY_HIDDEN = '[key hidden]';
/** The shortest fragment of a key that is hidden (a shorter key is hidden whole, from 4 characters). */
const KEY_FRAGMENT_MIN = 8;
const SHORTEST_KEY = 4;

/** Lower case, one code unit for one (a character whose lower case is longer is kept as it is). */
function fold(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  let out = '';
  for (const char of text) {
    const low = char.toLowerCase();
    out += low.length === char.length ? low : char;
  }
  return out;
}

/**
 * The text with every fragment of a secret (API key) of KEY_FRAGMENT_MIN characters or more replaced by
 * KEY_HIDDEN, whatever its letter case; a secret shorter than that is hidden whole. Adjacent or overlapping
 * fragments become one marker. A text with no fragment is returned unchanged.
 */
export function redact(text: string, secrets: readonly string[]): string {
  if (!text) return text;
  const keys = secrets.map((s) => fold(String(s || '').trim())).filter((s) => s.length >= SHORTEST_KEY);
  if (keys.length === 0) return text;
  const folded = fold(text);
  const hidden = new Uint8Array(text.length);
  let any = false;
  for (const key of keys) {
    const n = Math.min(KEY_FRAGMENT_MIN, key.length);
    const fragments = new Set<string>();
    for (let i = 0; i + n <= key.length; i++) fragments.add(key.slice(i, i + n));
    for (let i = 0; i + n <= folded.length; i++) {
      if (fragments.has(folded.slice(i, i + n))) {
        hidden.fill(1, i, i + n);
        any = true;
      }
    }
  }
  if (!any) return text;
  let out = '';
  for (let i = 0; i < text.length;) {
    let j = i;
    if (hidden[i]) {
      while (j < text.length && hidden[j]) j++;
      out += KEY_HIDDEN;
    } else {
      while (j < text.length && !hidden[j]) j++;
      out += text.slice(i, j);
    }
    i = j;
  }
  return out;
}

/** Returns a copy of init whose string fields contain no secret. */
export function redactInit(init: ApiErrorInit, secrets: readonly string[]): ApiErrorInit {
  const copy: Record<string, unknown> = { ...init };
  for (const [key, value] of Object.entries(copy)) {
    if (typeof value === 'string') copy[key] = redact(value, secrets);
  }
  return copy as unknown as ApiErrorInit;
}
