// Small wordings shared by the features' messages: dates and times, a 402's amounts, a sentence as a clause.
// It makes words and never reads them back.
import { type ApiError } from '../api';
import { formatCount, plural } from '../platform';

/**
 * A sentence (an error's words, a service's detail) as a clause of a longer one: without its final full
 * stop. The one place that edits a sentence made elsewhere; it decides nothing.
 */
export function asClause(sentence: string): string {
  const text = sentence.trim();
  return text.endsWith('.') ? text.slice(0, -1) : text;
}

/** The one date-and-time format of messages: "2026-11-25 14:30", in the spreadsheet's time zone. */
export function whenText(ms: number, zone = spreadsheetZone()): string {
  return Utilities.formatDate(new Date(ms), zone, DATE_TIME_FORMAT);
}

const DATE_TIME_FORMAT = 'yyyy-MM-dd HH:mm';

let zoneOfExecution: string | undefined;

/**
 * The spreadsheet's time zone (the script's when no document is open), read once an execution: each read is a
 * spreadsheet call, and a send asks for it a dozen times before its first post.
 */
export function spreadsheetZone(of?: GoogleAppsScript.Spreadsheet.Spreadsheet): string {
  if (zoneOfExecution === undefined) {
    // A trigger's run names its document (`of`): an execution works on one document.
    const spreadsheet = of || SpreadsheetApp.getActiveSpreadsheet();
    if (!spreadsheet) return Session.getScriptTimeZone();
    zoneOfExecution = spreadsheet.getSpreadsheetTimeZone();
  }
  return zoneOfExecution;
}

/** " It needs 3 EDM and 1 is available." from a 402's amounts; "" when the service did not state them. */
export function neededText(error: ApiError, unit = ''): string {
  if (error.kind !== 'funds' || error.required === undefined || error.available === undefined) return '';
  const needs = unit ? `${formatCount(error.required)} ${unit}` : formatCount(error.required);
  return ` It needs ${needs} and ${formatCount(error.available)} ${plural(error.available, 'is', 'are')} available.`;
}
