'use strict';
// What the tests write into and read back from the sheets of an emulated document (`emu`, from newAddon):
// rows as { header: value } objects, the mailing lists they send to, and the cells of Tracking summary. One
// copy for every feature test, so each reads a sheet the same way.

/** The rows of sheet `name` under its header (on row `headerRow`), each as { header: value }. */
function rowsOf(emu, name, headerRow = 1) {
  const values = emu.spreadsheet.getSheetByName(name).getDataRange().getValues();
  const header = values[headerRow - 1];
  return values.slice(headerRow).map((cells) => Object.fromEntries(header.map((h, c) => [h, cells[c]])));
}

/** The same rows, each with `row`: its row number in the sheet (for emu.select and A1 ranges). */
function numberedRowsOf(emu, name, headerRow = 1) {
  return rowsOf(emu, name, headerRow).map((cells, i) => ({ row: i + headerRow + 1, ...cells }));
}

/** Each address of the list `name` → its Mail status. */
function statusOf(emu, name) {
  return Object.fromEntries(rowsOf(emu, name).map((r) => [r.Email, r['Mail status']]));
}

/** The value beside `label` in the top block of Tracking summary (A1:B7), or undefined. */
function summaryCell(emu, label) {
  const row = emu.spreadsheet
    .getSheetByName('Tracking summary')
    .getRange('A1:B7')
    .getValues()
    .find((r) => r[0] === label);
  return row ? row[1] : undefined;
}

/** `n` addresses person<from>@example.com, person<from + 1>@example.com, … */
function people(n, from = 1) {
  return Array.from({ length: n }, (_, i) => `person${i + from}@example.com`);
}

/** A mailing list's rows, header first: Name (Person 1, Person 2, …) and Email, one row per address. */
function peopleRows(emails) {
  return [['Name', 'Email'], ...emails.map((email, i) => [`Person ${i + 1}`, email])];
}

/** `rows` (header first) on the sheet `name` (made when missing, grown to hold them), made the active sheet. */
function writeList(emu, name, rows) {
  const sheet = emu.spreadsheet.getSheetByName(name) || emu.spreadsheet.insertSheet(name);
  if (sheet.getMaxRows() < rows.length)
    sheet.insertRowsAfter(sheet.getMaxRows(), rows.length - sheet.getMaxRows());
  sheet.getRange(1, 1, rows.length, rows[0].length).setValues(rows);
  emu.spreadsheet.setActiveSheet(sheet);
  return sheet;
}

module.exports = { rowsOf, numberedRowsOf, statusOf, summaryCell, people, peopleRows, writeList };
