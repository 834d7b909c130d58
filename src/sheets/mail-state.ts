// The state of one mail as the sheets record it ("Mail status" on a mailing list and on Tracking), and the
// one pair of functions between a state and its cell text. Behaviour reads states, never words: a cell is
// read back into a state only here (parseState), because the sheet is the record and users see words.
// Texts written by earlier versions ("Queued", "Sent", "Failed: …") are read as they always were.
import { MAIL_STATUS_TEXTS as WORDS } from './mail-words';

/** Why a row was left out before its mail was posted (nothing charged). */
export type SkipCode =
  | 'no-address'
  | 'invalid-address'
  | 'subject'
  | 'body'
  | 'duplicate'
  | 'already-sent'
  | 'do-not-contact'
  | 'failed-before'
  /** Another list of the document: a reply there, at the company, or a running sequence there. */
  | 'replied-elsewhere'
  | 'company-replied'
  | 'in-sequence'
  /** A placeholder inserts nothing in this row: the row is held, its state is "Not sent" (this code). */
  | 'empty-placeholder'
  /** Read back from a cell: the words say why. */
  | 'as-written';

/** Why a queued row was not sent (nothing charged). */
type NotSentCode =
  | 'refused'
  | 'not-listed'
  | 'gave-up-waiting'
  | 'send-stopped'
  | 'mail-changed'
  | 'not-confirmed'
  /** Confirmed, but the row's data changed since: held. */
  | 'changed'
  /** Its mail already went in this send (the ledger): typing "Queued" sends nothing. */
  | 'spent'
  /** Stopped on another list since it was confirmed (a reply, an opt-out). */
  | 'stopped-elsewhere'
  | 'cancelled'
  | 'schedule-changed'
  | 'schedule-added'
  | 'schedule-edm'
  /** Held before posting: a placeholder inserts nothing in this row (nothing charged). */
  | 'empty-placeholder'
  | 'as-written';

/**
 * Why a mail waits: a queued row's first mail, or a due step (the next hourly run tries again). One type for
 * both: a row and a step wait for the same things.
 */
export type WaitCode =
  /** Its recipient's send window is closed now. */
  | 'window'
  /** The list's hourly limit is reached (its detail: the limit): the next hourly run sends more. */
  | 'pace'
  /** A subject test runs: the other rows wait for its winner. */
  | 'test'
  /** The mail changed since it was confirmed: the payer reviews it. */
  | 'review'
  /** The list's bounce guard paused it (its detail: the rate): it goes on when the payer resumes the list. */
  | 'bounce'
  /** The list's daily limit is reached (its detail: today's number): the next day's runs send more. */
  | 'daily'
  | 'quota'
  | 'credits'
  | 'other-key'
  | 'steps-changed'
  | 'step-problems'
  | 'in-doubt'
  | 'later'
  | 'busy'
  /** Reply detection has not read its people's mail up to its time (the scan did not finish): it waits. */
  | 'unread'
  | 'error';

export type MailState =
  /** An empty cell: never planned, or released. */
  | { kind: 'none' }
  | { kind: 'queued' }
  /**
   * Queued and waiting: for the sending quota (no code), its send window or the hourly limit (send-timing.ts);
   * the hourly run sends it.
   */
  | { kind: 'waiting'; detail: string; code?: WaitCode }
  /** The service took the mail (ids written). */
  | { kind: 'accepted' }
  /** Tracking only: the service has the mail and has not sent it yet. */
  | { kind: 'pending' }
  | { kind: 'requested' }
  | { kind: 'sent' }
  | { kind: 'delivered' }
  /** `reason` is empty on Tracking (its Failure reason column has it). */
  | { kind: 'failed'; reason: string }
  | { kind: 'skipped'; code: SkipCode; detail: string }
  | { kind: 'notSent'; code: NotSentCode; detail: string }
  /** The user stopped the send before its rows went. */
  | { kind: 'stopped'; detail: string }
  /** Tracking: the service does not return its task with this document's key. */
  | { kind: 'otherKey' }
  /** Its Mail ID and Task ID are not of a mail this document sent: never read. */
  | { kind: 'notThisDocument' }
  /** Anything else (typed by a user): kept as written. */
  | { kind: 'typed'; text: string };

type StateKind = MailState['kind'];

export const NO_STATE: MailState = { kind: 'none' };

export type Skipped = Extract<MailState, { kind: 'skipped' }>;

export function skipped(code: SkipCode, detail: string): Skipped {
  return { kind: 'skipped', code, detail };
}

export function notSent(code: NotSentCode, detail: string): MailState {
  return { kind: 'notSent', code, detail };
}

/** The cell text of a state. */
export function stateText(state: MailState): string {
  switch (state.kind) {
    case 'none':
      return '';
    case 'typed':
      return state.text;
    case 'waiting': {
      if (state.code === 'bounce') return `${WORDS.waitingBounce}: ${state.detail}`;
      const own = state.code && state.code in WAITING_KINDS ? WAITING_KINDS[state.code as RowWait] : null;
      const words = own ? WORDS[own] : WORDS.waiting; // a step's other waits: the plain word
      return state.detail ? `${words} (${state.detail})` : words;
    }
    case 'failed':
      return state.reason ? `${WORDS.failed}: ${state.reason}` : WORDS.failed;
    case 'skipped':
    case 'notSent':
    case 'stopped':
      return state.detail ? `${WORDS[state.kind]}: ${state.detail}` : WORDS[state.kind];
    default:
      return WORDS[state.kind];
  }
}

/**
 * The words version 1.0 wrote, in the order of the kinds in mail-words.ts: still read, whatever the words
 * written now become.
 */
const VERSION_1_STATUS =
  'Queued|Waiting for the sending quota|Accepted|Pending|Requested|Sent|Delivered|Failed|Skipped|Not sent|' +
  'Stopped|Sent with another key|Not a mail of this document';
let firstWords: Record<string, string> | undefined;

/** A cell's text back into its state: the only place that reads the words of "Mail status". */
export function parseState(value: unknown): MailState {
  const text = String(value ?? '').trim();
  if (text === '') return NO_STATE;
  const kinds = Object.keys(WORDS);
  firstWords = firstWords || Object.fromEntries(VERSION_1_STATUS.split('|').map((w, i) => [kinds[i], w]));
  return readAs(text, WORDS) || readAs(text, firstWords) || { kind: 'typed', text };
}

/** The waits a Mail status cell has words of its own for. */
type RowWait = 'window' | 'pace' | 'test' | 'review' | 'bounce' | 'daily';

const WAITING_KINDS: Record<RowWait, keyof typeof WORDS> = {
  window: 'waitingWindow',
  pace: 'waitingPace',
  test: 'waitingTest',
  review: 'waitingReview',
  bounce: 'waitingBounce',
  daily: 'waitingDaily',
};

const PLAIN: StateKind[] = ['queued', 'accepted', 'pending', 'requested', 'sent', 'delivered', 'otherKey'];

function readAs(text: string, words: Record<string, string>): MailState | null {
  for (const kind of PLAIN) if (text === words[kind]) return { kind } as MailState;
  if (text.startsWith(words.notThisDocument)) return { kind: 'notThisDocument' };
  const rest = (word: string) => (text.startsWith(word) ? text.slice(word.length) : null);
  const detailOf = (after: string) => after.trim().replace(/^\((.*)\)$/, '$1');
  for (const code of ['window', 'pace', 'test', 'review', 'daily'] as const) {
    const after = words[WAITING_KINDS[code]] ? rest(words[WAITING_KINDS[code]]) : null;
    if (after !== null) return { kind: 'waiting', code, detail: detailOf(after) };
  }
  const paused = words.waitingBounce ? rest(`${words.waitingBounce}:`) : null;
  if (paused !== null) return { kind: 'waiting', code: 'bounce', detail: paused.trim() };
  const waiting = rest(words.waiting);
  if (waiting !== null) return { kind: 'waiting', detail: detailOf(waiting) };
  for (const kind of ['failed', 'skipped', 'notSent', 'stopped'] as const) {
    const after = rest(words[kind]);
    if (after === null || (after !== '' && !after.startsWith(':'))) continue;
    const detail = after.slice(1).trim();
    if (kind === 'failed') return { kind, reason: detail };
    if (kind === 'stopped') return { kind, detail };
    return { kind, code: 'as-written', detail };
  }
  return null;
}

/** Planned in a running send (queued, or waiting for the sending quota). */
export function isQueued(state: MailState): boolean {
  return state.kind === 'queued' || state.kind === 'waiting';
}

/** A mail the service took and that did not fail (as far as the sheet knows). */
export function isGone(state: MailState): boolean {
  return state.kind === 'accepted' || state.kind === 'sent' || state.kind === 'delivered';
}

/** A mail the Tracking sheet shows as final is not read again. */
export function isFinal(state: MailState): boolean {
  return state.kind === 'delivered' || state.kind === 'failed' || state.kind === 'notThisDocument';
}

/**
 * A Mail ID or Task ID read from a cell, or null: only what the add-on writes there (a whole number, or its
 * digits as text). A date (a formula's, or typed), TRUE, a word or a fraction is not an id.
 */
export function idOf(value: unknown): number | null {
  const digits = typeof value === 'string' ? value.trim() : null;
  if (digits !== null && !/^\d{1,16}$/.test(digits)) return null;
  if (digits === null && typeof value !== 'number') return null;
  const id = Number(digits === null ? value : digits);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** What the add-on writes in Mail status: its words (a typed text is not). */
export function isOwnState(value: unknown): boolean {
  return parseState(value).kind !== 'typed';
}
