// The shapes of a header-mapped table: its columns, its layout on a sheet, a row read from it.

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
}

/** A column the caller located itself; a `header` given is checked on every full read (see readAll). */
export interface PlacedColumn {
  column: number;
  header?: string;
  asShown?: boolean;
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
}

export interface TableRow {
  /** 1-based sheet row number at the time of reading. */
  rowNumber: number;
  values: Record<string, unknown>;
  hiddenByFilter?: boolean;
}
