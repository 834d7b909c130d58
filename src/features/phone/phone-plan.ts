// Planning a phone check, without touching the sheet (phone-sheet.ts reads and writes): which selected
// columns hold phone numbers, where their results go, which cell holds which number, and the units of work.
//   - row 1 is the header row and is never checked; blank cells and rows hidden by a filter are skipped;
//   - a selected column counts as a column of numbers when one of its selected cells looks like a phone
//     number (digits and separators, or a number);
//   - its results go in the column right of it: reused when its header is RESULT_HEADER, taken when it is
//     empty, and otherwise a new column is inserted there (after asking);
//   - each distinct number is checked once, in units of CHUNK_SIZE numbers (results are stored and written
//     after each unit).
import { normalizeHeader, TableRow, SelectedArea } from '../../sheets';
import { splitEvery } from '../../platform';
import { cellPhone } from './phone-functions';
import { RESULT_HEADER } from './phone-texts';

/** Numbers per unit: results are stored and written after each. */
const CHUNK_SIZE = 50;

export interface PhoneColumn {
  /** 1-based sheet column of the numbers. */
  source: number;
  /** 1-based sheet column of the results (source + 1). */
  result: number;
  /** Rows [first, last] selected in this column when the selection has several areas (else all). */
  rows?: Array<[number, number]>;
}

/** Where a check reads its numbers and writes its results; saved with the job. */
export interface PhoneTarget {
  sheetName: string;
  /** A1 notations that identify the selection (as selected, and after columns were inserted). */
  selection: string[];
  firstRow: number;
  lastRow: number;
  columns: PhoneColumn[];
}

/** The selection and one block of its sheet: rows 1..lastRow, selected columns and the one right of them. */
export interface SelectionGrid {
  areas: SelectedArea[];
  values: unknown[][];
  /** Sheet column of values[r][0]. */
  firstColumn: number;
  lastRow: number;
  maxColumns: number;
}

export interface ColumnPlan {
  /** The number columns and their results columns, at their positions after the inserts. */
  columns: PhoneColumn[];
  /** The number columns where they are now (before the inserts), in the order of `columns`. */
  sources: number[];
  firstRow: number;
  lastRow: number;
  /** Columns to insert a results column after; `ask` those that hold other data now. */
  inserts: number[];
  ask: number[];
  /** Columns that get the results header (positions after the inserts). */
  headers: number[];
}

/** One selected cell holding something: a valid number or why it is not one. */
export interface Entry {
  row: number;
  /** Index in the target's columns. */
  column: number;
  phone?: string;
  invalid?: string;
  /** What the results cell holds now. */
  shown: unknown;
}

export interface Survey {
  entries: Entry[];
  /** Distinct valid numbers in order of first appearance. */
  distinct: Set<string>;
  invalidCells: number;
}

export const NO_NUMBERS = 'There are no phone numbers in the selected cells (row 1 is the header row).';

/** The data rows [first, last] a selection covers, up to the sheet's last row. */
export function rowSpan(areas: SelectedArea[], sheetLastRow: number): [number, number] {
  return [
    Math.max(Math.min(...areas.map((a) => a.row)), 2),
    Math.min(Math.max(...areas.map((a) => a.row + a.rows - 1)), sheetLastRow),
  ];
}

export function planColumns(grid: SelectionGrid, hidden: Set<number>): ColumnPlan | { problem: string } {
  const { areas, firstColumn, maxColumns } = grid;
  const lastSelected = Math.max(...areas.map((a) => a.column + a.columns - 1));
  const [firstRow, lastRow] = rowSpan(areas, grid.lastRow);
  if (firstRow > lastRow) {
    return { problem: 'Select the cells with the phone numbers (below the header row) first.' };
  }
  const at = (row: number, column: number): unknown => {
    const line = grid.values[row - 1];
    return line ? line[column - firstColumn] : '';
  };
  const ours = (column: number) =>
    column <= maxColumns && normalizeHeader(at(1, column)) === normalizeHeader(RESULT_HEADER);
  // The selected rows of a column: those of the areas that cover it.
  const rowsOf = (column: number) =>
    areas
      .filter((a) => a.column <= column && column < a.column + a.columns)
      .map((a): [number, number] => [Math.max(a.row, firstRow), Math.min(a.row + a.rows - 1, lastRow)]);
  const sources: number[] = [];
  for (let column = firstColumn; column <= lastSelected; column++) {
    if (ours(column)) continue;
    const found = rowsOf(column).some(([from, to]) => {
      for (let row = from; row <= to; row++)
        if (!hidden.has(row) && looksLikePhone(at(row, column))) return true;
      return false;
    });
    if (found) sources.push(column);
  }
  if (sources.length === 0) return { problem: NO_NUMBERS };
  const isEmpty = (column: number) => grid.values.every((line) => isBlank(line[column - firstColumn]));
  const inserts: number[] = [];
  const headerAt: number[] = [];
  for (const column of sources) {
    const right = column + 1;
    if (right > maxColumns)
      inserts.push(column); // the sheet ends here: a new, empty column (nothing to ask)
    else if (ours(right)) continue;
    else if (sources.includes(right) || !isEmpty(right)) inserts.push(column);
    headerAt.push(column);
  }
  const moved = (column: number) => column + shift(inserts, column);
  return {
    columns: sources.map((source) => ({
      source: moved(source),
      result: moved(source) + 1,
      ...(areas.length > 1 && { rows: rowsOf(source) }),
    })),
    sources,
    firstRow,
    lastRow,
    inserts,
    ask: inserts.filter((c) => c < maxColumns),
    headers: headerAt.map((source) => moved(source) + 1),
  };
}

/** How far a column moves right when results columns are inserted after `inserts`. */
export function shift(inserts: number[], column: number): number {
  return inserts.filter((c) => c < column).length;
}

/** Digits with separators, or a number: what a cell of a phone column looks like. */
function looksLikePhone(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'string') return false;
  return /\d/.test(value) && /^[\s\d+\-().[\]/\u00A0]+$/.test(value.trim());
}

function isBlank(value: unknown): boolean {
  return value === '' || value === null || value === undefined;
}

/**
 * The cells of a row that a check covers: rows of the selection not hidden by a filter, columns of the
 * target. The row's values are keyed `s<i>` (numbers) and `r<i>` (results) for the target's column i.
 */
export function rowEntries(row: TableRow, target: PhoneTarget, hidden: Set<number>): Entry[] {
  const n = row.rowNumber;
  if (n < target.firstRow || n > target.lastRow || hidden.has(n)) return [];
  const entries: Entry[] = [];
  target.columns.forEach((plan, column) => {
    if (plan.rows && !plan.rows.some(([from, to]) => n >= from && n <= to)) return;
    const normalized = cellPhone(row.values[`s${column}`]);
    if (!normalized) return;
    const shown = row.values[`r${column}`];
    if (normalized.ok) entries.push({ row: n, column, phone: normalized.phone, shown });
    else entries.push({ row: n, column, invalid: normalized.reason, shown });
  });
  return entries;
}

/** The key a result is written by: the results column and the normalised number in its source column. */
export function resultKey(column: number, phone: string): string {
  return `${column} ${phone}`;
}

export function survey(rows: TableRow[], target: PhoneTarget, hidden: Set<number>): Survey {
  const entries = rows.flatMap((row) => rowEntries(row, target, hidden));
  const distinct = new Set<string>();
  for (const entry of entries) if (entry.phone) distinct.add(entry.phone);
  return { entries, distinct, invalidCells: entries.filter((e) => e.invalid !== undefined).length };
}

/** The first `limit` numbers (fewer when credits are short), in units of CHUNK_SIZE. */
export function phoneUnits(phones: string[], limit: number): string[][] {
  return splitEvery(phones.slice(0, limit), CHUNK_SIZE);
}
