// Where a send's results are on its list: the add-on's columns (Mail status, Task ID, Mail ID, Sent at), which
// a wide list puts right of the window, where nothing seems to happen. The end of a send names them and, for
// the user who watches it, selects them in the rows the user has selected (Sheets scrolls to a selection).
import { MAIL_COLUMNS, headerCells, mailColumns, columnName } from '../../sheets';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** The add-on's columns found on the list's header row, left to right: [header, column]. */
function writtenColumns(sheet: Sheet): Array<[string, number]> {
  const headers = headerCells(sheet);
  if (headers.length === 0) return [];
  const found = mailColumns(headers);
  return MAIL_COLUMNS.map((spec): [string, number] => [spec.header, found[spec.key]])
    .filter(([, column]) => column > 0)
    .sort((a, b) => a[1] - b[1]);
}

/** ` Each row's Mail status, Task ID, Mail ID and Sent at: columns H–K of "Contacts".` ('' without them). */
export function writtenColumnsText(sheet: Sheet): string {
  return columnsText(sheet, writtenColumns(sheet));
}

function columnsText(sheet: Sheet, columns: Array<[string, number]>): string {
  if (columns.length === 0) return '';
  const names = columns.map(([header]) => header);
  const last = names.length - 1;
  const headers = last > 0 ? `${names.slice(0, last).join(', ')} and ${names[last]}` : names[0];
  const numbers = columns.map(([, column]) => column);
  const side = numbers.every((column, i) => i === 0 || column === numbers[i - 1] + 1);
  const where =
    last === 0
      ? `column ${columnName(numbers[0])}`
      : side
        ? `columns ${columnName(numbers[0])}–${columnName(numbers[last])}`
        : `columns ${numbers.map(columnName).join(', ')}`;
  return ` Each row's ${headers}: ${where} of "${sheet.getName()}".`;
}

/**
 * Selects the add-on's columns (from the first to the last of them) in the rows the user has selected on the
 * list, else in its header row, which scrolls there: "Send e-mails to selected rows" still means those rows.
 * Returns where they are, as writtenColumnsText says it (from the same read).
 */
export function selectWritten(sheet: Sheet): string {
  const found = writtenColumns(sheet);
  const columns = found.map(([, column]) => column);
  if (columns.length === 0) return '';
  const first = Math.min(...columns);
  const active = sheet.getParent().getActiveRange();
  const mine = active && active.getSheet().getSheetId() === sheet.getSheetId();
  const row = mine ? active.getRow() : 1;
  const rows = mine ? active.getNumRows() : 1;
  sheet.getRange(row, first, rows, Math.max(...columns) - first + 1).activate();
  return columnsText(sheet, found);
}
