// Header-mapped tables. Users sort, filter, insert and delete rows and columns, so columns are found by
// their header text and rows by a key column, never by remembered positions. Reads and writes are done in
// blocks: one getValues for the table, one setValues per written column run, whatever the number of rows.
// A cell that holds a formula or lies in an array formula's output is never written (list-block.ts).
import { asShown, CellValue } from './cells';
import {
  cutBelow,
  guardedCells,
  lastListRow,
  lastRowWithin,
  listColumns,
  rowAfterList,
  type CellBlock,
} from './list-block';
import {
  ensureSize,
  headerRowOf,
  HeaderMovedError,
  mapHeaders,
  normalizeHeader,
  rewriteAsRead,
  type SheetSize,
  writeHeaders,
  writeHeaderCells,
  type ColumnSpec,
  type PlacedColumn,
  type TableLayout,
  type TableRow,
} from './table-layout';
import { columnRuns, spanIsKnown, spans, writeAroundGuards, type ColumnRun } from './table-spans';

export {
  HeaderMovedError,
  normalizeHeader,
  type ColumnSpec,
  type PlacedColumn,
  type TableLayout,
  type TableRow,
};

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Range = GoogleAppsScript.Spreadsheet.Range;

export class Table {
  private constructor(
    readonly sheet: Sheet,
    readonly layout: TableLayout,
    /** key → 1-based column number */
    private readonly columnOf: Map<string, number>,
    /** key → header the column must still have (located columns only). */
    private readonly expected = new Map<string, string>(),
    /** The last row that is the caller's (located columns only); else the sheet's last row. */
    private readonly lastRow?: number,
    /** The sheet's size, once measured (see measure): appends then read nothing between writes. */
    private size?: SheetSize,
  ) {}

  /**
   * The layout's sheet, created with its header row if missing; missing headers are appended at the right.
   * The spreadsheet is an argument: a trigger has no active one to assume. `measured`: for a caller that
   * writes through this table only and measures it (see measure) before its writes: a new sheet's header row,
   * and the headers of the columns an existing sheet lacks when it has room for them, are then written with the
   * table's first change (the caller's reads come first: no commit between). `headerRow`: row 1 as the caller
   * just read it (one read less).
   */
  static open(
    spreadsheet: Spreadsheet,
    layout: TableLayout,
    measured = false,
    headerRow?: readonly unknown[],
  ): Table {
    let sheet = spreadsheet.getSheetByName(layout.sheetName);
    if (!sheet) {
      // insertSheet activates the new sheet: keep the user where they were, selection included.
      const selection = spreadsheet.getActiveRangeList();
      sheet = spreadsheet.insertSheet(layout.sheetName, spreadsheet.getNumSheets());
      if (selection) selection.activate();
      const table = new Table(sheet, layout, new Map(layout.columns.map((c, i) => [c.key, i + 1])));
      table.headersToWrite = true;
      if (!measured) table.writeNewHeaders();
      return table;
    }
    const columnOf = mapHeaders(sheet, layout, headerRow);
    const missing = layout.columns.filter((c) => !columnOf.has(c.key));
    if (missing.length === 0) return new Table(sheet, layout, columnOf);
    const first = (headerRow ? headerRow.length : Math.max(sheet.getLastColumn(), 0)) + 1;
    missing.forEach((c, i) => columnOf.set(c.key, first + i));
    const table = new Table(sheet, layout, columnOf);
    // Measured, columns the sheet already has room for wait for the first write (no commit before the reads).
    const fits = measured && first + missing.length - 1 <= sheet.getMaxColumns();
    if (fits) table.missingHeaders = { columns: missing, first };
    else writeHeaders(sheet, missing, first, headerRowOf(layout));
    return table;
  }

  /**
   * The layout's sheet if it exists, with the columns found by header (missing ones are absent). `headerRow`:
   * its header cells as the caller just read them (one read less).
   */
  static find(spreadsheet: Spreadsheet, layout: TableLayout, headerRow?: readonly unknown[]): Table | null {
    const sheet = spreadsheet.getSheetByName(layout.sheetName);
    return sheet ? new Table(sheet, layout, mapHeaders(sheet, layout, headerRow)) : null;
  }

  /**
   * A table over columns the caller located itself (e.g. the results column next to selected numbers). A
   * column given with its header is checked on every full read: remembered positions go stale when the user
   * moves columns, and a write there would land in someone else's data. `lastRow` bounds the reads to the
   * rows the caller works on (a selection), where the sheet goes on below.
   */
  static onColumns(
    sheet: Sheet,
    columns: Record<string, number | PlacedColumn>,
    options: { lastRow?: number; block?: boolean } = {},
  ): Table {
    const placed = Object.entries(columns).map(([key, at]): [string, PlacedColumn] => [
      key,
      typeof at === 'number' ? { column: at } : at,
    ]);
    const layout: TableLayout = {
      get sheetName() {
        return sheet.getName(); // asked only if needed: a service call
      },
      columns: placed.map(([key, at]) => ({
        key,
        header: at.header || key,
        asShown: at.asShown,
        own: at.own,
      })),
      block: options.block,
    };
    const expected = new Map<string, string>();
    for (const [key, at] of placed) if (at.header) expected.set(key, at.header);
    const columnOf = new Map(placed.map(([key, at]) => [key, at.column]));
    return new Table(sheet, layout, columnOf, expected, options.lastRow);
  }

  /** A new sheet's header row, not written yet (see open). */
  private headersToWrite = false;

  /** Header cells of columns the sheet lacked, not written yet (see open). */
  private missingHeaders?: { columns: ColumnSpec[]; first: number };

  /** Cells read as a formula or an array formula's output (`row:column`): never written. */
  private readonly guarded = new Set<string>();

  /**
   * Marks the cells never to be written among rows first..last just read (a caller that read the sheet
   * itself: see MailingList); what an earlier read said of those rows is dropped (rows move when sorted).
   */
  guard(cells: Set<string>, first: number, last: number): void {
    for (const cell of this.guarded) {
      const row = Number(cell.slice(0, cell.indexOf(':')));
      if (row >= first && row <= last) this.guarded.delete(cell);
    }
    for (const cell of cells) this.guarded.add(cell);
  }

  private writeNewHeaders(missingToo = true): void {
    const missing = this.missingHeaders;
    if (missing && missingToo) {
      this.missingHeaders = undefined;
      writeHeaderCells(this.sheet, missing.columns, missing.first, headerRowOf(this.layout)); // they fit (open)
    }
    if (!this.headersToWrite) return;
    this.headersToWrite = false;
    const headerRow = headerRowOf(this.layout);
    writeHeaders(this.sheet, this.layout.columns, 1, headerRow, this.size);
    if (headerRow === 1) this.sheet.setFrozenRows(1);
  }

  column(key: string): number | undefined {
    return this.columnOf.get(key);
  }

  /**
   * Reads the sheet's size now, before the writes of a step, and keeps it up to date through them: readAll,
   * append and the sheet's growth then read nothing between writes (each such read commits the writes). Only
   * for a caller that writes the sheet through this table alone.
   */
  measure(): SheetSize {
    if (!this.size) {
      const sheet = this.sheet;
      const fresh = this.headersToWrite; // a new sheet, its header row not written yet
      const lastRow = fresh ? headerRowOf(this.layout) : sheet.getLastRow();
      const lastColumn = fresh ? this.layout.columns.length : sheet.getLastColumn();
      this.size = { lastRow, lastColumn, maxRows: sheet.getMaxRows(), maxColumns: sheet.getMaxColumns() };
    }
    return this.size;
  }

  /**
   * Every data row (below the header row; in a block layout, down to the first fully blank row), read with
   * one getValues and one getFormulas. A table with expected headers reads row 1 in the same calls and throws
   * HeaderMovedError when one of them is gone.
   */
  readAll(): TableRow[] {
    const first = headerRowOf(this.layout) + 1;
    const lastRow = this.lastRow || (this.size ? this.size.lastRow : this.sheet.getLastRow());
    if (this.expected.size === 0 && lastRow < first) return [];
    if (this.expected.size === 0 && !this.layout.block) return this.readRange(first, lastRow - first + 1);
    // A block is read with its header row, which says the list's columns (list-block.ts).
    const from = this.expected.size > 0 ? 1 : first - 1;
    const [header, ...rows] = this.readRange(from, Math.max(lastRow, from) - from + 1, first - from);
    for (const [key, text] of this.expected) {
      if (normalizeHeader(header.values[key]) !== normalizeHeader(text)) {
        throw new HeaderMovedError(key, this.columnOf.get(key)!);
      }
    }
    return rows;
  }

  /**
   * Rows `first`..`first+count-1`, read with one getValues and one getFormulas (and one getDisplayValues for
   * asShown columns); in a block layout the rows from index `dataFrom` on end at the first fully blank row.
   */
  readRange(first: number, count: number, dataFrom = 0): TableRow[] {
    const block = this.layout.block === true;
    const width = Math.max(...this.columnOf.values(), block ? this.sheet.getLastColumn() : 1, 1);
    const range = this.sheet.getRange(first, 1, count, width);
    let cells: CellBlock = { first, values: range.getValues(), formulas: range.getFormulas() };
    const shownKeys = new Set(this.layout.columns.filter((c) => c.asShown).map((c) => c.key));
    if (shownKeys.size > 0) cells.display = range.getDisplayValues();
    if (block && dataFrom > 0) {
      const also = [...this.columnOf.values()].map((column) => column - 1);
      cells.columns = listColumns(cells.values[dataFrom - 1], cells.formulas[dataFrom - 1], also);
    }
    if (block) cells = cutBelow(cells, dataFrom);
    const own = new Map(this.layout.columns.map((c) => [c.key, c.own]));
    const written = [...this.columnOf].map(([key, column]) => ({ column, own: own.get(key) }));
    this.guard(guardedCells(cells, written), first, first + count - 1);
    const shown = cells.display;
    return cells.values.map((row, i) => {
      const values: Record<string, unknown> = {};
      for (const [key, column] of this.columnOf) {
        const value = row[column - 1];
        values[key] = shown && shownKeys.has(key) ? asShown(value, shown[i][column - 1]) : value;
      }
      return { rowNumber: first + i, values };
    });
  }

  /**
   * Writes results by key, never by remembered position: slow work happened since the rows were read, and
   * the user may have sorted, inserted or deleted rows meanwhile. Reads the table again and writes each
   * key's values to every row that holds that key now (a key no row holds any more is dropped: its row was
   * deleted). A row may hold several keys (a number in each of several columns): the changes of each are
   * written. Returns the keys written.
   */
  updateByKey(
    keyOf: (row: TableRow) => string | string[],
    changes: Map<string, Record<string, CellValue>>,
  ): Set<string> {
    const written = new Set<string>();
    if (changes.size === 0) return written;
    const rows = this.readAll();
    const byRow = new Map<number, Record<string, CellValue>>();
    for (const row of rows) {
      const keys = keyOf(row);
      for (const key of typeof keys === 'string' ? [keys] : keys) {
        const change = key ? changes.get(key) : undefined;
        if (!change) continue;
        byRow.set(row.rowNumber, { ...byRow.get(row.rowNumber), ...change });
        written.add(key);
      }
    }
    this.update(rows, byRow);
    return written;
  }

  /** The row `append` writes its first record to now (a block layout: right below its list). */
  nextRow(): number {
    const headerRow = headerRowOf(this.layout);
    if (this.layout.block) return lastListRow(this.sheet, headerRow + 1) + 1;
    if (this.size) return this.size.lastRow + 1;
    return lastRowWithin(this.sheet, headerRow, Math.max(...this.columnOf.values())) + 1;
  }

  /** Appends records at nextRow() (rows inserted there first when a block has notes below): one setValues. */
  append(records: Array<Record<string, CellValue>>): number {
    this.writeNewHeaders();
    if (records.length === 0) return 0;
    const size = this.size;
    // The table's columns only: a user's cells right of it stay as they are.
    const width = Math.max(...this.columnOf.values());
    const first = this.layout.block
      ? rowAfterList(this.sheet, headerRowOf(this.layout), records.length)
      : this.nextRow();
    const grid = records.map((record) => {
      const row: CellValue[] = new Array(width).fill('');
      for (const [key, column] of this.columnOf) if (key in record) row[column - 1] = record[key];
      return row;
    });
    ensureSize(this.sheet, first + grid.length - 1, width, size);
    const range = this.sheet.getRange(first, 1, grid.length, width);
    const formats = this.columnFormats(width);
    if (formats) range.setNumberFormats(grid.map(() => formats));
    range.setValues(grid);
    return first;
  }

  /**
   * Writes the given cells of existing rows: one setValues per run of adjacent columns written, over the
   * span of rows touched; rows in between keep the values read in `rows` (this table's own columns only, so
   * no user data moves). A cell that holds a formula or lies in an array formula's output is never written:
   * the span is cut there, and a change there is dropped. Column formats are set on the span unless
   * `formats` is false (rows appended by this table already have them).
   */
  update(rows: TableRow[], changes: Map<number, Record<string, CellValue>>, formats = true): void {
    if (changes.size === 0) return this.writeNewHeaders(false); // columns the sheet lacks wait for a change
    const byRow = new Map(rows.map((r) => [r.rowNumber, r]));
    const rowNumbers = [...changes.keys()].sort((a, b) => a - b);
    const first = rowNumbers[0];
    const last = rowNumbers[rowNumbers.length - 1];
    const keys = new Set<string>();
    for (const change of changes.values()) Object.keys(change).forEach((k) => keys.add(k));
    for (const run of columnRuns(keys, this.columnOf, this.layout)) {
      const range = spanIsKnown(byRow, first, last)
        ? null
        : this.sheet.getRange(first, run[0].column, last - first + 1, run.length);
      const existing = range ? range.getValues() : null;
      const formulas = range ? range.getFormulas() : null;
      this.writeNewHeaders(); // after the first read: a write before it would be committed first
      const blocked = (row: number, i: number) =>
        this.guarded.has(`${row}:${run[i].column}`) || (formulas !== null && formulas[row - first][i] !== '');
      const valueAt = (row: number, i: number): CellValue => {
        const change = changes.get(row);
        const key = run[i].key;
        if (change && key in change) return change[key];
        const known = byRow.get(row);
        return rewriteAsRead(known ? known.values[key] : existing![row - first][i]);
      };
      const changed = (row: number) => run.some(({ key }) => key in (changes.get(row) || {}));
      for (const [from, to] of spans(first, last, (row) => run.some((_, i) => blocked(row, i)), changed)) {
        const values: CellValue[][] = [];
        for (let row = from; row <= to; row++) values.push(run.map((_, i) => valueAt(row, i)));
        const cells = this.sheet.getRange(from, run[0].column, to - from + 1, run.length);
        if (formats) this.setFormats(run, cells, from, to);
        cells.setValues(values);
      }
      writeAroundGuards(this.sheet, run, { first, last, blocked, changes });
    }
    this.writeNewHeaders();
  }

  private setFormats(run: ColumnRun, cells: Range, from: number, to: number): void {
    for (const { spec, column } of run) {
      if (!spec?.format) continue;
      (run.length === 1 ? cells : this.sheet.getRange(from, column, to - from + 1, 1)).setNumberFormat(
        spec.format,
      );
    }
  }

  /**
   * Writes records by key: each key some row holds updates that row (every row that holds it, see
   * updateByKey), the other keys are appended below. A sort or a deleted row between two writes puts
   * nothing on the wrong row. `rows`: the table as just read, when the caller read it (no read between
   * writes). Returns how many keys were updated and appended.
   */
  upsertByKey(
    keyOf: (row: TableRow) => string,
    records: Map<string, Record<string, CellValue>>,
    rows = this.readAll(),
  ): { updated: number; appended: number } {
    const byRow = new Map<number, Record<string, CellValue>>();
    const found = new Set<string>();
    for (const row of rows) {
      const key = keyOf(row);
      const record = key ? records.get(key) : undefined;
      if (!record) continue;
      byRow.set(row.rowNumber, record);
      found.add(key);
    }
    this.update(rows, byRow, false);
    const fresh = [...records].filter(([key]) => !found.has(key)).map(([, record]) => record);
    this.append(fresh);
    return { updated: found.size, appended: fresh.length };
  }

  private columnFormats(width: number): string[] | null {
    if (!this.layout.columns.some((c) => c.format)) return null;
    const formats = new Array<string>(width).fill('General');
    for (const spec of this.layout.columns) {
      const column = this.columnOf.get(spec.key);
      if (column && spec.format) formats[column - 1] = spec.format;
    }
    return formats;
  }
}
