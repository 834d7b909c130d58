'use strict';
// Custom-function formulas evaluated the way Sheets does: ranges arrive as 2-D arrays, single cells as
// scalars, 2-D results spill, a spill onto data is #REF!, a throw is #ERROR!, references follow row edits.
const { AppsScriptEmulator } = require('.');

const CODE = `
/** @customfunction */
function DOUBLE(x) {
  if (Array.isArray(x)) return x.map(function (row) { return [row[0] === '' ? '' : row[0] * 2, typeof row[0]]; });
  return x * 2;
}
/** @customfunction */
function KIND(x) { return Array.isArray(x) ? 'rows:' + x.length + ' cols:' + x[0].length : typeof x + ':' + x; }
/** @customfunction */
function ARGS(a, b, c, d) { return [[typeof a, typeof b, typeof c, String(d)]]; }
/** @customfunction */
function FAIL() { throw new Error('No API key: open Add-ons > Settings'); }
/** @customfunction */
function COUNTER() { var p = PropertiesService.getScriptProperties(); var n = Number(p.getProperty('n') || 0) + 1; p.setProperty('n', String(n)); return n; }
/** @customfunction */
function TODAY_() { return new Date(); }
`;

const make = () => new AppsScriptEmulator({ code: CODE });

test('a range argument is a 2-D array and a 2-D result spills', () => {
  const emu = make();
  emu.range('A2:A5').setValues([[1], [2], [''], [4]]);
  emu.setFormula('Sheet1!B2', '=DOUBLE(A2:A5)');
  const results = emu.recalculate();
  expect(results).toEqual([{ cell: 'Sheet1!B2', rows: 4, columns: 2 }]);
  expect(emu.range('B2:C5').getValues()).toEqual([
    [2, 'number'],
    [4, 'number'],
    ['', 'string'],
    [8, 'number'],
  ]);
  expect(emu.range('B2').getFormula()).toBe('=DOUBLE(A2:A5)');
  expect(emu.range('B3').getFormula()).toBe('');
  expect(emu.stats.executions).toBe(1);
});

test('a single cell is a scalar; literals keep their types', () => {
  const emu = make();
  emu.range('A1').setValue(21);
  emu.setFormula('B1', '=KIND(A1)');
  emu.setFormula('B2', '=KIND(A1:B3)');
  emu.setFormula('B3', '=ARGS(1.5, "a,""b", TRUE, )');
  emu.setFormula('C1', '=double(A1)');
  emu.recalculate();
  expect(emu.range('B1').getValue()).toBe('number:21');
  expect(emu.range('B2').getValue()).toBe('rows:3 cols:2');
  expect(emu.range('B3:E3').getValues()).toEqual([['number', 'string', 'boolean', 'undefined']]);
  expect(emu.range('C1').getValue()).toBe(42);
});

test('a spill onto non-empty cells is #REF!, and clears when the cell is emptied', () => {
  const emu = make();
  emu.range('A1:A3').setValues([[1], [2], [3]]);
  emu.range('B3').setValue('in the way');
  emu.setFormula('B1', '=DOUBLE(A1:A3)');
  expect(emu.recalculate()).toEqual([
    { cell: 'Sheet1!B1', error: 'Array result was not expanded because it would overwrite data in B3.' },
  ]);
  expect(emu.range('B1').getValue()).toBe('#REF!');
  expect(emu.range('B2').getValue()).toBe('');
  emu.range('B3').clearContent();
  emu.recalculate({ dirtyOnly: true });
  expect(emu.range('B1:B3').getValues()).toEqual([[2], [4], [6]]);
});

test('a throwing custom function shows #ERROR! with its message', () => {
  const emu = make();
  emu.setFormula('A1', '=FAIL()');
  expect(emu.recalculate()).toEqual([{ cell: 'Sheet1!A1', error: 'No API key: open Add-ons > Settings' }]);
  expect(emu.range('A1').getValue()).toBe('#ERROR!');
  expect(emu.snapshot().spreadsheet.sheets[0].errors[0][0]).toBe('No API key: open Add-ons > Settings');
  expect(() => emu.runCustomFunction('FAIL', [])).toThrow('No API key');
});

test('non-custom formulas are kept as formulas and not evaluated', () => {
  const emu = make();
  emu.setFormula('A1', '=SUM(B1:B3)');
  emu.setFormula('A2', '=DOUBLE(B1)+1');
  expect(emu.recalculate()).toEqual([]);
  expect(emu.range('A1:A2').getFormulas()).toEqual([['=SUM(B1:B3)'], ['=DOUBLE(B1)+1']]);
});

test('recalculate() re-runs every custom formula (like reopening); dirtyOnly runs only changed cells', () => {
  const emu = make();
  emu.setFormula('A1', '=COUNTER()');
  emu.setFormula('A2', '=COUNTER()');
  emu.recalculate();
  expect(emu.range('A1:A2').getValues()).toEqual([[1], [2]]);
  emu.recalculate({ dirtyOnly: true });
  expect(emu.stats.executions).toBe(2);
  emu.recalculate();
  expect(emu.range('A1:A2').getValues()).toEqual([[3], [4]]);
});

test('references follow inserted and deleted rows and columns', () => {
  const emu = make();
  const sheet = emu.sheet();
  emu.range('A2:A3').setValues([[1], [2]]);
  emu.setFormula('C1', '=DOUBLE(A2:A3)');
  sheet.insertRowBefore(1);
  expect(emu.range('C2').getFormula()).toBe('=DOUBLE(A3:A4)');
  sheet.insertColumnBefore(1);
  expect(emu.range('D2').getFormula()).toBe('=DOUBLE(B3:B4)');
  sheet.deleteRow(3);
  expect(emu.range('D2').getFormula()).toBe('=DOUBLE(B3:B3)');
  emu.recalculate();
  expect(emu.range('D2:E2').getValues()).toEqual([[4, '']]); // one cell arrives as a scalar
});

test('a script writing a custom formula gets it evaluated by the next recalculation', () => {
  const emu = new AppsScriptEmulator({
    code: CODE + "function put() { SpreadsheetApp.getActiveSheet().getRange('B1').setValue('=DOUBLE(A1)'); }",
  });
  emu.range('A1').setValue(5);
  emu.run('put');
  expect(emu.range('B1').getValue()).toBe('');
  emu.recalculate({ dirtyOnly: true });
  expect(emu.range('B1').getValue()).toBe(10);
});

test('editing an input cell re-runs the formulas that read it (dirtyOnly)', () => {
  const emu = make();
  emu.range('A1:A2').setValues([[1], [2]]);
  emu.setFormula('B1', '=DOUBLE(A1:A2)');
  emu.setFormula('D1', '=KIND(C9)');
  emu.recalculate();
  emu.range('A2').setValue(50);
  emu.recalculate({ dirtyOnly: true });
  expect(emu.range('B2').getValue()).toBe(100);
  expect(emu.stats.executions).toBe(3);
});
