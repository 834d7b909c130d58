// What Compose says under the timing fields: in which zone the rows' mails are timed, and where that zone is
// only a guess (a country over several zones uses its capital's), with the fix.
import { spreadsheetZone } from '../words';
import { type ListRow, type MailingList, normalizeHeader } from '../../sheets';
import {
  countryZone,
  SEVERAL_ZONES,
  openingText,
  sendClock,
  type SendClock,
  type Timing,
  type SubjectTest,
  DEFAULT_BOUNCE_LIMIT,
  GUARD_MIN_FINAL,
} from '../outbox';
import { DAY_MS, HOUR_MS, count, formatCount, plural } from '../../platform';

const DAY_NAMES = ['', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const TIME_ZONE = normalizeHeader('Time zone');
const COUNTRY = normalizeHeader('Country');

export function timingNote(list: MailingList, timing: Timing): string {
  const parts: string[] = [];
  const window = timing.sendWindow;
  const zone = spreadsheetZone();
  if (window) {
    const days = window.days.map((d) => DAY_NAMES[d]).join(', ');
    const where =
      window.zone === 'recipient'
        ? "in each recipient's time zone"
        : `in the spreadsheet's time zone (${zone})`;
    parts.push(`Mails go ${days}, ${window.from} to ${window.to} ${where}; the hourly run sends the rest.`);
    if (window.zone === 'recipient') parts.push(zonesLine(list, timing, zone));
  }
  if (timing.skipDates) parts.push(`No mail and no follow-up goes on ${timing.skipDates.join(', ')}.`);
  if (timing.hourlyLimit)
    parts.push(`At most ${count(timing.hourlyLimit, 'mail')} an hour from this list, follow-ups included.`);
  return parts.filter(Boolean).join(' ');
}

/** How the rows' zones are found, and the countries whose zone is their capital's. */
function zonesLine(list: MailingList, timing: Timing, spreadsheetZone: string): string {
  const clock = sendClock(timing, spreadsheetZone);
  let byColumn = 0;
  let byCountry = 0;
  let byDefault = 0;
  const guessed = new Set<string>();
  for (const row of list.readRows()) {
    if (!row.key) continue;
    const zone = clock.zoneOf(row);
    const named = (row.display.get(TIME_ZONE) || '').trim();
    const country = (row.display.get(COUNTRY) || '').trim().toUpperCase();
    if (named && zone === named) byColumn++;
    else if (countryZone(country)) {
      byCountry++;
      if (SEVERAL_ZONES.includes(country)) guessed.add(country);
    } else byDefault++;
  }
  const line = [
    byColumn ? `${formatCount(byColumn)} by their Time zone column` : '',
    byCountry ? `${formatCount(byCountry)} by their Country (ISO code such as US, DE)` : '',
    byDefault
      ? `${formatCount(byDefault)} in the spreadsheet's zone (${spreadsheetZone}): no Time zone or Country`
      : '',
  ].filter(Boolean);
  const guess = guessed.size
    ? ` ${[...guessed].sort().join(', ')} ${plural(guessed.size, 'spans', 'span')} several time zones: their rows use the capital's; add a Time zone column (such as America/Chicago) for those rows.`
    : '';
  return line.length ? `Rows timed: ${line.join(', ')}.${guess}` : '';
}

/**
 * The confirmation's line on when the rows go: "1,200 now, 3,400 from 09:00 Mon 30 Nov in America/New_York";
 * the hourly limit's pace, inside the window. '' when the mail has no timing. `now` is when the send starts
 * (a scheduled send's time), `start` its word ("now", "at the start").
 */
export function whenLines(
  rows: ListRow[],
  timing: Timing | undefined,
  zone: string,
  now = Date.now(),
  start = 'now',
): string[] {
  if (!timing || rows.length === 0) return [];
  const lines: string[] = [];
  const clock = sendClock(timing, zone, now);
  if (timing.sendWindow || timing.skipDates) {
    let nowCount = 0;
    const later = new Map<string, { at: number; n: number }>();
    for (const row of rows) {
      const rowZone = clock.zoneOf(row);
      const at = clock.openAt(rowZone, now);
      if (at <= now) nowCount++;
      else {
        const text = openingText(at, rowZone);
        const group = later.get(text) || { at, n: 0 };
        group.n++;
        later.set(text, group);
      }
    }
    const groups = [...later].sort((a, b) => a[1].at - b[1].at);
    const shown = groups.slice(0, MAX_GROUPS).map(([text, { n }]) => `${formatCount(n)} from ${text}`);
    const rest = groups.slice(MAX_GROUPS).reduce((n, [, g]) => n + g.n, 0);
    if (rest) shown.push(`${formatCount(rest)} later, each in its window`);
    if (groups.length)
      lines.push(
        `When: ${[`${formatCount(nowCount)} ${start}`, ...shown].join(', ')}. Each row's Mail status says when it goes.`,
      );
  }
  if (timing.hourlyLimit && rows.length > timing.hourlyLimit)
    lines.push(paceLine(rows, timing, clock, zone, now));
  return lines;
}

/** The confirmation's line on the bounce guard: the threshold the payer confirms. */
export function guardLine(timing: Timing | undefined): string {
  const limit = (timing && timing.bounceLimit) || DEFAULT_BOUNCE_LIMIT;
  return `Bounce guard: the list pauses if more than ${limit} % of its mails fail (judged once ${GUARD_MIN_FINAL} are delivered or failed); you resume it from the menu.`;
}

/**
 * "these 1,221 take at least 25 sending hours, over about 4 days: the last go about 12:00 Thu 3 Dec (Etc/UTC)":
 * the hourly runs post up to the limit each, and only to rows whose window is open then.
 */
function paceLine(rows: ListRow[], timing: Timing, clock: SendClock, zone: string, now: number): string {
  const limit = timing.hourlyLimit!;
  const head = `Hourly limit: ${count(limit, 'mail')} an hour from this list (follow-ups included)`;
  const last = lastPost(rows, limit, clock, now);
  const n = formatCount(rows.length);
  if (last === null)
    return `${head}: these ${n} take more than ${MAX_PACE_DAYS} days inside the send window: send fewer rows or raise the limit.`;
  const hours = Math.ceil(rows.length / limit);
  const span = last - now;
  const over =
    span >= DAY_MS
      ? `, over about ${count(Math.max(1, Math.round(span / DAY_MS)), 'day')}: the last go about ${Utilities.formatDate(new Date(last), zone, 'HH:mm EEE d MMM')} (${zone})`
      : '';
  return `${head}: these ${n} take at least ${count(hours, timing.sendWindow || timing.skipDates ? 'sending hour' : 'hour')}${over}.`;
}

const MAX_PACE_DAYS = 366;

/**
 * When the hourly runs (one an hour from `now`) post the last of the rows, each posting up to `limit` rows
 * whose window is open at that run; a run with no open row is skipped to the next opening. Null past a year.
 */
function lastPost(rows: ListRow[], limit: number, clock: SendClock, now: number): number | null {
  const left = new Map<string, number>();
  for (const row of rows) {
    const rowZone = clock.zoneOf(row);
    left.set(rowZone, (left.get(rowZone) || 0) + 1);
  }
  let at = now;
  let last = now;
  while (left.size) {
    if (at - now > MAX_PACE_DAYS * DAY_MS) return null;
    let room = limit;
    let next = Infinity;
    for (const [rowZone, n] of left) {
      const open = clock.openAt(rowZone, at);
      if (open > at) {
        next = Math.min(next, open);
        continue;
      }
      const posted = Math.min(room, n);
      room -= posted;
      last = at;
      if (posted === n) left.delete(rowZone);
      else left.set(rowZone, n - posted);
      if (room === 0) break;
    }
    // The next run: an hour on, or the first run at or after the next opening when nothing was open.
    at += room === limit && next !== Infinity ? Math.ceil((next - at) / HOUR_MS) * HOUR_MS : HOUR_MS;
  }
  return last;
}

const MAX_GROUPS = 4;

/**
 * The confirmation's line on a subject test: who gets which subject, and when the rest get the winner; how many
 * of the share an hourly limit lets go before the test is decided (the open rates are measured on those).
 */
export function testLines(rows: number, test: SubjectTest | undefined, timing?: Timing): string[] {
  if (!test || rows === 0) return [];
  const share = Math.round((rows * test.share) / 100);
  const subjects = test.variants.map((s) => `"${s}"`).join(', ');
  const line = `Subject test: about ${formatCount(share)} of these rows (${test.share}%) get the subjects ${subjects} in turn; ${count(test.decideAfterHours, 'hour')} after their first mails the subject opened most (a tie: the first) goes to the other rows; if none was opened, it waits up to a day more, then the first goes. Each subject goes in tasks of its own, so the service counts its opens apart.`;
  const limit = timing && timing.hourlyLimit;
  const measured = limit ? limit * test.decideAfterHours : Infinity;
  if (measured >= share) return [line];
  return [
    line,
    `The hourly limit (${count(limit!, 'mail')} an hour) lets at most ${formatCount(measured)} of those ${formatCount(share)} go before the test is decided: the open rates are measured on those, and the others of the share get their subject after.`,
  ];
}
