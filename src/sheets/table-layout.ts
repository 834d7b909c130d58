// The shapes of a header-mapped table: its columns, its layout on a sheet, a row read from it; finding and
// writing its headers and growing its sheet (table.ts uses them).
import { textCell, type CellValue } from './cells';

export interface ColumnSpec {
  /** Stable name used in code. */
  key: string;
  /** Header text in row 1; what the user sees and what columns are found by. */
  header: string;
  /**
   * Number format for the column, e.g. '0', 'yyyy-mm-dd hh:mm', or 'General' for text (never '@': the
   * quote prefix of textCell keeps text as text, and the two combined could keep the apostrophe literally).
   */
  format?: string;
  width?: number;
  /** Read a number shown with leading zeros by its format as shown (see cells.asShown). */
  asShown?: boolean;
  /** A note on the header cell, written with the header: what the column's words mean. */
  note?: string;
  /**
   * What the add-on writes in the column (its words, ids, dates): such a value is never taken for an array
   * formula's output (list-block.ts). Without it, any value may be.
   */
  own?: (value: unknown) => boolean;
}

/** A column the caller located itself; a `header` given is checked on every full read (see readAll). */
export interface PlacedColumn {
  column: number;
  header?: string;
  asShown?: boolean;
  own?: (value: unknown) => boolean;
}

/** A located column no longer has its header: the user moved, inserted or deleted columns meanwhile. */
export class HeaderMovedError extends Error {
  constructor(
    readonly key: string,
    readonly column: number,
  ) {
    super(`Column ${column} no longer has the header of "${key}".`);
    this.name = 'HeaderMovedError';
  }
}

export interface TableLayout {
  sheetName: string;
  columns: ColumnSpec[];
  /** Row of the headers (default 1); the rows below it are the table's. */
  headerRow?: number;
  /**
   * A user's list: it ends at its first row blank in its header's columns (list-block.ts), and what lies
   * below is never read or written. The add-on's own sheets go on to their last row with a value in their
   * columns (appends go below it).
   */
  block?: boolean;
}

export interface TableRow {
  /** 1-based sheet row number at the time of reading. */
  rowNumber: number;
  values: Record<string, unknown>;
  hiddenByFilter?: boolean;
}

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** A sheet's size as read once before writes and kept up to date by them (no read between writes). */
export interface SheetSize {
  lastRow: number;
  lastColumn: number;
  maxRows: number;
  maxColumns: number;
}

/** getRange past the sheet's grid throws: grow it first (a new sheet has 1000 rows and 26 columns). */
export function ensureSize(sheet: Sheet, rows: number, columns: number, size?: SheetSize): void {
  const maxRows = size ? size.maxRows : sheet.getMaxRows();
  if (rows > maxRows) sheet.insertRowsAfter(maxRows, rows - maxRows);
  const maxColumns = size ? size.maxColumns : sheet.getMaxColumns();
  if (columns > maxColumns) sheet.insertColumnsAfter(maxColumns, columns - maxColumns);
  if (!size) return;
  size.maxRows = Math.max(maxRows, rows);
  size.maxColumns = Math.max(maxColumns, columns);
  size.lastRow = Math.max(size.lastRow, rows);
  size.lastColumn = Math.max(size.lastColumn, columns);
}

export function writeHeaders(
  sheet: Sheet,
  columns: ColumnSpec[],
  firstColumn: number,
  row: number,
  size?: SheetSize,
): void {
  ensureSize(sheet, row, firstColumn + columns.length - 1, size);
  writeHeaderCells(sheet, columns, firstColumn, row);
}

/** The header cells of `columns` from `firstColumn` on, in cells the sheet already has. */
export function writeHeaderCells(
  sheet: Sheet,
  columns: ColumnSpec[],
  firstColumn: number,
  row: number,
): void {
  const range = sheet.getRange(row, firstColumn, 1, columns.length);
  range.setValues([columns.map((c) => c.header)]);
  range.setFontWeight('bold');
  if (columns.some((c) => c.note)) range.setNotes([columns.map((c) => c.note || '')]);
}

export function headerRowOf(layout: TableLayout): number {
  return layout.headerRow || 1;
}

export function mapHeaders(
  sheet: Sheet,
  layout: TableLayout,
  read?: readonly unknown[],
): Map<string, number> {
  const columnOf = new Map<string, number>();
  let row = read;
  if (!row) {
    const width = sheet.getLastColumn();
    if (width === 0) return columnOf;
    row = sheet.getRange(headerRowOf(layout), 1, 1, width).getValues()[0];
  }
  const headers = row.map((h) => normalizeHeader(h));
  for (const spec of layout.columns) {
    const index = headers.indexOf(normalizeHeader(spec.header));
    if (index >= 0) columnOf.set(spec.key, index + 1);
  }
  return columnOf;
}

/** A sheet's row 1 as stored (`shown`: as displayed), up to its last column; [] for an empty sheet. */
export function headerCells(sheet: Sheet, shown = false): unknown[] {
  const width = sheet.getLastColumn();
  if (width < 1) return [];
  const range = sheet.getRange(1, 1, 1, width);
  return (shown ? range.getDisplayValues() : range.getValues())[0];
}

export function normalizeHeader(value: unknown): string {
  return String(value ?? '')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ');
}

/** A value read with getValues, written back unchanged: text stays exactly the same text. */
export function rewriteAsRead(value: unknown): CellValue {
  if (typeof value === 'string') return textCell(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) return value;
  return '';
}
