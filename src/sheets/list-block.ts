// A list is its block: it ends at its first fully blank row, as Sheets' own data region does, so what lies
// below (notes, another table, a formula's output) is never the list's. Its columns are its header's: row 1
// from column A up to two blank cells side by side (one blank is a column inserted into the list), and the
// columns the add-on finds by their header further right; a cell under no header of the list (numbers
// pasted a few columns to the right) neither extends the list nor makes a row of it. Inside it, the cells the
// add-on may not write: a formula, and a value an array formula put there (Sheets shows the formula as #REF! once a
// cell of its output holds a written value). Apps Script tells no output's extent (getFormulas is '' in
// every cell but the formula's own), so it is inferred: a value that is not the column's own words, joined
// to a formula that can return an array through filled cells without a formula (left of it in its row, or
// above it in its column). A blank cell of an output looks like any blank cell and is not seen.

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** A block of cells read with one getValues and one getFormulas (and getDisplayValues when asked). */
export interface CellBlock {
  /** The sheet row of the block's first row. */
  first: number;
  values: unknown[][];
  formulas: string[][];
  display?: string[][];
  /** The list's columns (0-based, see listColumns): only their cells make a row the list's. All when absent. */
  columns?: number[];
}

/** A column the add-on writes, with what its own values look like (no predicate: none is its own). */
interface WrittenColumn {
  /** 1-based sheet column. */
  column: number;
  own?: (value: unknown) => boolean;
}

/**
 * Nothing in the cell: no formula and no value. An unchecked checkbox (FALSE) counts as nothing: checkboxes
 * are inserted down whole columns, and they alone do not make a row part of a list.
 */
export function isEmptyCell(value: unknown, formula = ''): boolean {
  return formula === '' && (value === '' || value === null || value === undefined || value === false);
}

/**
 * The list's columns (0-based) by its header row: the cells from column A up to two blank ones side by side (a
 * column inserted into the list leaves one blank header: it stays the list's), and the columns `also` found by
 * their header (the recipient, the add-on's columns) wherever they are. A row without a header at A keeps every
 * column.
 */
export function listColumns(
  header: unknown[],
  formulas: string[],
  also: number[] = [],
): number[] | undefined {
  const blank = (c: number) => c >= header.length || isEmptyCell(header[c], formulas[c]);
  if (blank(0)) return undefined;
  let run = 1;
  while (!blank(run) || !blank(run + 1)) run++;
  const columns = new Set(Array.from({ length: run }, (_, c) => c));
  for (const c of also) if (c >= 0 && c < header.length) columns.add(c);
  return [...columns].sort((a, b) => a - b);
}

/** Whether a row of the block holds nothing in the list's columns. */
function isBlankRow(block: CellBlock, i: number): boolean {
  const values = block.values[i];
  const formulas = block.formulas[i];
  const columns = block.columns;
  if (!columns) return values.every((value, c) => isEmptyCell(value, formulas[c]));
  return columns.every((c) => isEmptyCell(values[c], formulas[c]));
}

/** The block's rows from index `from` on (the header row above them read off). */
function rowsFrom(block: CellBlock, from: number): CellBlock {
  const rest: CellBlock = {
    first: block.first + from,
    values: block.values.slice(from),
    formulas: block.formulas.slice(from),
    columns: block.columns,
  };
  if (block.display) rest.display = block.display.slice(from);
  return rest;
}

/**
 * Reads rows `headerRow`..the sheet's last row, columns 1..width, in one block: the rows below the header row,
 * with the list's columns found by it (see listColumns).
 */
function readUnderHeader(
  sheet: Sheet,
  headerRow: number,
  width: number,
  display: boolean,
  also: number[] = [],
): CellBlock {
  const lastRow = sheet.getLastRow();
  const range = sheet.getRange(headerRow, 1, lastRow - headerRow + 1, width);
  const read: CellBlock = { first: headerRow, values: range.getValues(), formulas: range.getFormulas() };
  if (display) read.display = range.getDisplayValues();
  read.columns = listColumns(read.values[0], read.formulas[0], also);
  return rowsFrom(read, 1);
}

/** How many rows of the block belong to the list: those before its first fully blank row. */
export function blockLength(block: CellBlock): number {
  for (let i = 0; i < block.values.length; i++) if (isBlankRow(block, i)) return i;
  return block.values.length;
}

/** Keeps the block's rows before its first fully blank row. */
export function cutAtBlankRow(block: CellBlock): CellBlock {
  const n = blockLength(block);
  if (n === block.values.length) return block;
  const cut: CellBlock = {
    first: block.first,
    values: block.values.slice(0, n),
    formulas: block.formulas.slice(0, n),
    columns: block.columns,
  };
  if (block.display) cut.display = block.display.slice(0, n);
  return cut;
}

/** The rows from index `from` on end at the first fully blank row (the rows before it, a header, are kept). */
export function cutBelow(cells: CellBlock, from: number): CellBlock {
  if (from === 0) return cutAtBlankRow(cells);
  const slice = (rows: unknown[][] | undefined, kept: number) => rows && rows.slice(0, kept);
  const tail = cutAtBlankRow(rowsFrom({ ...cells, display: undefined }, from));
  const kept = from + tail.values.length;
  return {
    first: cells.first,
    values: cells.values.slice(0, kept),
    formulas: cells.formulas.slice(0, kept),
    display: slice(cells.display, kept) as string[][] | undefined,
    columns: cells.columns,
  };
}

/**
 * The rows of the list under row 1's header: rows 2.. the sheet's last row, columns 1..width, read in one
 * block with the header (values, formulas, and the displayed values when `display`), cut at the first row blank
 * in the list's columns (`also`: columns found by header, 0-based; see listColumns).
 */
export function readListBlock(sheet: Sheet, width: number, display = false, also: number[] = []): CellBlock {
  if (sheet.getLastRow() < 2 || width < 1)
    return { first: 2, values: [], formulas: [], display: display ? [] : undefined };
  return cutAtBlankRow(readUnderHeader(sheet, 1, width, display, also));
}

/**
 * The last row of the list that holds sheet row `from` (leading blank rows skipped): the row before the first
 * fully blank row below it; `from - 1` when nothing is there. `block` holds the sheet's rows from its `first`.
 */
export function listEnd(block: CellBlock, from: number): number {
  let start = Math.max(from - block.first, 0);
  while (start < block.values.length && isBlankRow(block, start)) start++;
  if (start >= block.values.length) return from - 1;
  const rest = rowsFrom({ ...block, display: undefined }, start);
  return rest.first + blockLength(rest) - 1;
}

/**
 * The last row of the list whose header is row `from - 1` (see listEnd), with one read of the sheet's width.
 */
export function lastListRow(sheet: Sheet, from = 2): number {
  const lastRow = sheet.getLastRow();
  const width = sheet.getLastColumn();
  if (lastRow < from || width < 1) return from - 1;
  return listEnd(readUnderHeader(sheet, from - 1, width, false), from);
}

/**
 * The first row of `count` rows added to a list (its header on `headerRow`): right below its last row, with
 * rows inserted there when anything lies below the list in its columns (notes move down, their blank row
 * still between); what lies beside it under no header of the list stays where it is.
 */
export function rowAfterList(sheet: Sheet, headerRow: number, count: number): number {
  const lastRow = sheet.getLastRow();
  const width = sheet.getLastColumn();
  if (lastRow <= headerRow || width < 1) return Math.max(lastRow, headerRow) + 1;
  const rows = readUnderHeader(sheet, headerRow, width, false);
  const length = blockLength(rows);
  const below = rowsFrom(rows, length);
  if (below.values.some((_, i) => !isBlankRow(below, i))) sheet.insertRowsAfter(headerRow + length, count);
  return headerRow + length + 1;
}

/**
 * The last row of the sheet with a value in columns 1..width (a table's): what a user put right of it is not
 * the table's. One read, and only when something lies right of it.
 */
export function lastRowWithin(sheet: Sheet, headerRow: number, width: number): number {
  const lastRow = sheet.getLastRow();
  if (lastRow <= headerRow || sheet.getLastColumn() <= width) return lastRow;
  const values = sheet.getRange(headerRow + 1, 1, lastRow - headerRow, width).getValues();
  let i = values.length - 1;
  while (i >= 0 && values[i].every((value) => isEmptyCell(value))) i--;
  return headerRow + 1 + i;
}

/** Functions whose result can be an array, and a function name with '_' (an add-on's custom function). */
const ARRAY_FUNCTIONS =
  /(^|[^A-Z0-9_.])(ARRAYFORMULA|FILTER|QUERY|SORTN?|UNIQUE|SPLIT|TRANSPOSE|FLATTEN|SEQUENCE|IMPORT[A-Z]*|MMULT|MAP|BYROW|BYCOL|MAKEARRAY|SCAN|HSTACK|VSTACK|CHOOSECOLS|CHOOSEROWS|WRAPROWS|WRAPCOLS|TOCOL|TOROW|GOOGLEFINANCE|REGEXEXTRACT|FREQUENCY|OFFSET|INDIRECT|XLOOKUP|[A-Z][A-Z0-9]*_[A-Z0-9_]*)\s*\(/i;

/** Whether a formula can spill into the cells right of and below it (an array literal `{…}` too). */
export function maySpill(formula: string): boolean {
  return formula !== '' && (formula.includes('{') || ARRAY_FUNCTIONS.test(formula));
}

/**
 * The cells of the written columns the add-on must not write, as `row:column` (sheet numbers): a formula,
 * or a value that is not the column's own and that an array formula's output reaches (see the top).
 */
export function guardedCells(block: CellBlock, columns: WrittenColumn[]): Set<string> {
  const guarded = new Set<string>();
  const { values, formulas } = block;
  // Most rows hold no formula at all: nothing in them can spill from the left (asked once per row).
  const withFormula = formulas.map((row) => !!row && row.some((f) => f !== ''));
  for (const { column, own } of columns) {
    const c = column - 1;
    let reached = false; // the cell above is a formula that can spill, or lies in an output
    for (let i = 0; i < values.length; i++) {
      const formula = (formulas[i] && formulas[i][c]) || '';
      const value = values[i] ? values[i][c] : '';
      if (formula) {
        guarded.add(`${block.first + i}:${column}`);
        reached = maySpill(formula);
        continue;
      }
      if (isEmptyCell(value) || (own && own(value))) {
        reached = false;
        continue;
      }
      reached = reached || (withFormula[i] && spillFromLeft(block, i, c));
      if (reached) guarded.add(`${block.first + i}:${column}`);
    }
  }
  return guarded;
}

/** A formula that can spill sits left of the cell in its row, with only filled cells without formulas between. */
function spillFromLeft(block: CellBlock, i: number, c: number): boolean {
  const values = block.values[i];
  const formulas = block.formulas[i] || [];
  for (let k = c - 1; k >= 0; k--) {
    if (formulas[k]) return maySpill(formulas[k]);
    if (isEmptyCell(values[k])) return false;
  }
  return false;
}
