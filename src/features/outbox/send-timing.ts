// When a list's mails may be posted (issue 37): a send window (weekdays and hours, in each recipient's time
// zone or the spreadsheet's), dates to skip, and an hourly limit. Saved with the mail (mail-templates.ts);
// the send job and the follow-up steps ask `sendClock` when a row's mail may go. Pure besides
// Utilities.formatDate (the zone's offset), which is asked once per zone and run.
import { UserError } from '../errors';
import { normalizeHeader, type ListRow } from '../../sheets';
import { DAY_MS, HOUR_MS, MINUTE_MS, formatCount } from '../../platform';
import { countryZone } from './country-zones';
import type { Ledger } from './ledger';
import { DEFAULT_BOUNCE_LIMIT, MAX_BOUNCE_LIMIT } from './bounce-guard';
import { MAX_DAILY_LIMIT, MAX_DAILY_RAMP } from './daily-limit';

interface SendWindow {
  /** ISO weekdays: 1 = Monday … 7 = Sunday. */
  days: number[];
  /** 'HH:MM', from inclusive, to exclusive, from before to. */
  from: string;
  to: string;
  zone: 'recipient' | 'spreadsheet';
}

export interface Timing {
  /** 'YYYY-MM-DD': nothing is posted on them (in the zone the window uses), no step falls on them. */
  skipDates?: string[];
  sendWindow?: SendWindow;
  /** At most this many mails an hour from the list, steps included. */
  hourlyLimit?: number;
  /** The failed share (percent) that pauses the list (bounce-guard.ts); absent: the default. */
  bounceLimit?: number;
  /** At most this many mails a day from the list, steps included (daily-limit.ts). */
  dailyLimit?: number;
  /** The daily limit rises this many percent each day the list is not paused (with dailyLimit only). */
  dailyRamp?: number;
}

const MAX_SKIP_DATES = 100;
const MAX_HOURLY_LIMIT = 10_000;
const DATE = /^\d{4}-\d\d-\d\d$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const TIME_ZONE = normalizeHeader('Time zone');
const COUNTRY = normalizeHeader('Country');

/** The dialog's (or a check's) timing, checked: a UserError names what to change. Empty parts are left out. */
export function parseTiming(input: Record<string, unknown>): Timing {
  const timing: Timing = {};
  const skip = parseSkipDates(input.skipDates);
  if (skip.length) timing.skipDates = skip;
  if (input.sendWindow) timing.sendWindow = parseWindow(input.sendWindow as Record<string, unknown>);
  const limit = input.hourlyLimit;
  if (limit !== undefined && limit !== null && limit !== '' && limit !== 0) {
    const n = Number(limit);
    if (!Number.isInteger(n) || n < 1 || n > MAX_HOURLY_LIMIT)
      throw new UserError(
        `The hourly limit is a whole number of mails from 1 to ${MAX_HOURLY_LIMIT} (or empty: no limit).`,
      );
    timing.hourlyLimit = n;
  }
  const bounce = input.bounceLimit;
  if (bounce !== undefined && bounce !== null && bounce !== '' && Number(bounce) !== DEFAULT_BOUNCE_LIMIT) {
    const n = Number(bounce);
    if (!Number.isInteger(n) || n < 1 || n > MAX_BOUNCE_LIMIT)
      throw new UserError(
        `The bounce rate that pauses the list is a whole percentage from 1 to ${MAX_BOUNCE_LIMIT} (or empty: ${DEFAULT_BOUNCE_LIMIT} %).`,
      );
    timing.bounceLimit = n;
  }
  Object.assign(timing, parseDaily(input));
  return timing;
}

/** The daily limit and its ramp, checked (a ramp needs a daily limit to start from). */
function parseDaily(input: Record<string, unknown>): Pick<Timing, 'dailyLimit' | 'dailyRamp'> {
  const given = (v: unknown) => v !== undefined && v !== null && v !== '' && v !== 0 && v !== '0';
  const daily: Pick<Timing, 'dailyLimit' | 'dailyRamp'> = {};
  if (given(input.dailyLimit)) {
    const n = Number(input.dailyLimit);
    if (!Number.isInteger(n) || n < 1 || n > MAX_DAILY_LIMIT)
      throw new UserError(
        `The daily limit is a whole number of mails from 1 to ${formatCount(MAX_DAILY_LIMIT)} (or empty: no limit).`,
      );
    daily.dailyLimit = n;
  }
  if (given(input.dailyRamp)) {
    const n = Number(input.dailyRamp);
    if (!Number.isInteger(n) || n < 1 || n > MAX_DAILY_RAMP)
      throw new UserError(
        `The daily ramp is a whole percentage from 1 to ${MAX_DAILY_RAMP} (or empty: no ramp).`,
      );
    if (!daily.dailyLimit)
      throw new UserError('A daily ramp starts from a daily limit: set the daily limit too.');
    daily.dailyRamp = n;
  }
  return daily;
}

function parseSkipDates(input: unknown): string[] {
  if (input === undefined || input === null || input === '') return [];
  const items = Array.isArray(input) ? input : String(input).split(/[\s,;]+/);
  const dates = items.map((d) => String(d).trim()).filter(Boolean);
  for (const date of dates)
    if (!DATE.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)))
      throw new UserError(`"${date}" is not a date to skip: write dates as YYYY-MM-DD, such as 2026-12-24.`);
  if (dates.length > MAX_SKIP_DATES)
    throw new UserError(`At most ${MAX_SKIP_DATES} dates to skip: remove the past ones.`);
  return [...new Set(dates)].sort();
}

function parseWindow(raw: Record<string, unknown>): SendWindow {
  const days = [...new Set((Array.isArray(raw.days) ? raw.days : []).map(Number))].sort();
  if (days.length === 0 || days.some((d) => !Number.isInteger(d) || d < 1 || d > 7))
    throw new UserError('The send window needs at least one weekday (1 = Monday … 7 = Sunday).');
  const from = String(raw.from || '').trim();
  const to = String(raw.to || '').trim();
  if (!TIME.test(from) || !TIME.test(to))
    throw new UserError("The send window's hours are times such as 09:00 and 17:00 (24-hour clock).");
  if (minutesOf(from) >= minutesOf(to))
    throw new UserError('The send window ends after it starts on the same day (such as 09:00 to 17:00).');
  return { days, from, to, zone: raw.zone === 'spreadsheet' ? 'spreadsheet' : 'recipient' };
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether the timing holds any rule on when mails go. */
export function timed(timing: Timing | undefined): timing is Timing {
  return (
    !!timing &&
    !!(timing.skipDates || timing.sendWindow || timing.hourlyLimit || timing.bounceLimit || timing.dailyLimit)
  );
}

/** When a row's mail may go, asked of one run (one `now`): each zone worked out once. */
export interface SendClock {
  /** The row's time zone (its Time zone, else its Country's, else the spreadsheet's) as the window uses it. */
  zoneOf(row: ListRow): string;
  /** The first instant at or after `from` (default: now) when a mail to a recipient in `zone` may go. */
  openAt(zone: string, from?: number): number;
}

/** The clock of `timing` (none: every instant is open, in the spreadsheet's zone). */
export function sendClock(timing: Timing | undefined, spreadsheetZone: string, now = Date.now()): SendClock {
  const window = timing && timing.sendWindow;
  const skip = new Set((timing && timing.skipDates) || []);
  const perRecipient = !!window && window.zone === 'recipient';
  const valid = new Map<string, boolean>();
  const known = new Map<string, number>();
  // Offsets change on the hour at most: one formatDate per zone and hour, however many rows ask.
  const offsets = new Map<string, number>();
  const offset = (at: number, zone: string) => {
    const key = `${zone}|${Math.floor(at / HOUR_MS)}`;
    if (!offsets.has(key)) offsets.set(key, offsetMs(at, zone));
    return offsets.get(key)!;
  };
  const isZone = (name: string) => {
    if (!valid.has(name))
      valid.set(name, /^[A-Za-z]+(\/[A-Za-z0-9_+-]+)*$/.test(name) && offsetOk(name, now));
    return valid.get(name)!;
  };
  return {
    zoneOf(row) {
      if (!perRecipient) return spreadsheetZone;
      const named = (row.display.get(TIME_ZONE) || '').trim();
      if (named && isZone(named)) return named;
      const country = countryZone(row.display.get(COUNTRY) || '');
      return country || spreadsheetZone;
    },
    openAt(zone, from = now) {
      if (!window && skip.size === 0) return from;
      const key = `${zone}|${from}`;
      if (!known.has(key)) known.set(key, firstOpen(from, zone, window, skip, offset));
      return known.get(key)!;
    },
  };
}

function offsetOk(zone: string, at: number): boolean {
  try {
    offsetMs(at, zone);
    return true;
  } catch {
    return false; // not a zone Apps Script knows: the row uses its country's, or the spreadsheet's
  }
}

/** The zone's offset from UTC at `at` (ms), from its "+0530" form. */
function offsetMs(at: number, zone: string): number {
  const z = Utilities.formatDate(new Date(at), zone, 'Z');
  const sign = z[0] === '-' ? -1 : 1;
  return sign * (Number(z.slice(1, 3)) * 60 + Number(z.slice(3, 5))) * MINUTE_MS;
}

/** The first instant ≥ `from` inside the window on a day not skipped, in `zone`; `from` when it is inside. */
export function firstOpen(
  from: number,
  zone: string,
  window: SendWindow | undefined,
  skip: Set<string>,
  offsetOf = offsetMs,
): number {
  const offset = offsetOf(from, zone);
  const local = from + offset;
  const today = Math.floor(local / DAY_MS) * DAY_MS;
  const start = window ? minutesOf(window.from) * MINUTE_MS : 0;
  const end = window ? minutesOf(window.to) * MINUTE_MS : DAY_MS;
  for (let d = 0; d <= skip.size + 8; d++) {
    const day = today + d * DAY_MS;
    const date = new Date(day);
    const weekday = ((date.getUTCDay() + 6) % 7) + 1;
    if (skip.has(date.toISOString().slice(0, 10))) continue;
    if (window && !window.days.includes(weekday)) continue;
    if (local >= day + end) continue;
    if (local >= day + start) return from;
    // The opening's instant, with the zone's offset at that time (a change of summer time in between).
    const guess = day + start - offset;
    return Math.max(from, day + start - offsetOf(guess, zone));
  }
  return from + (skip.size + 8) * DAY_MS; // every day skipped: never reached with a window of one weekday or more
}

/** The opening's words for a row or a confirmation: "09:00 Mon 30 Nov in America/New_York". */
export function openingText(at: number, zone: string): string {
  return `${Utilities.formatDate(new Date(at), zone, 'HH:mm EEE d MMM')} in ${zone}`;
}

/**
 * Mails the list of `sheetId` may still post this clock hour under its hourly limit (Infinity: no limit),
 * counted from the ledger: what the list posted this hour, whatever became of its send since (ended,
 * cancelled, confirmed again), and at least its people's last mails in the hour.
 */
export function hourRoom(
  ledger: Ledger,
  sheetId: number,
  timing: Timing | undefined,
  now = Date.now(),
): number {
  const limit = timing && timing.hourlyLimit;
  if (!limit) return Infinity;
  const hour = Math.floor(now / HOUR_MS) * HOUR_MS;
  const list = ledger.list(sheetId);
  let posted = 0;
  if (list) for (const person of list.people.values()) if (person.at >= hour) posted++;
  return Math.max(0, limit - Math.max(posted, ledger.postedInHour(sheetId, now)));
}

/** The next clock hour: when a list past its hourly limit may post again. */
export function nextHour(now = Date.now()): number {
  return (Math.floor(now / HOUR_MS) + 1) * HOUR_MS;
}
