// Turning API values into cell values. Every string that came from an API is untrusted: written as-is, a
// leading '=' would become a formula and '+1 555', '1-10', '2015-01' or 'TRUE' would be parsed into
// numbers, dates or booleans. Such a string gets the quote prefix (a leading apostrophe): Sheets keeps
// the rest as text and the apostrophe is not part of the value (Sheets API, ExtendedValue.stringValue).
// Any other string is written as it is. Text columns keep the General format: the quote prefix combined
// with the plain-text format '@' could keep the apostrophe literally, so the two are never combined.

export type CellValue = string | number | boolean | Date;

const MONTHS = [
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
/** Starts a formula, a signed number or a quote prefix of its own. */
const PARSED_START = /^[=+\-@']/;
/** Digits with number, date, time, percent or currency signs only: '00123', '1-10', '12%', '$5', '1e3'. */
const NUMBER_OR_DATE = /^[\d\s.,:/\-+()%$€£¥eE]*\d[\d\s.,:/\-+()%$€£¥eE]*$/;
/** A time of day with am/pm: '9pm', '10:30 a.m.'. */
const TIME_OF_DAY = /^\d{1,2}(:\d\d){0,2}\s*[ap]\.?(m\.?)?$/i;
/** One word between digits and date separators: 'Jan 5', '5 January 2015', 'Sept 2020'. */
const NAMED_DATE = /^[\d\s.,/-]*?([a-z]{3,9})\.?[\d\s.,/-]*$/i;

/** True when Sheets would read the string as something other than this text if it were typed in. */
export function needsQuote(text: string): boolean {
  if (PARSED_START.test(text)) return true;
  const s = text.trim();
  if (/^(true|false)$/i.test(s)) return true;
  if (!/\d/.test(s)) return false;
  if (PARSED_START.test(s) || NUMBER_OR_DATE.test(s) || TIME_OF_DAY.test(s)) return true;
  const named = NAMED_DATE.exec(s);
  return named !== null && isMonth(named[1]);
}

function isMonth(word: string): boolean {
  const w = word.toLowerCase();
  return w === 'sept' || MONTHS.some((month) => month.startsWith(w));
}

/** Untrusted text as a cell value that Sheets keeps as exactly this text. */
export function textCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return needsQuote(text) ? `'${text}` : text;
}

/** A list shown in one cell, e.g. industries. */
export function listCell(value: unknown): string {
  if (!Array.isArray(value)) return textCell(value);
  return textCell(value.filter((item) => item !== null && item !== undefined && item !== '').join(', '));
}

export function numberCell(value: unknown): number | string {
  return typeof value === 'number' && Number.isFinite(value) ? value : '';
}

/** A whole number sent as text (a founding year "1998"), or undefined (leading zeros are kept as text). */
export function wholeNumberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  const text = value === null || value === undefined ? '' : String(value).trim();
  return /^(0|[1-9]\d{0,14})$/.test(text) ? Number(text) : undefined;
}

/** A whole number sent as text as a number cell; any other text stays text. */
export function wholeNumberCell(value: unknown): number | string {
  const number = wholeNumberOf(value);
  return number === undefined ? textCell(value) : number;
}

export function booleanCell(value: unknown): boolean | string {
  return typeof value === 'boolean' ? value : '';
}

/** An ISO 8601 timestamp as a Date (shown with the column's date format), or blank. */
export function dateCell(value: unknown): Date | string {
  if (typeof value !== 'string' || value === '') return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? textCell(value) : date;
}

/** A cell read back from a sheet, as trimmed text (numbers and dates included). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  return String(value).trim();
}

/**
 * A cell as the user sees it where the value lost something: a number shown with leading zeros by its format
 * (07911123456, 0049…) is taken as shown, since the zeros say whether a phone number is national.
 */
export function asShown(value: unknown, display: string): unknown {
  return typeof value === 'number' && /^\s*0/.test(display) ? display : value;
}

/**
 * A cell that should hold text, as the user names it: text as it is (trimmed); anything else (a date, TRUE,
 * a number) as the cell shows it, never as its raw value ("2024-01-05T00:00:00.000Z", "true").
 */
export function textAsShown(value: unknown, display: string): string {
  return typeof value === 'string' ? value.trim() : display.trim();
}
