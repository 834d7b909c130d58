// A send whose rows wait for their send window, the list's hourly limit (send-timing.ts) or the payer's review of a
// changed mail: the rows say
// when, and the job pauses until the first of them may go; the hourly trigger of the user who sent it goes on
// from there (the job's pause, as for the sending quota).
import { isQueued, type MailState, type MailingList } from '../../sheets';
import { myHourlyTrigger, saveMyHourlyTrigger, JobPause, ensureHourlyTrigger } from '../jobs';
import {
  guardPause,
  pauseDetail,
  Ledger,
  SEND_TEXTS,
  hourRoom,
  nextHour,
  openingText,
  type Timing,
  dayRoom,
  nextDay,
} from '../outbox';
import { describe } from '../errors';
import { count, formatCount, plural, HOUR_MS } from '../../platform';
import { spreadsheetZone, whenText } from '../words';
import type { Queued } from './send-queue';

export interface Hold {
  /** When the first waiting row may go. */
  until: number;
  /** Past the hourly limit: nothing more goes this hour. */
  pace: boolean;
  /** Recipient key → its waiting state. */
  states: Map<string, MailState>;
  text: string;
}

/** The daily limit cut the unit: today's cap, and when the next day's mails may go. */
interface DailyCut {
  cap: number;
  at: number;
}

/**
 * How many rows of the list may go now (`most` at most): the room its hourly and daily limits leave, and the
 * daily limit's cut when it is the one that binds.
 */
export function roomNow(
  sheetId: number,
  timing: Timing | undefined,
  most: number,
): { room: number; daily?: DailyCut } {
  const list = Ledger.read().list(sheetId);
  const hour = hourRoom(Ledger.read(), sheetId, timing);
  const day = dayRoom(list);
  const room = Math.min(most, hour, day);
  return day < Math.min(most, hour) ? { room, daily: nextDay(list!) } : { room };
}

/**
 * The rows of `queued` that wait, and until when; null when none does. `paced`: the hourly limit cut it;
 * `daily`: the daily limit did.
 */
export function holdOf(
  queued: Queued,
  timing: Timing | undefined,
  paced: boolean,
  now = Date.now(),
  daily?: DailyCut,
): Hold | null {
  const states = new Map<string, MailState>();
  let until = Infinity;
  let first = '';
  const openings = new Map<string, string>(); // one text per zone and opening, however many rows share it
  for (const [key, { at, zone }] of queued.waiting) {
    const id = `${zone}|${at}`;
    if (!openings.has(id)) openings.set(id, openingText(at, zone));
    const opening = openings.get(id)!;
    states.set(key, { kind: 'waiting', code: 'window', detail: SEND_TEXTS.windowWait(opening) });
    if (at < until) [until, first] = [at, opening];
  }
  const zone = spreadsheetZone();
  for (const [key, at] of queued.testWait) {
    const detail = at < Infinity ? SEND_TEXTS.testWait(whenText(at, zone)) : SEND_TEXTS.testNotStarted;
    states.set(key, { kind: 'waiting', code: 'test', detail });
    until = Math.min(until, at);
  }
  const limit = (timing && timing.hourlyLimit) || 0;
  if (daily && queued.over.length) {
    const detail = SEND_TEXTS.dailyWait(
      daily.cap,
      Utilities.formatDate(new Date(daily.at), zone, 'HH:mm EEE d MMM'),
    );
    for (const key of queued.over) states.set(key, { kind: 'waiting', code: 'daily', detail });
    until = Math.min(until, daily.at);
  } else if (paced && limit) {
    const next = nextHour(now);
    const detail = SEND_TEXTS.paceWait(limit, Utilities.formatDate(new Date(next), zone, 'HH:mm'));
    for (const key of queued.over) states.set(key, { kind: 'waiting', code: 'pace', detail });
    until = Math.min(until, next);
  }
  if (states.size === 0) return null;
  if (until === Infinity) until = now + HOUR_MS; // the test has not started: looked at again in an hour
  const wait = (n: number, what: string) => `${count(n, 'e-mail')} ${plural(n, 'waits', 'wait')} for ${what}`;
  const parts: string[] = [];
  if (queued.waiting.size)
    parts.push(wait(queued.waiting.size, `the recipient's send window (the first from ${first})`));
  if (daily && queued.over.length)
    parts.push(wait(queued.over.length, `the daily limit (${formatCount(daily.cap)} today from this list)`));
  else if (paced && limit)
    parts.push(wait(queued.over.length, `the hourly limit (${formatCount(limit)} an hour from this list)`));
  if (queued.testWait.size) parts.push(wait(queued.testWait.size, 'the winning subject of the subject test'));
  const text = `${parts.join(' and ')}: the hourly run sends each of them once, in its time.`;
  return { until, pace: (paced && limit > 0) || (!!daily && queued.over.length > 0), states, text };
}

/**
 * The mail changed since the send was confirmed: every queued row of the list waits until the payer has reviewed
 * and saved it in Compose (which confirms it as it is then); the hourly run looks again.
 */
export function reviewHold(list: MailingList, now = Date.now()): Hold {
  const state: MailState = { kind: 'waiting', code: 'review', detail: SEND_TEXTS.reviewWait };
  return holdQueued(list, state, now, (n) => SEND_TEXTS.reviewHeld(count(n, 'e-mail')));
}

/** Every queued row of the list shows `state` and waits an hour, when the hourly run looks again. */
function holdQueued(list: MailingList, state: MailState, now: number, text: (n: number) => string): Hold {
  const states = new Map<string, MailState>();
  for (const row of list.readRows()) if (isQueued(row.state)) states.set(row.key, state);
  return { until: now + HOUR_MS, pace: false, states, text: text(states.size) };
}

/**
 * The send pauses until the first waiting row may go; the hourly trigger carries it on, and when this step
 * `posted`, its next run refreshes what went before it posts more (the bounce guard knows of their failures first).
 */
export function holdPause(hold: Hold, posted = false): JobPause {
  let retry = '';
  try {
    ensureHourlyTrigger();
    if (posted) saveMyHourlyTrigger({ ...myHourlyTrigger(), refreshAfterSend: Date.now() });
  } catch (error) {
    retry = ` The hourly run could not be set up (${describe(error)}): run the send again later.`;
  }
  return new JobPause(`${hold.text}${retry}`, hold.until); // the runner says before it what was sent
}

/**
 * The list is paused by its bounce guard: every queued row says so, and the send waits (the hourly run looks
 * again; it goes on once the payer resumes the list). Null when it is not paused.
 */
export function guardHold(list: MailingList, now = Date.now()): Hold | null {
  const pause = guardPause(Ledger.read().list(list.sheet.getSheetId()));
  if (!pause) return null;
  const rate = pauseDetail(pause);
  const state: MailState = { kind: 'waiting', code: 'bounce', detail: rate };
  return holdQueued(list, state, now, (n) => SEND_TEXTS.guardPaused(list.sheet.getName(), rate, n));
}
