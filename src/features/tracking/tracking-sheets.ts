// The sheets a unit of the refresh writes: the Tracking sheet (one row per mail, upserted by Mail ID) and the
// "Mail status" of the rows that sent the mails (found by Mail ID on their sending sheet). Apps Script commits
// its write cache before every read that follows a write, so a unit works in three phases: the sheets that
// are missing are created, then everything the writes need is read (one block per sheet), then everything
// is written. The rows are found by Mail ID in what was just read, never by remembered position: the user
// may have sorted the sheets while the mails were being read.
import { cellText, CellValue, textCell } from '../../sheets/cells';
import { MAIL_COLUMNS, TRACKING } from '../../sheets/layouts';
import { normalizeHeader, Table, type ColumnSpec, type TableRow } from '../../sheets/table';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** Tracking values by column key, as a read of the sheet gives them. */
export type TrackingValues = Record<string, unknown>;

/** The Tracking sheet as read before a unit's writes. */
export interface TrackingRead {
  sheet: Sheet;
  created: boolean;
  /** Column of each key; a missing header gets a column right of the last. */
  columnOf: Map<string, number>;
  missing: ColumnSpec[];
  lastColumn: number;
  lastRow: number;
  /** Rows 2..lastRow, lastColumn wide. */
  rows: unknown[][];
  maxRows: number;
  maxColumns: number;
}

/** A sending sheet's Mail ID and Mail status columns, as read before a unit's writes. */
export interface ListRead {
  sheet: Sheet;
  table: Table;
  rows: TableRow[];
}

/** The sheet of this name, created (at the end, the user's selection kept) when missing. */
export function sheetOrNew(spreadsheet: Spreadsheet, name: string): { sheet: Sheet; created: boolean } {
  const sheet = spreadsheet.getSheetByName(name);
  if (sheet) return { sheet, created: false };
  // insertSheet activates the new sheet: keep the user where they were, selection included.
  const selection = spreadsheet.getActiveRangeList();
  const created = spreadsheet.insertSheet(name, spreadsheet.getSheets().length);
  if (selection) selection.activate();
  return { sheet: created, created: true };
}

/** Reads the whole Tracking sheet: its size, its headers and every row (one getValues). */
export function readTracking(sheet: Sheet, created: boolean): TrackingRead {
  const lastColumn = sheet.getLastColumn();
  const lastRow = sheet.getLastRow();
  const maxRows = sheet.getMaxRows();
  const maxColumns = sheet.getMaxColumns();
  const block = lastColumn > 0 && lastRow > 0 ? sheet.getRange(1, 1, lastRow, lastColumn).getValues() : [[]];
  const headers = block[0].map(normalizeHeader);
  const columnOf = new Map<string, number>();
  const missing: ColumnSpec[] = [];
  for (const spec of TRACKING.columns) {
    const index = headers.indexOf(normalizeHeader(spec.header));
    if (index >= 0) columnOf.set(spec.key, index + 1);
    else {
      missing.push(spec);
      columnOf.set(spec.key, lastColumn + missing.length);
    }
  }
  return {
    sheet,
    created,
    columnOf,
    missing,
    lastColumn,
    lastRow,
    rows: block.slice(1),
    maxRows,
    maxColumns,
  };
}

/**
 * Upserts records (by Mail ID) on the Tracking sheet read: rows that hold the Mail ID are updated over their
 * span (one setValues per run of adjacent columns), the others appended below (one setValues). Returns every
 * row of the sheet as it now reads, for the summary.
 */
export function writeTracking(
  read: TrackingRead,
  records: Map<string, Record<string, CellValue>>,
): TrackingValues[] {
  if (read.missing.length > 0) writeMissingHeaders(read);
  const keyColumn = read.columnOf.get('mailId')! - 1;
  const changes = new Map<number, Record<string, CellValue>>();
  const found = new Set<string>();
  const now: TrackingValues[] = read.rows.map((cells, i) => {
    const values = valuesOf(read, cells);
    const key = cellText(cells[keyColumn]);
    const record = key ? records.get(key) : undefined;
    if (!record) return values;
    changes.set(i + 2, record);
    found.add(key);
    return { ...values, ...asRead(record) };
  });
  if (changes.size > 0) {
    const rows = read.rows.map((cells, i) => ({ rowNumber: i + 2, values: valuesOf(read, cells) }));
    trackingTable(read).update(rows, changes, false);
  }
  const fresh = [...records].filter(([key]) => !found.has(key)).map(([, record]) => record);
  appendRows(read, fresh);
  return now.concat(fresh.map(asRead));
}

/** Deletes the empty columns right of the Tracking sheet's own (a new sheet has 26): fewer cells. */
export function trimTrackingColumns(read: TrackingRead): void {
  const used = Math.max(read.lastColumn, ...read.columnOf.values());
  if (used >= TRACKING.columns.length && read.maxColumns > used) {
    read.sheet.deleteColumns(used + 1, read.maxColumns - used);
    read.maxColumns = used;
  }
}

/** A sending sheet's rows (Mail ID and Mail status only: a list may be wide), or null without them. */
export function readList(spreadsheet: Spreadsheet, sheetId: number): ListRead | null {
  const sheet = spreadsheet.getSheetById(sheetId);
  if (!sheet) return null; // the sheet was deleted: the Tracking sheet still has the mails
  const width = sheet.getLastColumn();
  if (width === 0) return null;
  const headers = sheet.getRange(1, 1, 1, width).getValues()[0].map(normalizeHeader);
  const columnOf = (key: string) =>
    headers.indexOf(normalizeHeader(MAIL_COLUMNS.find((c) => c.key === key)!.header)) + 1;
  const mailId = columnOf('mailId');
  const mailStatus = columnOf('mailStatus');
  if (!mailId || !mailStatus) return null;
  const table = Table.onColumns(sheet, { mailId, mailStatus });
  const last = sheet.getLastRow();
  if (last < 2) return { sheet, table, rows: [] };
  const first = Math.min(mailId, mailStatus);
  const grid = sheet.getRange(2, first, last - 1, Math.max(mailId, mailStatus) - first + 1).getValues();
  const rows = grid.map((cells, i) => ({
    rowNumber: i + 2,
    values: { mailId: cells[mailId - first], mailStatus: cells[mailStatus - first] },
  }));
  return { sheet, table, rows };
}

/** Writes the Mail status wanted (Mail ID → status) where it changes; returns how many rows changed. */
export function writeStatuses(list: ListRead, wanted: Map<string, string>): number {
  const changes = new Map<number, Record<string, CellValue>>();
  for (const row of list.rows) {
    const status = wanted.get(cellText(row.values.mailId));
    if (status && cellText(row.values.mailStatus) !== status)
      changes.set(row.rowNumber, { mailStatus: textCell(status) });
  }
  list.table.update(list.rows, changes);
  return changes.size;
}

function writeMissingHeaders(read: TrackingRead): void {
  const first = read.lastColumn + 1;
  growTo(read, Math.max(read.lastRow, 1), first + read.missing.length - 1);
  const range = read.sheet.getRange(1, first, 1, read.missing.length);
  range.setValues([read.missing.map((c) => c.header)]);
  range.setFontWeight('bold');
  if (read.created) read.sheet.setFrozenRows(1);
  read.lastColumn = first + read.missing.length - 1;
  read.lastRow = Math.max(read.lastRow, 1);
  read.missing = [];
}

function appendRows(read: TrackingRead, records: Array<Record<string, CellValue>>): void {
  if (records.length === 0) return;
  const width = Math.max(read.lastColumn, ...read.columnOf.values());
  const first = read.lastRow + 1;
  const grid = records.map((record) => {
    const row: CellValue[] = new Array(width).fill('');
    for (const [key, column] of read.columnOf) if (key in record) row[column - 1] = record[key];
    return row;
  });
  growTo(read, first + grid.length - 1, width);
  const formats = new Array<string>(width).fill('General');
  for (const spec of TRACKING.columns)
    if (spec.format) formats[read.columnOf.get(spec.key)! - 1] = spec.format;
  const range = read.sheet.getRange(first, 1, grid.length, width);
  range.setNumberFormats(grid.map(() => formats));
  range.setValues(grid);
  read.lastRow = first + grid.length - 1;
}

/** getRange past the sheet's grid throws: grow it first, from the size read (no read between writes). */
function growTo(read: TrackingRead, rows: number, columns: number): void {
  if (rows > read.maxRows) {
    read.sheet.insertRowsAfter(read.maxRows, rows - read.maxRows);
    read.maxRows = rows;
  }
  if (columns > read.maxColumns) {
    read.sheet.insertColumnsAfter(read.maxColumns, columns - read.maxColumns);
    read.maxColumns = columns;
  }
}

function trackingTable(read: TrackingRead): Table {
  return Table.onColumns(read.sheet, Object.fromEntries(read.columnOf));
}

function valuesOf(read: TrackingRead, cells: unknown[]): TrackingValues {
  const values: TrackingValues = {};
  for (const [key, column] of read.columnOf) values[key] = column <= cells.length ? cells[column - 1] : '';
  return values;
}

/** A value written as Sheets reads it back: the quote prefix that keeps text as text is not part of it. */
function asRead(record: Record<string, CellValue>): TrackingValues {
  const values: TrackingValues = {};
  for (const [key, value] of Object.entries(record)) {
    values[key] = typeof value === 'string' && value.startsWith("'") ? value.slice(1) : value;
  }
  return values;
}
