'use strict';
// What a cell holds and shows: the coercion Sheets applies to what setValue(s) writes (formulas, the
// quote prefix, numbers, booleans, dates, plain-text format '@'), display strings for number formats, and
// the sort order.
const { isDate } = require('./realm');
const { zonedToUtc, zonedParts, formatSheetsDate } = require('./timezone');

const SERIAL_EPOCH_MS = Date.UTC(1899, 11, 30);
const NUMBER = /^([+-])?(\$)?(\d{1,3}(?:,\d{3})+|\d+)?(\.\d+)?(?:[eE]([+-]?\d+))?(%)?$/;

/** Parses what a user could type as a number: '123', '+15551234567', '-5', '1,234.5', '12%', '$5', '1e3'. */
function parseNumber(text) {
  const s = text.trim();
  const m = NUMBER.exec(s);
  if (!m || (m[3] === undefined && m[4] === undefined)) return null;
  if (m[5] !== undefined && m[6]) return null;
  let n = Number(
    `${m[1] || ''}${(m[3] || '0').replace(/,/g, '')}${m[4] || ''}${m[5] !== undefined ? 'e' + m[5] : ''}`,
  );
  if (!Number.isFinite(n)) return null;
  // Sheets keeps 15 significant digits: a 19-digit ID typed as a number loses its tail.
  if ((m[3] || '').replace(/\D/g, '').replace(/^0+/, '').length + (m[4] || '').length - 1 > 15)
    n = Number(n.toPrecision(15));
  let format = null;
  if (m[6]) {
    n = n / 100;
    format = m[4] ? '0.00%' : '0%';
  } else if (m[2]) format = '$#,##0.00';
  return { value: n, format };
}

const MONTH_NAMES = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** 1..12 for a month name or its abbreviation of at least 3 letters ('Jan', 'Sept', 'march'), else null. */
function monthNumber(word) {
  const w = word.toLowerCase().replace(/\.$/, '');
  if (w === 'sept') return 9;
  const i = MONTH_NAMES.findIndex((m) => w.length >= 3 && m.startsWith(w));
  return i < 0 ? null : i + 1;
}

/** A two-digit year as spreadsheets read it: 00-29 → 20xx, 30-99 → 19xx. */
const fullYear = (yy) => (yy < 30 ? 2000 + yy : 1900 + yy);

/**
 * Dates without a time that Sheets (en_US) recognises besides the ISO and US forms: a month and day
 * ('1-10', '1/10', 'Jan 5', '5 Jan': this year), a year and month ('2015-01', '1/2015', 'Jan 2015': the
 * first of the month), a month and two-digit year ('11-50') and named months with a year ('Jan 5, 2015',
 * '5 January 2015'). Returns [year, month, day] or null. Modelled conservatively: where Sheets might read
 * a string as a date, the emulator does, so add-on code must quote such text.
 */
function parsePartialDate(s, thisYear) {
  let m = /^(\d{1,2})[-/](\d{1,2})$/.exec(s);
  if (m) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    if (b >= 1 && b <= 31) return [thisYear, a, b];
    return [fullYear(b), a, 1];
  }
  if ((m = /^(\d{4})[-/](\d{1,2})$/.exec(s))) return [Number(m[1]), Number(m[2]), 1];
  if ((m = /^(\d{1,2})[-/](\d{4})$/.exec(s))) return [Number(m[2]), Number(m[1]), 1];
  if ((m = /^([a-z]+\.?)\s+(\d{4})$/i.exec(s)) && monthNumber(m[1]))
    return [Number(m[2]), monthNumber(m[1]), 1];
  if ((m = /^([a-z]+\.?)\s+(\d{1,2})(?:,?\s+(\d{4}))?$/i.exec(s)) && monthNumber(m[1]))
    return [m[3] ? Number(m[3]) : thisYear, monthNumber(m[1]), Number(m[2])];
  if ((m = /^(\d{1,2})\s+([a-z]+\.?),?(?:\s+(\d{4}))?$/i.exec(s)) && monthNumber(m[2]))
    return [m[3] ? Number(m[3]) : thisYear, monthNumber(m[2]), Number(m[1])];
  return null;
}

/**
 * Parses dates and times Sheets (en_US) recognises: 2026-01-05, 2026/1/5, 1/5/2026, '2026-01-05 10:30',
 * '10:30', and the partial and named forms of parsePartialDate. `nowMs` gives "this year".
 */
function parseDateTime(text, tz, nowMs = Date.now()) {
  const s = text.trim();
  let m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(s);
  let y, mo, d, h, mi, se, format;
  let partial;
  if (m) {
    [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    format = m[4] !== undefined ? 'yyyy-mm-dd h:mm:ss' : 'yyyy-mm-dd';
    [h, mi, se] = [Number(m[4] || 0), Number(m[5] || 0), Number(m[6] || 0)];
  } else if ((m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(s))) {
    [mo, d, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
    format = m[4] !== undefined ? 'M/d/yyyy H:mm:ss' : 'M/d/yyyy';
    [h, mi, se] = [Number(m[4] || 0), Number(m[5] || 0), Number(m[6] || 0)];
  } else if ((m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(s))) {
    [y, mo, d] = [1899, 12, 30];
    [h, mi, se] = [Number(m[1]), Number(m[2]), Number(m[3] || 0)];
    format = m[3] !== undefined ? 'h:mm:ss' : 'h:mm';
    if (h > 23 || mi > 59 || se > 59) return null;
  } else if ((partial = parsePartialDate(s, zonedParts(nowMs, tz).year))) {
    [y, mo, d] = partial;
    [h, mi, se] = [0, 0, 0];
    format = 'M/d/yyyy';
  } else return null;
  if (mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return null;
  if (h > 23 || mi > 59 || se > 59) return null;
  return { value: new Date(zonedToUtc(tz, y, mo, d, h, mi, se)), format };
}

/**
 * What a written value becomes in a cell: { v, f, format } where f is a formula and format a number format
 * Sheets applies automatically (dates, percents) when the cell has none.
 */
function coerceInput(input, cellFormat, tz, nowMs) {
  if (input === null || input === undefined) return { v: '' };
  if (typeof input === 'number') {
    if (Number.isFinite(input)) return { v: input };
    return { v: '#NUM!', error: 'Invalid number' };
  }
  if (typeof input === 'boolean') return { v: input };
  if (isDate(input)) {
    const t = input.getTime();
    if (Number.isNaN(t)) return { v: '' };
    return { v: new Date(t), format: 'M/d/yyyy H:mm:ss' };
  }
  if (typeof input !== 'string') return { v: String(input) };
  if (input === '') return { v: '' };
  // Plain text format: what is written is kept as it is. How Sheets treats a leading apostrophe there is
  // not documented; the emulator keeps it literally (the conservative choice: quote prefix plus '@' shows
  // up as a visible apostrophe that grows on every rewrite).
  if (cellFormat === '@') return { v: input };
  // The quote prefix: not part of the value (Sheets API ExtendedValue.stringValue), the rest stays text.
  if (input.startsWith("'")) return { v: input.slice(1), quoted: true };
  if (input.startsWith('=') && input.length > 1) return { v: '', f: input };
  const upper = input.trim().toUpperCase();
  if (upper === 'TRUE' || upper === 'FALSE') return { v: upper === 'TRUE' };
  const n = parseNumber(input);
  if (n) return { v: n.value, format: n.format || undefined };
  const d = parseDateTime(input, tz, nowMs);
  if (d) return { v: d.value, format: d.format };
  return { v: input };
}

const isDateFormat = (fmt) =>
  /[ydhs]|m{3,}|(^|[^0#.,$%])m/i.test(fmt.replace(/"[^"]*"/g, '')) && !/[0#]/.test(fmt);

function dateFromSerial(n) {
  return new Date(SERIAL_EPOCH_MS + Math.round(n * 86400000));
}

function serialFromDate(d, tz) {
  const p = zonedParts(d.getTime(), tz);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second, p.ms);
  return (wall - SERIAL_EPOCH_MS) / 86400000;
}

function generalNumber(n) {
  if (n === 0) return '0';
  const a = Math.abs(n);
  if (a >= 1e15 || a < 1e-9)
    return n
      .toExponential()
      .replace('e', 'E')
      .replace(/E\+?/, (x) => (x === 'E' ? 'E' : 'E+'));
  return String(Number(n.toPrecision(15)));
}

const literal = (s) => s.replace(/"([^"]*)"/g, '$1').replace(/\\(.)/g, '$1');

/** A number format's section, parsed once (a list's every cell shows through the same few formats). */
const parsedSections = new Map();
function parseSection(fmt) {
  let parsed = parsedSections.get(fmt);
  if (parsed !== undefined) return parsed;
  const m = /^(.*?)([#0,]*0[#0,]*|#[#,]*)(\.[0#]+)?(.*)$/.exec(fmt);
  if (!m) parsed = null;
  else {
    const [, prefix, intPart, decPart = '', suffix] = m;
    const minDec = (decPart.match(/0/g) || []).length;
    const maxDec = Math.max(0, decPart.length - 1);
    parsed = {
      prefix: literal(prefix),
      suffix: literal(suffix),
      percent: suffix.includes('%'),
      minDec,
      maxDec,
      trailing: maxDec > minDec ? new RegExp(`0{1,${maxDec - minDec}}$`) : null,
      minInt: (intPart.replace(/,/g, '').match(/0/g) || []).length,
      grouped: intPart.includes(','),
    };
  }
  if (parsedSections.size > 1000) parsedSections.clear();
  parsedSections.set(fmt, parsed);
  return parsed;
}

/** Formats a number with patterns like '0', '0.00', '#,##0', '#,##0.00', '0%', '0.0%', '$#,##0.00', '0.0#'. */
function formatNumberPattern(n, pattern) {
  const section = pattern.split(';');
  let fmt = section[0];
  if (n < 0 && section[1]) {
    fmt = section[1];
    n = -n;
  } else if (n === 0 && section[2]) fmt = section[2];
  const f = parseSection(fmt);
  if (!f) return generalNumber(n);
  let value = n;
  if (f.percent) value *= 100;
  const fixed = Math.abs(value).toFixed(f.maxDec);
  let s = fixed;
  if (f.trailing) s = s.replace(f.trailing, '').replace(/\.$/, '');
  let [int, dec] = s.split('.');
  int = int.replace(/^0+(?=\d)/, '');
  if (int === '0' && f.minInt === 0) int = '';
  int = int.padStart(f.minInt, '0');
  if (f.grouped) int = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = value < 0 && fixed !== (0).toFixed(f.maxDec) ? '-' : '';
  return `${sign}${f.prefix}${int}${dec ? '.' + dec : ''}${f.suffix}`;
}

/** What getDisplayValue() shows for a stored value and number format. */
function displayValue(v, fmt, tz) {
  if (v === '' || v === undefined || v === null) return '';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'string') return v;
  const format = fmt && fmt !== 'General' && fmt !== '@' ? fmt : null;
  if (isDate(v)) {
    if (format && isDateFormat(format)) return formatSheetsDate(v.getTime(), tz, format);
    if (format) return formatNumberPattern(serialFromDate(v, tz), format);
    const p = zonedParts(v.getTime(), tz);
    if (p.year === 1899 && p.month === 12 && p.day === 30)
      return formatSheetsDate(v.getTime(), tz, 'H:mm:ss');
    const midnight = p.hour === 0 && p.minute === 0 && p.second === 0;
    return formatSheetsDate(v.getTime(), tz, midnight ? 'M/d/yyyy' : 'M/d/yyyy H:mm:ss');
  }
  if (typeof v === 'number') {
    if (format && isDateFormat(format))
      return formatSheetsDate(dateFromSerial(v).getTime(), 'Etc/UTC', format);
    if (format) return formatNumberPattern(v, format);
    return generalNumber(v);
  }
  return String(v);
}

/** Sort rank: numbers and dates, then text, then booleans, then errors; empty cells always last. */
function sortKey(v) {
  if (v === '' || v === undefined || v === null) return null;
  if (typeof v === 'number') return [0, v];
  if (isDate(v)) return [0, (v.getTime() - SERIAL_EPOCH_MS) / 86400000];
  if (typeof v === 'boolean') return [2, v ? 1 : 0];
  if (typeof v === 'string' && /^#[A-Z0-9/!?]+$/.test(v)) return [3, v];
  return [1, String(v).toLowerCase()];
}

function compareValues(a, b, ascending = true) {
  const ka = sortKey(a);
  const kb = sortKey(b);
  if (ka === null || kb === null) return ka === kb ? 0 : ka === null ? 1 : -1;
  let c = ka[0] - kb[0];
  if (c === 0) c = typeof ka[1] === 'string' ? (ka[1] < kb[1] ? -1 : ka[1] > kb[1] ? 1 : 0) : ka[1] - kb[1];
  return ascending ? c : -c;
}

module.exports = {
  coerceInput,
  parseNumber,
  parseDateTime,
  displayValue,
  formatNumberPattern,
  compareValues,
  dateFromSerial,
  serialFromDate,
  isDateFormat,
};
