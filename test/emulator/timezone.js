'use strict';
// Time-zone arithmetic (Intl) and the two date pattern languages the emulator needs: Java's
// SimpleDateFormat (Utilities.formatDate) and Sheets number formats for dates (getDisplayValues).

const formatters = new Map();

/** Fixed-offset zones such as 'GMT+2', 'GMT-05:30', 'UTC' return minutes; IANA names return null. */
function fixedOffset(tz) {
  if (/^(GMT|UTC|Z)$/i.test(tz)) return 0;
  const m = /^(?:GMT|UTC)([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(tz);
  if (!m) return null;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] || 0));
}

function formatter(tz) {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
      era: 'short',
    });
    formatters.set(tz, f);
  }
  return f;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The IANA names of UTC itself: no offset, no daylight saving (computed without Intl). */
const UTC_NAMES = new Set([
  'Etc/UTC',
  'Etc/GMT',
  'Etc/UCT',
  'Etc/Universal',
  'Etc/Zulu',
  'UCT',
  'Universal',
  'Zulu',
]);
/** zonedParts is pure and Intl is slow (a 100,000-row sheet of dates): answers are kept, a bounded number. */
const partsCache = new Map();
const PARTS_CACHE_MAX = 50_000;

/** Wall-clock parts of an instant in a zone: { year, month (1-12), day, hour, minute, second, ms, weekday (0=Sun), offsetMinutes }. */
function zonedParts(ms, tz = 'Etc/UTC') {
  const key = `${tz}|${ms}`;
  const known = partsCache.get(key);
  if (known) return { ...known };
  const parts = computeZonedParts(ms, tz);
  if (partsCache.size >= PARTS_CACHE_MAX) partsCache.clear();
  partsCache.set(key, parts);
  return { ...parts };
}

function computeZonedParts(ms, tz) {
  const fixed = UTC_NAMES.has(tz) ? 0 : fixedOffset(tz);
  if (fixed !== null) {
    const d = new Date(ms + fixed * 60000);
    return {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
      ms: d.getUTCMilliseconds(),
      weekday: d.getUTCDay(),
      offsetMinutes: fixed,
    };
  }
  const parts = {};
  for (const p of formatter(tz).formatToParts(new Date(ms))) parts[p.type] = p.value;
  let year = Number(parts.year);
  if (parts.era === 'BC') year = 1 - year;
  const out = {
    year,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    ms: ((ms % 1000) + 1000) % 1000,
    weekday: WEEKDAYS.indexOf(parts.weekday),
  };
  const asUtc = Date.UTC(out.year, out.month - 1, out.day, out.hour, out.minute, out.second, out.ms);
  out.offsetMinutes = Math.round((asUtc - ms) / 60000);
  return out;
}

/** The instant of a wall-clock time in a zone. */
function zonedToUtc(tz, year, month, day, hour = 0, minute = 0, second = 0, ms = 0) {
  const guess = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  let t = guess - zonedParts(guess, tz).offsetMinutes * 60000;
  t = guess - zonedParts(t, tz).offsetMinutes * 60000;
  return t;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const pad = (n, w) => String(Math.abs(n)).padStart(w, '0');

function offsetString(min, style) {
  if (style === 'X' && min === 0) return 'Z';
  const sign = min < 0 ? '-' : '+';
  const h = pad(Math.floor(Math.abs(min) / 60), 2);
  const m = pad(Math.abs(min) % 60, 2);
  if (style === 'X1') return `${sign}${h}`;
  if (style === 'X' || style === 'colon') return `${sign}${h}:${m}`;
  return `${sign}${h}${m}`;
}

/** The zone's short name at `ms` (EST or EDT, by the date formatted), or GMT±hh:mm. */
function zoneName(tz, min, ms) {
  if (/^(Etc\/)?(UTC|GMT|Z)$/i.test(tz) || (min === 0 && /UTC|GMT/i.test(tz))) return min === 0 ? 'UTC' : tz;
  try {
    const p = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'short' })
      .formatToParts(new Date(ms))
      .find((x) => x.type === 'timeZoneName');
    if (p && !/^GMT[+-]/.test(p.value)) return p.value;
  } catch {
    /* fall through */
  }
  return `GMT${offsetString(min, 'colon')}`;
}

/** Java SimpleDateFormat, as Utilities.formatDate(date, timeZone, pattern) uses it. */
function formatSimpleDate(ms, tz, pattern) {
  const p = zonedParts(ms, tz);
  let out = '';
  for (let i = 0; i < pattern.length;) {
    const ch = pattern[i];
    if (ch === "'") {
      if (pattern[i + 1] === "'") {
        out += "'";
        i += 2;
        continue;
      }
      i++;
      while (i < pattern.length) {
        if (pattern[i] === "'" && pattern[i + 1] === "'") {
          out += "'";
          i += 2;
        } else if (pattern[i] === "'") {
          i++;
          break;
        } else out += pattern[i++];
      }
      continue;
    }
    if (!/[A-Za-z]/.test(ch)) {
      out += ch;
      i++;
      continue;
    }
    let n = 1;
    while (pattern[i + n] === ch) n++;
    i += n;
    const hour12 = p.hour % 12 === 0 ? 12 : p.hour % 12;
    switch (ch) {
      case 'y':
      case 'Y':
        out += n === 2 ? pad(p.year % 100, 2) : pad(p.year, n);
        break;
      case 'M':
      case 'L':
        out += n >= 4 ? MONTHS[p.month - 1] : n === 3 ? MONTHS[p.month - 1].slice(0, 3) : pad(p.month, n);
        break;
      case 'd':
        out += pad(p.day, n);
        break;
      case 'E':
        out += n >= 4 ? DAYS[p.weekday] : DAYS[p.weekday].slice(0, 3);
        break;
      case 'H':
        out += pad(p.hour, n);
        break;
      case 'k':
        out += pad(p.hour === 0 ? 24 : p.hour, n);
        break;
      case 'h':
        out += pad(hour12, n);
        break;
      case 'K':
        out += pad(p.hour % 12, n);
        break;
      case 'm':
        out += pad(p.minute, n);
        break;
      case 's':
        out += pad(p.second, n);
        break;
      case 'S':
        out += pad(p.ms, 3).slice(0, Math.max(n, 3)).padEnd(n, '0');
        break;
      case 'a':
        out += p.hour < 12 ? 'AM' : 'PM';
        break;
      case 'Z':
        out += offsetString(p.offsetMinutes, 'Z');
        break;
      case 'X':
        out +=
          n === 1
            ? p.offsetMinutes === 0
              ? 'Z'
              : offsetString(p.offsetMinutes, 'X1')
            : n === 2
              ? p.offsetMinutes === 0
                ? 'Z'
                : offsetString(p.offsetMinutes, 'Z')
              : offsetString(p.offsetMinutes, 'X');
        break;
      case 'z':
        out += zoneName(tz, p.offsetMinutes, ms);
        break;
      case 'D': {
        const doy = (Date.UTC(p.year, p.month - 1, p.day) - Date.UTC(p.year, 0, 1)) / 86400000 + 1;
        out += pad(doy, n);
        break;
      }
      case 'u':
        out += String(p.weekday === 0 ? 7 : p.weekday);
        break;
      default:
        throw new Error(`Illegal pattern character '${ch}'`);
    }
  }
  return out;
}

/** Sheets date/time number formats ('yyyy-mm-dd', 'M/d/yyyy H:mm:ss', 'mmm d, yyyy', 'h:mm am/pm'). */
function formatSheetsDate(ms, tz, pattern) {
  const p = zonedParts(ms, tz);
  const tokens = [];
  const re = /(am\/pm|a\/p|"[^"]*"|\\.|y+|m+|d+|h+|s+|\.0+|[^ymdhsa"\\.]+|\.|a)/gi;
  let m;
  while ((m = re.exec(pattern))) tokens.push(m[0]);
  const hasAmPm = tokens.some((t) => /^(am\/pm|a\/p)$/i.test(t));
  const out = [];
  tokens.forEach((t, i) => {
    const lower = t.toLowerCase();
    const ch = lower[0];
    if (t.startsWith('"')) return out.push(t.slice(1, -1));
    if (t.startsWith('\\')) return out.push(t.slice(1));
    if (/^(am\/pm|a\/p)$/i.test(t)) return out.push(p.hour < 12 ? 'AM' : 'PM');
    if (/^\.0+$/.test(t))
      return out.push(
        '.' +
          pad(p.ms, 3)
            .slice(0, t.length - 1)
            .padEnd(t.length - 1, '0'),
      );
    if (ch === 'y') return out.push(t.length <= 2 ? pad(p.year % 100, 2) : String(p.year));
    if (ch === 'd') {
      if (t.length >= 4) return out.push(DAYS[p.weekday]);
      if (t.length === 3) return out.push(DAYS[p.weekday].slice(0, 3));
      return out.push(pad(p.day, t.length));
    }
    if (ch === 'h') {
      const h = hasAmPm ? (p.hour % 12 === 0 ? 12 : p.hour % 12) : p.hour;
      return out.push(pad(h, t.length));
    }
    if (ch === 's') return out.push(pad(p.second, t.length));
    if (ch === 'm') {
      const prev = tokens
        .slice(0, i)
        .reverse()
        .find((x) => /^[a-z]/i.test(x) && !/^(am|a\/p)/i.test(x));
      const next = tokens.slice(i + 1).find((x) => /^[a-z]/i.test(x) && !/^(am|a\/p)/i.test(x));
      const isMinute = t.length <= 2 && ((prev && /^h/i.test(prev)) || (next && /^s/i.test(next)));
      if (isMinute) return out.push(pad(p.minute, t.length));
      if (t.length >= 4) return out.push(MONTHS[p.month - 1]);
      if (t.length === 3) return out.push(MONTHS[p.month - 1].slice(0, 3));
      return out.push(pad(p.month, t.length));
    }
    return out.push(t);
  });
  return out.join('');
}

function isValidTimeZone(tz) {
  if (fixedOffset(tz) !== null) return true;
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

module.exports = { zonedParts, zonedToUtc, formatSimpleDate, formatSheetsDate, isValidTimeZone };
