// The user's selection as sheet rows, and the rows a filter hides. A filter is read once per execution, in
// blocks (filter-rows.ts), and not at all without one.
import { filteredRows } from './filter-rows';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** One rectangle of a selection (a Ctrl-click selection has several, all on one sheet). */
export interface SelectedArea {
  row: number;
  rows: number;
  column: number;
  columns: number;
}

export interface Selection {
  sheet: Sheet;
  sheetName: string;
  areas: SelectedArea[];
  /** The areas' A1 notations joined by ',': what identifies this selection later. */
  a1: string;
}

/** The user's selection with every area, or null when nothing is selected. */
export function activeSelection(spreadsheet: Spreadsheet): Selection | null {
  const list = spreadsheet.getActiveRangeList();
  const ranges = list ? list.getRanges() : [];
  if (ranges.length === 0) return null;
  const sheet = ranges[0].getSheet();
  return {
    sheet,
    sheetName: sheet.getName(),
    areas: ranges.map((r) => ({
      row: r.getRow(),
      rows: r.getNumRows(),
      column: r.getColumn(),
      columns: r.getNumColumns(),
    })),
    a1: ranges.map((r) => r.getA1Notation()).join(','),
  };
}

/** Data rows (row 2 onwards, up to the last row with content) covered by any area of the selection. */
export function selectedRows(spreadsheet: Spreadsheet, sheet: Sheet): Set<number> {
  const selected = new Set<number>();
  const selection = activeSelection(spreadsheet);
  if (!selection || selection.sheetName !== sheet.getName()) return selected;
  const lastRow = sheet.getLastRow();
  for (const area of selection.areas) {
    const last = Math.min(area.row + area.rows - 1, lastRow);
    for (let row = Math.max(area.row, 2); row <= last; row++) selected.add(row);
  }
  return selected;
}

/** An area's A1 notation, e.g. A2:B10 (A2 for one cell). */
export function a1Notation(area: SelectedArea): string {
  const first = `${columnName(area.column)}${area.row}`;
  if (area.rows === 1 && area.columns === 1) return first;
  return `${first}:${columnName(area.column + area.columns - 1)}${area.row + area.rows - 1}`;
}

/** A column's letters: 1 → A, 27 → AA. */
export function columnName(column: number): string {
  let name = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** Filtered rows per sheet, read once per execution (every execution evaluates the script afresh). */
const hiddenBySheet = new Map<number, { lastRow: number; hidden: Set<number> }>();
/** Sheet ids by Sheet object: a caller that passes the same object again costs no service call. */
const idOf = new WeakMap<Sheet, number>();

/**
 * Rows hidden by the sheet's filter, among rows 2..lastRow: asked once per sheet and execution (again only
 * for a larger lastRow), and only for the rows inside the filter's range.
 */
export function hiddenRows(sheet: Sheet, lastRow = sheet.getLastRow()): Set<number> {
  let id = idOf.get(sheet);
  if (id === undefined) idOf.set(sheet, (id = sheet.getSheetId()));
  const known = hiddenBySheet.get(id);
  if (known && known.lastRow >= lastRow) return known.hidden;
  const filter = sheet.getFilter();
  const hidden = filter ? filteredRows(sheet, filter, lastRow) : new Set<number>();
  hiddenBySheet.set(id, { lastRow, hidden });
  return hidden;
}
