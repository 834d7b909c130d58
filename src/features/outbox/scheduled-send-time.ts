// Times of a send scheduled for later. The dialog gives a wall time in the spreadsheet's time zone (an ISO
// 8601 date-time without an offset); one with an offset or Z is taken as it says. Add-on triggers run at
// most once an hour, at a minute Google picks, so a send starts in the hour after its time: the dialog says
// so instead of promising a minute.
import { HOUR_MS } from '../../platform';
import { UserError } from '../errors';

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/** Minutes east of UTC of `zone` at `ms`. */
function offsetMinutes(ms: number, zone: string): number {
  const z = Utilities.formatDate(new Date(ms), zone, 'Z'); // "+0130"
  const sign = z.startsWith('-') ? -1 : 1;
  return sign * (Number(z.slice(1, 3)) * 60 + Number(z.slice(3, 5)));
}

/** The instant an ISO 8601 date-time names; without an offset it is a wall time in `zone`. */
export function parseWhen(when: unknown, zone: string): number {
  const text = String(when === undefined || when === null ? '' : when).trim();
  const m = ISO.exec(text);
  if (!m) {
    throw new UserError(
      `"${text}" is not a date and time: give it as 2026-01-05T14:00 (the spreadsheet's time zone).`,
    );
  }
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map((v) => Number(v || 0));
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(wall);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59) {
    throw new UserError(`"${text}" is not a date and time that exists.`);
  }
  if (m[7]) {
    if (m[7].toUpperCase() === 'Z') return wall;
    const off = m[7].replace(':', '');
    const minutes = (off.startsWith('-') ? -1 : 1) * (Number(off.slice(1, 3)) * 60 + Number(off.slice(3, 5)));
    return wall - minutes * 60_000;
  }
  const first = wall - offsetMinutes(wall, zone) * 60_000;
  const second = wall - offsetMinutes(first, zone) * 60_000; // across a daylight-saving change
  return second;
}

/** "between 14:00 and 15:00 on 2026-01-05 (Europe/Paris)": the hour in which a send due at `at` starts. */
export function startWindowText(at: number, zone: string): string {
  const from = Math.max(at, Date.now());
  const time = (ms: number) => Utilities.formatDate(new Date(ms), zone, 'HH:mm');
  const day = Utilities.formatDate(new Date(from), zone, 'yyyy-MM-dd');
  return `between ${time(from)} and ${time(from + HOUR_MS)} on ${day} (${zone})`;
}
