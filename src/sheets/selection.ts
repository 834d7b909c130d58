// The user's selection as sheet rows, and the rows a filter hides. A filter is read once per execution
// (one isRowHiddenByFilter call per row only inside the filter's range, and none without a filter).
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** Data rows (row 2 onwards, up to the last row with content) covered by any area of the selection. */
export function selectedRows(spreadsheet: Spreadsheet, sheet: Sheet): Set<number> {
  const selected = new Set<number>();
  const list = spreadsheet.getActiveRangeList();
  const ranges = list ? list.getRanges() : [];
  const lastRow = sheet.getLastRow();
  for (const range of ranges) {
    if (range.getSheet().getName() !== sheet.getName()) continue;
    const last = Math.min(range.getLastRow(), lastRow);
    for (let row = Math.max(range.getRow(), 2); row <= last; row++) selected.add(row);
  }
  return selected;
}

/** Filtered rows per sheet, read once per execution (every execution evaluates the script afresh). */
const hiddenBySheet = new Map<number, Set<number>>();

/**
 * Rows hidden by the sheet's filter, among rows 2..lastRow. Apps Script answers this one row at a time, so
 * it is asked once per sheet and execution, and only for the rows inside the filter's range.
 */
export function hiddenRows(sheet: Sheet, lastRow = sheet.getLastRow()): Set<number> {
  const known = hiddenBySheet.get(sheet.getSheetId());
  if (known) return known;
  const hidden = new Set<number>();
  const filter = sheet.getFilter();
  if (filter) {
    const area = filter.getRange();
    const last = Math.min(lastRow, area.getLastRow());
    for (let row = Math.max(2, area.getRow() + 1); row <= last; row++) {
      if (sheet.isRowHiddenByFilter(row)) hidden.add(row);
    }
  }
  hiddenBySheet.set(sheet.getSheetId(), hidden);
  return hidden;
}
