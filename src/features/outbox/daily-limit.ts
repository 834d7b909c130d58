// A list's daily limit and its ramp (issue 46 item 2): at most N mails a day from the list, first mails and steps
// together, and optionally N rising M % each day its bounce guard did not pause it. Days are counted from the
// list's first mail under the limit (24 hours each, whatever the zones), in the ledger beside the guard
// (guard-record.ts `daily`, `day`): the limit confirmed, and today's number, count and cap, nothing per mail.
import { DAY_MS, formatCount } from '../../platform';
import type { DailyRecord, GuardRecord } from './guard-record';
import type { LedgerList } from './ledger';

export const MAX_DAILY_LIMIT = 100_000;
export const MAX_DAILY_RAMP = 100;

/** Today as the list's record would have it at `now`: the day's number, what went, its cap. */
function today(guard: GuardRecord, now: number): DailyRecord {
  const daily = guard.daily!;
  const day = guard.day;
  if (!day) return { start: now, index: 0, n: 0, cap: daily.limit };
  const index = Math.floor((now - day.start) / DAY_MS);
  if (index <= day.index) return day;
  let cap = day.cap;
  // Each day that ended with the list paused (or paused since) keeps its cap; the others raise it by the ramp.
  for (let k = day.index + 1; k <= index; k++) {
    const paused = !!guard.paused || (k === day.index + 1 && !!day.paused);
    if (daily.ramp && !paused) cap = Math.ceil(cap * (1 + daily.ramp / 100));
  }
  return { start: day.start, index, n: 0, cap };
}

/** Mails the list may still post today under its daily limit (Infinity: no limit). */
export function dayRoom(list: LedgerList | undefined, now = Date.now()): number {
  const guard = list && list.guard;
  if (!guard || !guard.daily) return Infinity;
  const day = today(guard, now);
  return Math.max(0, day.cap - day.n);
}

/** Today's cap and when the next day starts (its mails may go from then). */
export function nextDay(list: LedgerList, now = Date.now()): { cap: number; at: number } {
  const day = today(list.guard!, now);
  return { cap: day.cap, at: day.start + (day.index + 1) * DAY_MS };
}

/** The list posted `n` mails at `at` (in the ledger change that records them). */
export function countDay(list: LedgerList, at: number, n: number): void {
  const guard = list.guard;
  if (!guard || !guard.daily) return;
  const day = today(guard, at);
  guard.day = { ...day, n: day.n + n };
}

/** The guard paused the list today: tomorrow's cap does not rise. */
export function pausedToday(guard: GuardRecord): void {
  if (guard.day) guard.day.paused = true;
}

/**
 * The confirmation's line: "10,000 mails: about 34 days at 50 a day rising 20 % a day", counted as if every
 * day went without a pause (a pause keeps the day's cap, and the days it lasts add to them).
 */
export function dailyLine(rows: number, limit: number, ramp: number): string {
  let days = 0;
  let cap = limit;
  for (let left = rows; left > 0 && days < 10_000; days++) {
    left -= cap;
    if (ramp) cap = Math.ceil(cap * (1 + ramp / 100));
  }
  const pace = ramp ? `${formatCount(limit)} a day rising ${ramp} % a day` : `${formatCount(limit)} a day`;
  const about = days === 1 ? 'one day' : `about ${formatCount(days)} days`;
  return `Daily limit: ${formatCount(rows)} mails: ${about} at ${pace} (first mails and follow-ups together; a day the bounce guard pauses the list keeps its number).`;
}
