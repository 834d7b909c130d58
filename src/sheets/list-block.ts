// A list is its block: it ends at its first fully blank row, as Sheets' own data region does, so what lies
// below (notes, another table, a formula's output) is never the list's. Inside it, the cells the add-on may
// not write: a formula, and a value an array formula put there (Sheets shows the formula as #REF! once a
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
}

/** A column the add-on writes, with what its own values look like (no predicate: none is its own). */
export interface WrittenColumn {
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

function isBlankRow(block: CellBlock, i: number): boolean {
  const values = block.values[i];
  const formulas = block.formulas[i];
  for (let c = 0; c < values.length; c++) if (!isEmptyCell(values[c], formulas[c])) return false;
  return true;
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
  };
  if (block.display) cut.display = block.display.slice(0, n);
  return cut;
}

/** The rows from index `from` on end at the first fully blank row (the rows before it, a header, are kept). */
export function cutBelow(cells: CellBlock, from: number): CellBlock {
  if (from === 0) return cutAtBlankRow(cells);
  const slice = (rows: unknown[][] | undefined, kept: number) => rows && rows.slice(0, kept);
  const tail = cutAtBlankRow({
    first: cells.first + from,
    values: cells.values.slice(from),
    formulas: cells.formulas.slice(from),
  });
  const kept = from + tail.values.length;
  return {
    first: cells.first,
    values: cells.values.slice(0, kept),
    formulas: cells.formulas.slice(0, kept),
    display: slice(cells.display, kept) as string[][] | undefined,
  };
}

/**
 * Rows `first`.. the sheet's last row, columns 1..width, read in one block (values, formulas, and the displayed
 * values when `display`), cut at the first fully blank row.
 */
export function readListBlock(sheet: Sheet, first: number, width: number, display = false): CellBlock {
  const lastRow = sheet.getLastRow();
  if (lastRow < first || width < 1)
    return { first, values: [], formulas: [], display: display ? [] : undefined };
  const range = sheet.getRange(first, 1, lastRow - first + 1, width);
  const block: CellBlock = { first, values: range.getValues(), formulas: range.getFormulas() };
  if (display) block.display = range.getDisplayValues();
  return cutAtBlankRow(block);
}

/**
 * The last row of the list that holds sheet row `from` (leading blank rows skipped): the row before the first
 * fully blank row below it; `from - 1` when nothing is there. `block` holds the sheet's rows from its `first`.
 */
export function listEnd(block: CellBlock, from: number): number {
  let start = Math.max(from - block.first, 0);
  while (start < block.values.length && isBlankRow(block, start)) start++;
  if (start >= block.values.length) return from - 1;
  const rest = {
    first: block.first + start,
    values: block.values.slice(start),
    formulas: block.formulas.slice(start),
  };
  return rest.first + blockLength(rest) - 1;
}

/** The last row of the list that holds sheet row `from` (see listEnd), with one read of the sheet's width. */
export function lastListRow(sheet: Sheet, from = 2): number {
  const lastRow = sheet.getLastRow();
  const width = sheet.getLastColumn();
  if (lastRow < from || width < 1) return from - 1;
  const range = sheet.getRange(from, 1, lastRow - from + 1, width);
  return listEnd({ first: from, values: range.getValues(), formulas: range.getFormulas() }, from);
}

/**
 * The first row of `count` rows added to a list (its header on `headerRow`): right below its last row, with
 * rows inserted there when anything lies below the list (notes move down, their blank row still between).
 */
export function rowAfterList(sheet: Sheet, headerRow: number, count: number): number {
  const lastRow = sheet.getLastRow();
  const width = sheet.getLastColumn();
  const from = headerRow + 1;
  if (lastRow < from || width < 1) return Math.max(lastRow, headerRow) + 1;
  const range = sheet.getRange(from, 1, lastRow - from + 1, width);
  const end =
    from - 1 + blockLength({ first: from, values: range.getValues(), formulas: range.getFormulas() });
  if (end < lastRow) sheet.insertRowsAfter(end, count);
  return end + 1;
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
