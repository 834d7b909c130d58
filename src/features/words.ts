// Small wordings shared by the features' messages.
import type { ApiError } from '../api/errors';

/** "1 number", "2 numbers", "25,000 numbers". */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${formatCount(n)} ${n === 1 ? noun : plural}`;
}

/** A whole number with thousands separators: 25000 → "25,000" (decimals are kept as they are). */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const [whole, fraction] = String(Math.abs(n)).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${n < 0 ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** The one date-and-time format of messages: "2026-11-25 14:30", in the spreadsheet's time zone. */
export function whenText(ms: number, zone = spreadsheetZone()): string {
  return Utilities.formatDate(new Date(ms), zone, DATE_TIME_FORMAT);
}

export const DATE_TIME_FORMAT = 'yyyy-MM-dd HH:mm';

/** The spreadsheet's time zone (the script's when no document is open). */
export function spreadsheetZone(): string {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  return spreadsheet ? spreadsheet.getSpreadsheetTimeZone() : Session.getScriptTimeZone();
}

/** " It needs 3 EDM and 1 is available." from a 402's amounts; "" when the service did not state them. */
export function neededText(error: ApiError, unit = ''): string {
  if (error.required === undefined || error.available === undefined) return '';
  const needs = unit ? `${error.required} ${unit}` : String(error.required);
  return ` It needs ${needs} and ${error.available} ${error.available === 1 ? 'is' : 'are'} available.`;
}
