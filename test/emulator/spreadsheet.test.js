'use strict';
// SpreadsheetApp semantics: value types and coercion, setValues errors, formulas, A1 forms, structure edits
// that move notes and formats, sort, filters, hidden rows, counting.
const { AppsScriptEmulator } = require('.');

const make = (code = 'function noop() {}', opts = {}) => new AppsScriptEmulator({ code, ...opts });

describe('values written by the script', () => {
  test('getValues types: numbers, booleans, Dates, "" for empty', () => {
    const emu = make(`function t() {
      var r = SpreadsheetApp.getActiveSheet().getRange('A1:E1');
      r.setValues([[42, true, new Date(Date.UTC(2026, 0, 5)), 'text', null]]);
      var v = r.getValues()[0];
      return v.map(function (x) { return x instanceof Date ? 'Date:' + x.toISOString() : typeof x + ':' + x; });
    }`);
    expect(emu.run('t')).toEqual([
      'number:42',
      'boolean:true',
      'Date:2026-01-05T00:00:00.000Z',
      'string:text',
      'string:',
    ]);
  });

  test('strings are coerced like typed input unless the format is plain text or they start with an apostrophe', () => {
    const emu = make();
    const r = emu.range('A1:A12');
    r.setValues([
      ['123'],
      ['+15551234567'],
      ['-5'],
      ['1,234.5'],
      ['TRUE'],
      ['false'],
      ['2026-01-05'],
      ["'00123"],
      ["'=1+1"],
      ['2026-01-05T10:00:00Z'],
      ['(555) 123-4567'],
      ['12%'],
    ]);
    const v = r.getValues().map((x) => x[0]);
    expect(v.slice(0, 6)).toEqual([123, 15551234567, -5, 1234.5, true, false]);
    expect(v[6]).toEqual(new Date(Date.UTC(2026, 0, 5)));
    expect(v.slice(7)).toEqual(['00123', '=1+1', '2026-01-05T10:00:00Z', '(555) 123-4567', 0.12]);
    expect(r.getFormulas()[8][0]).toBe('');
    expect(emu.range('A12').getDisplayValue()).toBe('12%');

    const text = emu.range('B1:B3');
    text.setNumberFormat('@');
    text.setValues([['+15551234567'], ['TRUE'], ['=HYPERLINK("x")']]);
    expect(text.getValues()).toEqual([['+15551234567'], ['TRUE'], ['=HYPERLINK("x")']]);
    expect(text.getFormulas()).toEqual([[''], [''], ['']]);
  });

  test('partial and named dates become Dates: month-day of this year, year-month, month-year, month names', () => {
    const emu = make();
    emu.clock.set(Date.UTC(2026, 5, 1));
    const inputs = [
      '1-10',
      '2015-01',
      '11-50',
      '1/2015',
      'Jan 5',
      '5 January 2015',
      'Sept 2020',
      'Mar 3, 2021',
    ];
    emu.range('A1:A8').setValues(inputs.map((t) => [t]));
    const iso = emu
      .range('A1:A8')
      .getValues()
      .map(([v]) => (v instanceof Date ? v.toISOString().slice(0, 10) : v));
    expect(iso).toEqual([
      '2026-01-10',
      '2015-01-01',
      '1950-11-01',
      '2015-01-01',
      '2026-01-05',
      '2015-01-05',
      '2020-09-01',
      '2021-03-03',
    ]);
    // Not dates: no month 13, ranges with three-digit numbers, words that are not months.
    emu.range('B1:B3').setValues([['13-10'], ['51-200'], ['Jam 5']]);
    expect(emu.range('B1:B3').getValues()).toEqual([['13-10'], ['51-200'], ['Jam 5']]);
  });

  test('the quote prefix is not part of the value; in a plain-text (@) cell an apostrophe is kept literally', () => {
    const emu = make();
    emu.range('A1:A3').setValues([["'1-10"], ["'Acme"], ["''quoted"]]);
    expect(emu.range('A1:A3').getValues()).toEqual([['1-10'], ['Acme'], ["'quoted"]]);
    expect(emu.range('A1:A3').getDisplayValues()).toEqual([['1-10'], ['Acme'], ["'quoted"]]);
    const text = emu.range('B1:B2');
    text.setNumberFormat('@');
    text.setValues([["'Acme"], ['1-10']]);
    expect(text.getValues()).toEqual([["'Acme"], ['1-10']]);
    expect(text.getDisplayValues()).toEqual([["'Acme"], ['1-10']]);
  });

  test('Sheets limits: 15 significant digits for numbers, 50,000 characters per cell', () => {
    const emu = make();
    emu.range('A1:A2').setValues([['1234567890123456789'], ["'1234567890123456789"]]);
    expect(emu.range('A1:A2').getValues()).toEqual([[1234567890123460000], ['1234567890123456789']]);
    expect(() => emu.range('B1').setValue('x'.repeat(50001))).toThrow(
      'Your input contains more than the maximum of 50000 characters in a single cell.',
    );
  });

  test('a string beginning with = becomes a formula: getFormula returns it, the value is not the string', () => {
    const emu = make();
    emu.range('A1').setValue('=HYPERLINK("http://evil.example","click")');
    expect(emu.range('A1').getFormula()).toBe('=HYPERLINK("http://evil.example","click")');
    expect(emu.range('A1').getValue()).toBe('');
    emu.range('A2').setFormula('SUM(1,2)');
    expect(emu.range('A2').getFormula()).toBe('=SUM(1,2)');
  });

  test('Dates round-trip as Dates and display in the spreadsheet time zone', () => {
    const emu = make('function noop() {}', { timeZone: 'America/New_York' });
    const d = new Date(Date.UTC(2026, 0, 5, 15, 30));
    emu.range('A1').setValue(d);
    expect(emu.range('A1').getValue()).toEqual(d);
    expect(emu.range('A1').getDisplayValue()).toBe('1/5/2026 10:30:00');
    emu.range('A1').setNumberFormat('yyyy-mm-dd');
    expect(emu.range('A1').getDisplayValue()).toBe('2026-01-05');
  });

  test('setValues requires exact dimensions, with Apps Script messages', () => {
    const emu =
      make(`function rows() { SpreadsheetApp.getActiveSheet().getRange('A1:B3').setValues([[1, 2], [3, 4]]); }
      function cols() { SpreadsheetApp.getActiveSheet().getRange('A1:B2').setValues([[1, 2], [3]]); }
      function bad() { SpreadsheetApp.getActiveSheet().getRange('A1').setValues('x'); }`);
    expect(() => emu.run('rows')).toThrow(
      'The number of rows in the data does not match the number of rows in the range. The data has 2 but the range has 3.',
    );
    expect(() => emu.run('cols')).toThrow(
      'The number of columns in the data does not match the number of columns in the range. The data has 1 but the range has 2.',
    );
    expect(() => emu.run('bad')).toThrow(
      "The parameters (String) don't match the method signature for SpreadsheetApp.Range.setValues.",
    );
  });

  test('number formats and display values', () => {
    const emu = make();
    emu.range('A1:D1').setValues([[1234.5, 0.256, 5, 15551234567]]);
    emu.range('A1:D1').setNumberFormats([['#,##0.00', '0.0%', '$#,##0.00', '0']]);
    expect(emu.range('A1:D1').getDisplayValues()).toEqual([['1,234.50', '25.6%', '$5.00', '15551234567']]);
    expect(emu.range('A1:D1').getNumberFormats()).toEqual([['#,##0.00', '0.0%', '$#,##0.00', '0']]);
    expect(emu.range('E1').getNumberFormat()).toBe('General');
    emu.range('E1').setValue(true);
    expect(emu.range('E1').getDisplayValue()).toBe('TRUE');
  });
});

describe('ranges and sheets', () => {
  test('A1 forms and (row, col, numRows, numCols)', () => {
    const emu = make();
    const sheet = emu.sheet();
    expect(sheet.getRange('A1:C').getNumRows()).toBe(1000);
    expect(sheet.getRange('A:A').getA1Notation()).toBe('A:A');
    expect(sheet.getRange('2:2').getNumColumns()).toBe(26);
    expect(sheet.getRange('B2:C5').getA1Notation()).toBe('B2:C5');
    expect(sheet.getRange(2, 3, 4, 5).getA1Notation()).toBe('C2:G5');
    expect(sheet.getRange(3, 1).getA1Notation()).toBe('A3');
    expect(emu.spreadsheet.getRange("'Sheet1'!B2").getA1Notation()).toBe('B2');
    expect(sheet.getRange('B2:D4').offset(1, 1, 1, 1).getA1Notation()).toBe('C3');
    expect(sheet.getRange('B2:D4').getCell(2, 3).getA1Notation()).toBe('D3');
    expect(() => sheet.getRange(0, 1)).toThrow('The starting row of the range is too small.');
    expect(() => sheet.getRange(1, 1, 1001, 1)).toThrow(
      'The coordinates of the range are outside the dimensions of the sheet.',
    );
    expect(() => sheet.getRange('nonsense!!')).toThrow('Range not found');
  });

  test('getLastRow, getDataRange, appendRow', () => {
    const emu = make();
    const sheet = emu.sheet();
    expect(sheet.getLastRow()).toBe(0);
    sheet.appendRow(['a', 'b']);
    sheet.appendRow(['c', '', 'e']);
    expect(sheet.getLastRow()).toBe(2);
    expect(sheet.getLastColumn()).toBe(3);
    expect(sheet.getDataRange().getA1Notation()).toBe('A1:C2');
    expect(sheet.getDataRange().getValues()).toEqual([
      ['a', 'b', ''],
      ['c', '', 'e'],
    ]);
  });

  test('insertSheet, getSheetByName, duplicate names, deleteSheet', () => {
    const emu = make();
    const ss = emu.spreadsheet;
    const s = ss.insertSheet('Companies');
    expect(s.getName()).toBe('Companies');
    expect(ss.getSheets().map((x) => x.getName())).toEqual(['Sheet1', 'Companies']);
    expect(ss.insertSheet('First', 0).getIndex()).toBe(1);
    expect(() => ss.insertSheet('Companies')).toThrow(
      'A sheet with the name "Companies" already exists. Please enter another name.',
    );
    ss.deleteSheet(ss.getSheetByName('First'));
    expect(ss.getSheetByName('First')).toBeNull();
    expect(ss.getSheetByName('Companies').getSheetId()).toBe(s.getSheetId());
  });

  test('insert and delete rows and columns move values, notes and formats', () => {
    const emu = make();
    const sheet = emu.sheet();
    sheet.getRange('A1:A3').setValues([['r1'], ['r2'], ['r3']]);
    sheet.getRange('A2').setNote('note on r2').setNumberFormat('@');
    sheet.insertRowBefore(2);
    expect(
      sheet
        .getRange('A1:A4')
        .getValues()
        .map((r) => r[0]),
    ).toEqual(['r1', '', 'r2', 'r3']);
    expect(sheet.getRange('A3').getNote()).toBe('note on r2');
    expect(sheet.getRange('A3').getNumberFormat()).toBe('@');
    expect(sheet.getMaxRows()).toBe(1001);
    sheet.insertRowsAfter(3, 2);
    expect(sheet.getRange('A6').getValue()).toBe('r3');
    sheet.deleteRows(4, 2);
    sheet.deleteRow(2);
    expect(
      sheet
        .getRange('A1:A3')
        .getValues()
        .map((r) => r[0]),
    ).toEqual(['r1', 'r2', 'r3']);
    expect(sheet.getRange('A2').getNote()).toBe('note on r2');

    sheet.insertColumnBefore(1);
    expect(sheet.getRange('B2').getNote()).toBe('note on r2');
    sheet.insertColumns(1, 2);
    expect(sheet.getRange('D2').getValue()).toBe('r2');
    sheet.deleteColumns(1, 3);
    sheet.insertColumnAfter(1);
    expect(sheet.getRange('A1:B1').getValues()).toEqual([['r1', '']]);
    sheet.deleteColumn(2);
    expect(sheet.getMaxColumns()).toBe(26);
    expect(() => sheet.deleteRows(1, sheet.getMaxRows())).toThrow(
      'Sorry, it is not possible to delete all non-frozen rows.',
    );
  });

  test('moveRows and moveColumns: the lines go before the destination counted before the move, notes and references follow', () => {
    const emu = make();
    const sheet = emu.sheet();
    sheet.getRange('A1:A5').setValues([['r1'], ['r2'], ['r3'], ['r4'], ['r5']]);
    sheet.getRange('A2').setNote('note on r2');
    emu.setFormula('Sheet1!B1', '=A2&"!"');
    const column = () =>
      sheet
        .getRange('A1:A5')
        .getValues()
        .map((r) => r[0]);
    // The reference's example: rows 1-2 moved to index 5 end as rows 3-4.
    sheet.moveRows(sheet.getRange('1:2'), 5);
    expect(column()).toEqual(['r3', 'r4', 'r1', 'r2', 'r5']);
    expect(sheet.getRange('A4').getNote()).toBe('note on r2');
    expect(sheet.getRange('B3').getFormula()).toBe('=A4&"!"'); // the formula's row moved, and the row it reads
    sheet.moveRows(sheet.getRange('A5'), 1);
    expect(column()).toEqual(['r5', 'r3', 'r4', 'r1', 'r2']);
    sheet.moveRows(sheet.getRange('A2:A3'), 3); // right after itself: nothing moves
    expect(column()).toEqual(['r5', 'r3', 'r4', 'r1', 'r2']);

    sheet.getRange('C1:E1').setValues([['c', 'd', 'e']]);
    sheet.moveColumns(sheet.getRange('A1:B1'), 6);
    expect(sheet.getRange('A1:E1').getValues()).toEqual([['c', 'd', 'e', 'r5', '']]);
    expect(sheet.getRange('E4').getFormula()).toBe('=D5&"!"');
    expect(() => sheet.moveColumns(emu.sheet().getRange('A1'), 28)).toThrow(
      'Those columns are out of bounds.',
    );
    expect(sheet.getMaxColumns()).toBe(26);
  });

  test('sort moves whole rows (notes too), empty cells last, frozen header kept', () => {
    const emu = make();
    const sheet = emu.sheet();
    sheet.getRange('A1:B5').setValues([
      ['Name', 'Score'],
      ['bob', 2],
      ['', ''],
      ['Alice', 10],
      ['carol', 1],
    ]);
    sheet.getRange('B4').setNote('alice note');
    sheet.setFrozenRows(1);
    sheet.sort(1);
    expect(
      sheet
        .getRange('A1:A5')
        .getValues()
        .map((r) => r[0]),
    ).toEqual(['Name', 'Alice', 'bob', 'carol', '']);
    expect(sheet.getRange('B2').getNote()).toBe('alice note');
    sheet.getRange('A2:B4').sort({ column: 2, ascending: false });
    expect(sheet.getRange('A2:B4').getValues()).toEqual([
      ['Alice', 10],
      ['bob', 2],
      ['carol', 1],
    ]);
    sheet.getRange('A2:B4').sort(2);
    expect(
      sheet
        .getRange('B2:B4')
        .getValues()
        .map((r) => r[0]),
    ).toEqual([1, 2, 10]);
    expect(sheet.getFrozenRows()).toBe(1);
  });

  test('hidden rows: by user and by filter', () => {
    const emu = make();
    const sheet = emu.sheet();
    sheet.getRange('A1:B6').setValues([
      ['Status', 'Email'],
      ['sent', 'a@x.com'],
      ['', 'b@x.com'],
      ['failed', 'c@x.com'],
      ['sent', 'd@x.com'],
      ['queued', 'e@x.com'],
    ]);
    sheet.hideRows(6);
    expect(sheet.isRowHiddenByUser(6)).toBe(true);
    sheet.showRows(6);
    expect(sheet.isRowHiddenByUser(6)).toBe(false);

    const filter = sheet.getRange('A1:B6').createFilter();
    expect(() => sheet.getRange('A1:B6').createFilter()).toThrow(
      "You can't create a filter in a sheet that already has a filter.",
    );
    filter.setColumnFilterCriteria(1, newCriteria(emu).setHiddenValues(['sent']).build());
    expect([2, 3, 4, 5, 6].map((r) => sheet.isRowHiddenByFilter(r))).toEqual([
      true,
      false,
      false,
      true,
      false,
    ]);
    expect(sheet.isRowHiddenByFilter(1)).toBe(false);
    filter.setColumnFilterCriteria(1, newCriteria(emu).whenCellNotEmpty().build());
    expect([2, 3, 4].map((r) => sheet.isRowHiddenByFilter(r))).toEqual([false, true, false]);
    filter.setColumnFilterCriteria(2, newCriteria(emu).whenTextContains('C@X').build());
    expect([2, 3, 4, 5, 6].map((r) => sheet.isRowHiddenByFilter(r))).toEqual([true, true, false, true, true]);
    filter.removeColumnFilterCriteria(2);
    filter.setColumnFilterCriteria(1, newCriteria(emu).whenTextEqualTo('queued').build());
    expect(sheet.isRowHiddenByFilter(6)).toBe(false);
    expect(sheet.isRowHiddenByFilter(2)).toBe(true);
    expect(sheet.getFilter().getRange().getA1Notation()).toBe('A1:B6');
    expect(emu.snapshot().spreadsheet.sheets[0].filteredRows).toEqual([2, 3, 4, 5]);
    sheet.getFilter().remove();
    expect(sheet.getFilter()).toBeNull();
    expect(sheet.isRowHiddenByFilter(2)).toBe(false);
  });

  test('a script reads hidden-by-filter state the way a sender skips rows', () => {
    const emu = make(`function visible() {
      var sheet = SpreadsheetApp.getActiveSheet();
      var range = sheet.getRange('A1:A4');
      range.createFilter().setColumnFilterCriteria(1, SpreadsheetApp.newFilterCriteria().setHiddenValues(['skip']).build());
      var out = [];
      for (var r = 2; r <= 4; r++) if (!sheet.isRowHiddenByFilter(r) && !sheet.isRowHiddenByUser(r)) out.push(r);
      return out;
    }`);
    emu.range('A1:A4').setValues([['h'], ['keep'], ['skip'], ['keep']]);
    emu.sheet().hideRows(4);
    expect(emu.run('visible')).toEqual([2]);
  });

  test('checkboxes, styles, column widths, frozen rows, charts are recorded', () => {
    const emu = make();
    const sheet = emu.sheet();
    sheet.getRange('A1:A2').insertCheckboxes();
    expect(sheet.getRange('A1:A2').getValues()).toEqual([[false], [false]]);
    sheet.getRange('A1').check();
    expect(sheet.getRange('A1').isChecked()).toBe(true);
    sheet
      .getRange('B1')
      .setFontWeight('bold')
      .setBackground('#eeeeee')
      .setWrap(true)
      .setHorizontalAlignment('center');
    expect(sheet.getRange('B1').getFontWeight()).toBe('bold');
    sheet.setColumnWidth(2, 240);
    sheet.autoResizeColumns(1, 3);
    sheet.setFrozenRows(1);
    const chart = sheet
      .newChart()
      .asPieChart()
      .addRange(sheet.getRange('A1:B3'))
      .setPosition(1, 4, 0, 0)
      .setOption('title', 'Status')
      .build();
    sheet.insertChart(chart);
    expect(sheet.getCharts()).toHaveLength(1);
    expect(sheet.getCharts()[0].getRanges()[0].getA1Notation()).toBe('A1:B3');
    const snap = emu.snapshot().spreadsheet.sheets[0];
    expect(snap.charts[0]).toMatchObject({
      chartType: 'PIE',
      ranges: ['Sheet1!A1:B3'],
      options: { title: 'Status' },
    });
    expect(snap.columnWidths).toEqual({ 2: 240 });
    expect(snap.frozenRows).toBe(1);
    expect(snap.styles[0][1]).toEqual({
      fontWeight: 'bold',
      background: '#eeeeee',
      wrap: true,
      horizontalAlignment: 'center',
    });
    expect(snap.checkboxes[0][0]).toBe(true);
  });

  test('selection: the user selects, the script reads active range, range list and current cell', () => {
    const emu = make(`function sel() {
      var list = SpreadsheetApp.getActiveRangeList().getRanges().map(function (r) { return r.getA1Notation(); });
      return [SpreadsheetApp.getActiveSheet().getName(), SpreadsheetApp.getActiveRange().getA1Notation(), list,
        SpreadsheetApp.getSelection().getCurrentCell().getA1Notation()];
    }
    function move() { SpreadsheetApp.getActiveSheet().getRange('C3').activate(); }`);
    emu.spreadsheet.insertSheet('Contacts');
    emu.select('Contacts!A2:A5', 'Contacts!C2:C3');
    expect(emu.run('sel')).toEqual(['Contacts', 'C2:C3', ['A2:A5', 'C2:C3'], 'C2']);
    emu.run('move');
    expect(emu.snapshot().spreadsheet.selection).toEqual({
      sheet: 'Contacts',
      ranges: ['C3'],
      current: 'C3',
    });
  });

  test('clear, clearContents, clearContent keep or drop notes and formats', () => {
    const emu = make();
    const r = emu.range('A1');
    r.setValue('x').setNote('n').setNumberFormat('@');
    r.clearContent();
    expect([r.getValue(), r.getNote(), r.getNumberFormat()]).toEqual(['', 'n', '@']);
    r.setValue('y');
    r.clear();
    expect([r.getValue(), r.getNote(), r.getNumberFormat()]).toEqual(['', 'n', 'General']);
    r.clear({ commentsOnly: true });
    expect(r.getNote()).toBe('');
    emu.range('B2').setValue(1);
    emu.sheet().clearContents();
    expect(emu.sheet().getLastRow()).toBe(0);
  });
});

describe('counting', () => {
  test('every Spreadsheet/Sheet/Range call by the script is counted; test-side calls are not', () => {
    const emu = make(`function chunk() {
      var sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Sheet1');
      var range = sheet.getRange(2, 1, 100, 2);
      var values = range.getValues();
      for (var i = 0; i < values.length; i++) values[i][1] = 'ok ' + values[i][0];
      range.setValues(values);
    }`);
    emu.range('A2:A101').setValues(Array.from({ length: 100 }, (_, i) => [i]));
    emu.resetStats();
    emu.run('chunk');
    expect(emu.callCount('Range.getValues')).toBe(1);
    expect(emu.callCount('Range.setValues')).toBe(1);
    expect(emu.stats.spreadsheet).toEqual({ calls: 5, reads: 4, writes: 1 });
    expect(emu.range('B101').getValue()).toBe('ok 99');
    expect(emu.stats.spreadsheet.calls).toBe(5);
  });
});

describe('snapshot', () => {
  test('holds values, formulas, notes, formats, hidden rows, frozen rows, selection and UI records', () => {
    const emu = make();
    emu.range('A1:B2').setValues([
      ['Name', 'When'],
      ['=HYPERLINK("x")', new Date(Date.UTC(2026, 0, 5))],
    ]);
    emu.range('A1').setNote('header');
    emu.sheet().hideRows(2);
    const s = emu.snapshot();
    const sheet = s.spreadsheet.sheets[0];
    expect(sheet.values).toEqual([
      ['Name', 'When'],
      ['', { date: '2026-01-05T00:00:00.000Z' }],
    ]);
    expect(sheet.displayValues[1][1]).toBe('1/5/2026 0:00:00');
    expect(sheet.formulas[1][0]).toBe('=HYPERLINK("x")');
    expect(sheet.notes[0][0]).toBe('header');
    expect(sheet.hiddenRows).toEqual([2]);
    expect(s.ui).toEqual({ menus: [], toasts: [], alerts: [], prompts: [], sidebars: [], dialogs: [] });
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });
});

function newCriteria(emu) {
  return emu.services.SpreadsheetApp.newFilterCriteria();
}
