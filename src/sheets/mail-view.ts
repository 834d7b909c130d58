// The mail view: what the sheets say about each mail this document sent. The add-on's columns on any
// mailing list (MAIL_COLUMNS) and on Tracking (TRACKING) are found here, by header, and only here; one scan
// of the document's sheets (readMailView) serves tracking (which mails to read), earlier failures (which
// addresses failed), Show mail and the release of queued rows, and follow-up sequences next. Rows are
// keyed by recipient on a list and by Mail ID everywhere; states are typed (mail-state.ts).
import { addressKey } from './address';
import { cellText, CellValue, textCell } from './cells';
import { MAIL_COLUMNS, TRACKING, TRACKING_SUMMARY, DO_NOT_CONTACT } from './layouts';
import { readListBlock } from './list-block';
import { isRecipientHeader } from './mailing-list';
import { idOf, MailState, parseState, stateText } from './mail-state';
import { normalizeHeader, Table, type TableRow } from './table';
import { headerCells } from './table-layout';

/** One row of the view: a mailing-list row, or a Tracking row. */
interface ViewRow {
  rowNumber: number;
  /** The recipient, lower case ('' when the sheet has no recipient column). */
  key: string;
  state: MailState;
  mailId: number | null;
  taskId: number | null;
  /** When the mail was sent (its Sent at), or null. */
  sentAt: Date | null;
  /** Tracking only: when the row was last refreshed, its Failure reason and its Task opens cell. */
  refreshedAt?: Date | null;
  failureReason?: string;
  taskOpens?: unknown;
}

/** A sheet's part of the view. */
export interface SheetView {
  sheetId: number;
  name: string;
  tracking: boolean;
  rows: ViewRow[];
  /** Its header row as read (another reader of the sheets need not read it again). */
  headers: unknown[];
}

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** The cell a state is written as (text the user might have typed stays text). */
export function stateCell(state: MailState): string {
  return textCell(stateText(state));
}

const LIST_KEYS = ['mailStatus', 'taskId', 'mailId', 'sentAt'];
const TRACKING_KEYS = [
  'recipient',
  'mailStatus',
  'taskId',
  'mailId',
  'taskOpens',
  'sentAt',
  'failureReason',
  'refreshedAt',
];

/** The 1-based column of each of the add-on's columns in a header row (0: missing). */
export function mailColumns(headers: unknown[], tracking = false): Record<string, number> {
  const names = headers.map((h) => normalizeHeader(h));
  const columns: Record<string, number> = {};
  for (const spec of tracking ? TRACKING.columns : MAIL_COLUMNS)
    columns[spec.key] = names.indexOf(normalizeHeader(spec.header)) + 1;
  if (!tracking) columns.recipient = headers.findIndex((h) => isRecipientHeader(h)) + 1;
  return columns;
}

/** One of the add-on's own columns on a mailing list (not a placeholder for the mail). */
export function isMailColumnHeader(header: unknown): boolean {
  return MAIL_COLUMNS.some((spec) => normalizeHeader(spec.header) === normalizeHeader(header));
}

/** The Mail ID column of any sheet (a mailing list that sent, or Tracking), 0 when it has none. */
export function mailIdColumn(sheet: Sheet): number {
  const headers = headerCells(sheet);
  return headers.length ? mailColumns(headers, sheet.getName() === TRACKING.sheetName).mailId : 0;
}

/**
 * Every sheet's part of the view, in one scan: its header row, then one block read of Tracking's columns,
 * or of a list down to its first fully blank row. Sheets without a Mail status or Mail ID column add nothing;
 * neither does `skipSheetId` (a list the caller has read already).
 */
export function readMailView(spreadsheet: Spreadsheet, skipSheetId?: number): SheetView[] {
  const views: SheetView[] = [];
  for (const sheet of spreadsheet.getSheets()) {
    const name = sheet.getName();
    if (name === TRACKING_SUMMARY.sheetName || name === DO_NOT_CONTACT.sheetName) continue;
    const sheetId = sheet.getSheetId();
    if (sheetId === skipSheetId) continue;
    const headers = headerCells(sheet);
    if (headers.length === 0) continue;
    const rows = readSheetRows(sheet, name === TRACKING.sheetName, headers);
    if (rows) views.push({ sheetId, name, tracking: name === TRACKING.sheetName, rows, headers });
  }
  return views;
}

function readSheetRows(sheet: Sheet, tracking: boolean, headers: unknown[]): ViewRow[] | null {
  const width = headers.length;
  const columns = mailColumns(headers, tracking);
  if (!columns.mailStatus && !columns.mailId) return null;
  const cells = tracking ? readColumns(sheet, TRACKING_KEYS, columns) : readList(sheet, columns, width);
  const at = (key: string, i: number): unknown => (cells.values[key] ? cells.values[key][i] : '');
  // An id is what the add-on wrote: never a formula's value (a date, a number worked out in the cell).
  const idAt = (key: string, i: number) =>
    cells.formulas[key] && cells.formulas[key][i] ? null : idOf(at(key, i));
  const rows: ViewRow[] = [];
  for (let i = 0; i < cells.count; i++) {
    const row: ViewRow = {
      rowNumber: i + 2,
      key: addressKey(cellText(at('recipient', i))),
      state: parseState(cellText(at('mailStatus', i))),
      mailId: idAt('mailId', i),
      taskId: idAt('taskId', i),
      sentAt: dateOf(at('sentAt', i)),
    };
    if (tracking) {
      row.refreshedAt = dateOf(at('refreshedAt', i));
      row.failureReason = cellText(at('failureReason', i));
      row.taskOpens = at('taskOpens', i);
    }
    rows.push(row);
  }
  return rows;
}

/** The data rows of some columns: values and formulas by key, and how many rows. */
interface ColumnCells {
  values: Record<string, unknown[]>;
  formulas: Record<string, string[]>;
  count: number;
}

/** Tracking's data rows of the given columns (those it has): one getValues and one getFormulas over their span. */
function readColumns(sheet: Sheet, keys: string[], columns: Record<string, number>): ColumnCells {
  const last = sheet.getLastRow();
  const own = keys.filter((k) => columns[k] > 0);
  if (own.length === 0 || last < 2) return { values: {}, formulas: {}, count: 0 };
  const used = own.map((k) => columns[k]);
  const first = Math.min(...used);
  const range = sheet.getRange(2, first, last - 1, Math.max(...used) - first + 1);
  const values = range.getValues();
  const formulas = range.getFormulas();
  const pick = <T>(grid: T[][], k: string) => grid.map((row) => row[columns[k] - first]);
  return {
    values: Object.fromEntries(own.map((k) => [k, pick(values, k)])),
    formulas: Object.fromEntries(own.map((k) => [k, pick(formulas, k)])),
    count: last - 1,
  };
}

/** A list's rows, down to its first fully blank row (what lies below is not the list: list-block.ts). */
function readList(sheet: Sheet, columns: Record<string, number>, width: number): ColumnCells {
  const keys = [...LIST_KEYS, 'recipient'].filter((k) => columns[k] > 0);
  const block = readListBlock(
    sheet,
    width,
    false,
    keys.map((k) => columns[k] - 1),
  );
  const pick = <T>(grid: T[][], k: string) => grid.map((row) => row[columns[k] - 1]);
  return {
    values: Object.fromEntries(keys.map((k) => [k, pick(block.values, k)])),
    formulas: Object.fromEntries(keys.map((k) => [k, pick(block.formulas, k)])),
    count: block.values.length,
  };
}

function dateOf(value: unknown): Date | null {
  return value instanceof Date ? value : null;
}

/** A sending sheet's Mail ID and Mail status, read before the writes of a tracking step. */
interface ListStates {
  table: Table;
  rows: TableRow[];
}

/**
 * A sending sheet's rows down to its first fully blank row (Mail ID and Mail status), or null without them.
 */
export function readListStates(spreadsheet: Spreadsheet, sheetId: number): ListStates | null {
  const sheet = spreadsheet.getSheetById(sheetId);
  if (!sheet) return null; // the sheet was deleted: the Tracking sheet still has the mails
  const headers = headerCells(sheet);
  if (headers.length === 0) return null;
  const { mailId, mailStatus } = mailColumns(headers);
  if (!mailId || !mailStatus) return null;
  const own = (key: string) => MAIL_COLUMNS.find((c) => c.key === key)!.own;
  const table = Table.onColumns(
    sheet,
    {
      mailId: { column: mailId, own: own('mailId') },
      mailStatus: { column: mailStatus, own: own('mailStatus') },
    },
    { block: true },
  );
  return { table, rows: table.readAll() };
}

/** Writes the state wanted (Mail ID → state) where the row's state changes; returns how many rows changed. */
export function writeStatesByMailId(list: ListStates, wanted: Map<string, MailState>): number {
  const changes = new Map<number, Record<string, CellValue>>();
  for (const row of list.rows) {
    const state = wanted.get(cellText(row.values.mailId));
    if (state && cellText(row.values.mailStatus) !== stateText(state))
      changes.set(row.rowNumber, { mailStatus: stateCell(state) });
  }
  list.table.update(list.rows, changes);
  return changes.size;
}
