// What a refresh reads, found in the sheets (the record of what was sent; nothing of it is kept in
// properties): the Mail IDs of every sheet with the mailing-list columns (its rows that were sent) and the
// Tracking sheet. A mail can still change unless Tracking already says it is final (Delivered or Failed):
// those are the mails a refresh reads, in mail-id order. Read with one getValues per column used, so a step
// costs the same few calls at 100 mails or 100,000.
import { MAIL_COLUMNS, TRACKING, TRACKING_SUMMARY } from '../../sheets/layouts';
import { normalizeHeader } from '../../sheets/table';
import type { SentMail } from './tracking-data';
import { isFinalState } from './tracking-rows';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

export interface MailIndex {
  /** Mail ids that can still change (not on Tracking yet, or on it and not final), ascending. */
  open: number[];
  /** Mail id → its sending sheet and task, for every row of a mailing list that has a Mail ID. */
  sent: Map<number, SentMail>;
  /** Mail ids on the Tracking sheet. */
  tracked: Set<number>;
  /** Mails on Tracking that are final. */
  final: number;
}

const mailHeader = (key: string) => normalizeHeader(MAIL_COLUMNS.find((c) => c.key === key)!.header);
const trackingHeader = (key: string) => normalizeHeader(TRACKING.columns.find((c) => c.key === key)!.header);

export function readMailIndex(spreadsheet: Spreadsheet): MailIndex {
  const sent = new Map<number, SentMail>();
  let tracking: Sheet | null = null;
  for (const sheet of spreadsheet.getSheets()) {
    const name = sheet.getName();
    if (name === TRACKING.sheetName) tracking = sheet;
    else if (name !== TRACKING_SUMMARY.sheetName) readSentRows(sheet, sent);
  }
  const tracked = new Set<number>();
  const open = new Set<number>();
  let final = 0;
  if (tracking) {
    const [mailIds, states] = readColumns(tracking, [trackingHeader('mailId'), trackingHeader('mailStatus')]);
    mailIds.forEach((value, i) => {
      const id = idOf(value);
      if (id === null) return;
      tracked.add(id);
      if (isFinalState(String(states[i]))) final++;
      else open.add(id);
    });
  }
  for (const id of sent.keys()) if (!tracked.has(id)) open.add(id);
  return { open: [...open].sort((a, b) => a - b), sent, tracked, final };
}

/** The Mail ID and Task ID of the rows of a mailing list (a sheet with both headers); others add nothing. */
function readSentRows(sheet: Sheet, sent: Map<number, SentMail>): void {
  const [mailIds, taskIds] = readColumns(sheet, [mailHeader('mailId'), mailHeader('taskId')]);
  const sheetId = sheet.getSheetId();
  mailIds.forEach((value, i) => {
    const mailId = idOf(value);
    const taskId = idOf(taskIds[i]);
    if (mailId !== null && taskId !== null) sent.set(mailId, { sheetId, taskId });
  });
}

/**
 * The data rows of the columns with these headers (row 1), one getValues each; empty lists when the sheet
 * lacks one of them.
 */
function readColumns(sheet: Sheet, headers: string[]): unknown[][] {
  const width = sheet.getLastColumn();
  const last = sheet.getLastRow();
  if (width === 0 || last < 2) return headers.map(() => []);
  const row1 = sheet.getRange(1, 1, 1, width).getValues()[0].map(normalizeHeader);
  const columns = headers.map((h) => row1.indexOf(h) + 1);
  if (columns.some((c) => c === 0)) return headers.map(() => []);
  return columns.map((column) =>
    sheet
      .getRange(2, column, last - 1, 1)
      .getValues()
      .map((row) => row[0]),
  );
}

function idOf(value: unknown): number | null {
  const id = Number(value);
  return value !== '' && Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The open mails of a unit: the first `count` with a Mail ID above `after`. */
export function nextMails(index: MailIndex, after: number, count: number): number[] {
  let from = 0;
  while (from < index.open.length && index.open[from] <= after) from++;
  return index.open.slice(from, from + count);
}
