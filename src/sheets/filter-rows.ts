// Rows a sheet's filter hides, read in blocks. Apps Script answers isRowHiddenByFilter one row at a time (a
// 10,000-row sheet: 10,000 service calls). A "filter by values" (hidden or visible values) and the empty /
// not-empty conditions are decided by the displayed text, so they are applied here to one block read of the
// filtered columns' displayed values: one call per column of the filter's range for its criteria, and one
// read. Any other condition (text, number, date, custom formula) is left to Sheets: the rows are asked one
// at a time, as before.
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Filter = GoogleAppsScript.Spreadsheet.Filter;

/** What one column's criteria keep, by displayed text. */
interface ColumnRule {
  /** 0-based column offset inside the filter's range */
  offset: number;
  hidden: Set<string> | null;
  visible: Set<string> | null;
  empty: 'CELL_EMPTY' | 'CELL_NOT_EMPTY' | null;
}

const BLOCK_CONDITIONS = new Set(['CELL_EMPTY', 'CELL_NOT_EMPTY']);

/** Rows first..last (data rows of the filter's range) that the filter hides. */
export function filteredRows(sheet: Sheet, filter: Filter, lastRow: number): Set<number> {
  const area = filter.getRange();
  const first = Math.max(2, area.getRow() + 1);
  const last = Math.min(lastRow, area.getLastRow());
  const hidden = new Set<number>();
  if (last < first) return hidden;
  const column = area.getColumn();
  const rules = columnRules(filter, column, area.getNumColumns());
  if (rules === null) {
    for (let row = first; row <= last; row++) if (sheet.isRowHiddenByFilter(row)) hidden.add(row);
    return hidden;
  }
  if (rules.length === 0) return hidden;
  const from = Math.min(...rules.map((r) => r.offset));
  const to = Math.max(...rules.map((r) => r.offset));
  const shown = sheet.getRange(first, column + from, last - first + 1, to - from + 1).getDisplayValues();
  shown.forEach((cells, i) => {
    if (rules.some((rule) => !keeps(rule, cells[rule.offset - from]))) hidden.add(first + i);
  });
  return hidden;
}

/** The criteria of every filtered column, or null when one of them needs Sheets to decide. */
function columnRules(filter: Filter, column: number, columns: number): ColumnRule[] | null {
  const rules: ColumnRule[] = [];
  for (let offset = 0; offset < columns; offset++) {
    const criteria = filter.getColumnFilterCriteria(column + offset);
    if (!criteria) continue;
    const type = criteria.getCriteriaType();
    const condition = type === null || type === undefined ? null : String(type);
    if (condition !== null && !BLOCK_CONDITIONS.has(condition)) return null;
    const hiddenValues = criteria.getHiddenValues();
    const visibleValues = criteria.getVisibleValues();
    rules.push({
      offset,
      hidden: hiddenValues && hiddenValues.length ? new Set(hiddenValues.map(String)) : null,
      visible: visibleValues && visibleValues.length ? new Set(visibleValues.map(String)) : null,
      empty: condition as ColumnRule['empty'],
    });
  }
  return rules;
}

function keeps(rule: ColumnRule, shown: string): boolean {
  if (rule.hidden && rule.hidden.has(shown)) return false;
  if (rule.visible && !rule.visible.has(shown)) return false;
  if (rule.empty === 'CELL_EMPTY') return shown === '';
  if (rule.empty === 'CELL_NOT_EMPTY') return shown !== '';
  return true;
}
