// The phone check's sheet adapter: one read for planning, the results columns inserted and headed, the
// cells written before the first check, and each unit's results written by number. Users sort, filter,
// insert and delete rows while numbers are on the wire, so results are written through the shared
// Table.updateByKey: the block is read again and each result goes to the rows whose number cell holds that
// number now. The results columns are found again by their header; a moved one stops the run.
import {
  CellValue,
  textCell,
  listEnd,
  a1Notation,
  hiddenRows,
  SelectedArea,
  Selection,
  HeaderMovedError,
  PlacedColumn,
  Table,
  TableRow,
} from '../../sheets';
import { JobStop } from '../jobs';
import {
  ColumnPlan,
  Entry,
  PhoneColumn,
  PhoneTarget,
  resultKey,
  rowEntries,
  SelectionGrid,
  shift,
} from './phone-plan';
import {
  movedText,
  parseResultCell,
  RESULT_HEADER,
  type ResultCell,
  resultText,
  sheetGoneText,
} from './phone-texts';

/** A text the check writes in a results cell: never taken for a formula's output beside the numbers. */
const isOwnResult = (value: unknown) => parseResultCell(value) !== null;

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/**
 * One read for planning: rows 1..the list's last row, the selected columns and the column right of them. The
 * list is the block of rows that holds the selection's first row: it ends at its first fully blank row, and
 * what lies below (notes, another table, a formula's output) is not checked or written. The sheet's whole
 * width is read (values and formulas) to find it.
 */
export function readSelectionGrid(sheet: Sheet, areas: SelectedArea[]): SelectionGrid {
  const firstColumn = Math.min(...areas.map((a) => a.column));
  const maxColumns = sheet.getMaxColumns();
  const lastColumn = Math.min(Math.max(...areas.map((a) => a.column + a.columns - 1)) + 1, maxColumns);
  const sheetLastRow = sheet.getLastRow();
  if (sheetLastRow < 1) return { areas, values: [], firstColumn, lastRow: 0, maxColumns };
  const range = sheet.getRange(1, 1, sheetLastRow, Math.max(sheet.getLastColumn(), lastColumn));
  const block = { first: 1, values: range.getValues(), formulas: range.getFormulas() };
  const lastRow = listEnd(block, Math.min(...areas.map((a) => a.row)));
  const values = block.values.slice(0, lastRow).map((row) => row.slice(firstColumn - 1, lastColumn));
  return { areas, values, firstColumn, lastRow, maxColumns };
}

/** The target of a plan: where the numbers and results are once the planned columns are inserted. */
export function targetOf(plan: ColumnPlan, selection: Selection): PhoneTarget {
  const names = [selection.a1];
  if (plan.inserts.length > 0) {
    // The selection as it reads after the inserts: running the action again on it resumes this check.
    const moved = selection.areas.map((a) => {
      const column = a.column + shift(plan.inserts, a.column);
      const last = a.column + a.columns - 1;
      return a1Notation({ ...a, column, columns: last + shift(plan.inserts, last) - column + 1 });
    });
    names.push(moved.join(','));
  }
  const { firstRow, lastRow, columns } = plan;
  return { sheetName: selection.sheetName, selection: names, firstRow, lastRow, columns };
}

/** The plan's columns where they are now, before the inserts (the planned results columns are not there yet). */
export function currentColumns(plan: ColumnPlan): PhoneColumn[] {
  return plan.columns.map((c, i) => ({ ...c, source: plan.sources[i], result: plan.sources[i] + 1 }));
}

/**
 * The table over a check's columns: `s<i>` its numbers (read as shown: see cells.asShown), `r<i>` its
 * results, whose header is checked on every read when `checked`.
 */
export function phoneTable(sheet: Sheet, columns: PhoneColumn[], lastRow: number, checked: boolean): Table {
  const placed: Record<string, PlacedColumn> = {};
  columns.forEach((c, i) => {
    placed[`s${i}`] = { column: c.source, asShown: true };
    // A result text is the add-on's own: never taken for a formula's output beside the numbers.
    placed[`r${i}`] = checked
      ? { column: c.result, header: RESULT_HEADER, own: isOwnResult }
      : { column: c.result, own: isOwnResult };
  });
  return Table.onColumns(sheet, placed, { lastRow });
}

/** Inserts the planned results columns (right to left, so the planned positions stay right), then headers. */
export function applyColumnPlan(sheet: Sheet, plan: ColumnPlan): void {
  for (const column of [...plan.inserts].sort((a, b) => b - a)) sheet.insertColumnAfter(column);
  for (const column of plan.headers) {
    const cell = sheet.getRange(1, column);
    cell.setValue(RESULT_HEADER);
    cell.setFontWeight('bold');
  }
}

/**
 * Writes what each covered cell shows before the first check (results known, invalid numbers, and blanks (null)
 * for the numbers to check: never stale data), by position: `rows` were read in this execution after the
 * inserts, and nothing slow happened since.
 */
export function writeBefore(
  table: Table,
  rows: TableRow[],
  target: PhoneTarget,
  cellOf: (entry: Entry) => ResultCell | null,
): void {
  const hidden = hiddenRows(openTarget(target, table.sheet), target.lastRow);
  const changes = new Map<number, Record<string, CellValue>>();
  for (const entry of rows.flatMap((row) => rowEntries(row, target, hidden))) {
    const cell = cellOf(entry);
    const text = cell ? resultText(cell) : '';
    if (sameText(entry.shown, text)) continue;
    changes.set(entry.row, { ...changes.get(entry.row), [`r${entry.column}`]: textCell(text) });
  }
  table.update(rows, changes);
}

/** Writes each number's result next to every covered cell that holds that number now. */
export function writeResults(target: PhoneTarget, texts: Map<string, ResultCell>): void {
  if (texts.size === 0) return;
  const sheet = openTarget(target);
  const hidden = hiddenRows(sheet, target.lastRow);
  const changes = new Map<string, Record<string, CellValue>>();
  target.columns.forEach((_, column) => {
    for (const [phone, cell] of texts)
      changes.set(resultKey(column, phone), { [`r${column}`]: textCell(resultText(cell)) });
  });
  const keysOf = (row: TableRow) =>
    rowEntries(row, target, hidden).flatMap((e) => (e.phone ? [resultKey(e.column, e.phone)] : []));
  try {
    phoneTable(sheet, target.columns, target.lastRow, true).updateByKey(keysOf, changes);
  } catch (error) {
    if (!(error instanceof HeaderMovedError)) throw error;
    const moved = target.columns[Number(error.key.slice(1))];
    throw new JobStop(movedText(moved.source));
  }
}

/** A check's sheet per name, found once per execution (each execution evaluates the script afresh). */
const openSheets = new Map<string, Sheet>();

/**
 * The sheet of a check: the one given (the menu action has it), else found by name once per execution, so
 * that every unit works on the same Sheet object (hiddenRows asks the filter once per object). The run
 * stops when the sheet is gone.
 */
export function openTarget(target: PhoneTarget, sheet?: Sheet): Sheet {
  const known = openSheets.get(target.sheetName);
  if (known) return known;
  const found = sheet || SpreadsheetApp.getActiveSpreadsheet().getSheetByName(target.sheetName);
  if (!found) throw new JobStop(sheetGoneText(target.sheetName));
  openSheets.set(target.sheetName, found);
  return found;
}

function sameText(value: unknown, text: string): boolean {
  if (value instanceof Date) return false;
  return (value ?? '') === text;
}
