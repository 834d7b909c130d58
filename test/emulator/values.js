'use strict';
// What a cell holds and shows: the coercion Sheets applies to what setValue(s) writes (formulas, the
// leading apostrophe, numbers, booleans, dates, plain-text format '@'), display strings for number
// formats, and the sort order.
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

/** Parses dates and times Sheets (en_US) recognises: 2026-01-05, 2026/1/5, 1/5/2026, '2026-01-05 10:30', '10:30'. */
function parseDateTime(text, tz) {
  const s = text.trim();
  let m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(s);
  let y, mo, d, h, mi, se, format;
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
  } else return null;
  if (mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return null;
  if (h > 23 || mi > 59 || se > 59) return null;
  return { value: new Date(zonedToUtc(tz, y, mo, d, h, mi, se)), format };
}

/**
 * What a written value becomes in a cell: { v, f, format } where f is a formula and format a number format
 * Sheets applies automatically (dates, percents) when the cell has none.
 */
function coerceInput(input, cellFormat, tz) {
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
  if (input.startsWith("'")) return { v: input.slice(1), quoted: true };
  if (cellFormat === '@') return { v: input };
  if (input.startsWith('=') && input.length > 1) return { v: '', f: input };
  const upper = input.trim().toUpperCase();
  if (upper === 'TRUE' || upper === 'FALSE') return { v: upper === 'TRUE' };
  const n = parseNumber(input);
  if (n) return { v: n.value, format: n.format || undefined };
  const d = parseDateTime(input, tz);
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

/** Formats a number with patterns like '0', '0.00', '#,##0', '#,##0.00', '0%', '0.0%', '$#,##0.00', '0.0#'. */
function formatNumberPattern(n, pattern) {
  const section = pattern.split(';');
  let fmt = section[0];
  if (n < 0 && section[1]) {
    fmt = section[1];
    n = -n;
  } else if (n === 0 && section[2]) fmt = section[2];
  const literal = (s) => s.replace(/"([^"]*)"/g, '$1').replace(/\\(.)/g, '$1');
  const m = /^(.*?)([#0,]*0[#0,]*|#[#,]*)(\.[0#]+)?(.*)$/.exec(fmt);
  if (!m) return generalNumber(n);
  const [, prefix, intPart, decPart = '', suffix] = m;
  let value = n;
  if (suffix.includes('%')) value *= 100;
  const minDec = (decPart.match(/0/g) || []).length;
  const maxDec = Math.max(0, decPart.length - 1);
  let s = Math.abs(value).toFixed(maxDec);
  if (maxDec > minDec) s = s.replace(new RegExp(`0{1,${maxDec - minDec}}$`), '').replace(/\.$/, '');
  let [int, dec] = s.split('.');
  const minInt = (intPart.replace(/,/g, '').match(/0/g) || []).length;
  int = int.replace(/^0+(?=\d)/, '');
  if (int === '0' && minInt === 0) int = '';
  int = int.padStart(minInt, '0');
  if (intPart.includes(',')) int = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = value < 0 && Math.abs(value).toFixed(maxDec) !== (0).toFixed(maxDec) ? '-' : '';
  return `${sign}${literal(prefix)}${int}${dec ? '.' + dec : ''}${literal(suffix)}`;
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
