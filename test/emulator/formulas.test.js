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

test("a value written into an array's output breaks it (#REF!); rows inserted above move the output with its formula", () => {
  const emu = make();
  emu.range('A1:A3').setValues([[1], [2], [3]]);
  emu.setFormula('B1', '=DOUBLE(A1:A3)');
  emu.recalculate();
  expect(emu.range('C2').getFormula()).toBe(''); // an output cell has no formula of its own
  emu.sheet('Sheet1').insertRowsBefore(1, 2);
  expect(emu.range('B3').getFormula()).toBe('=DOUBLE(A3:A5)');
  expect(emu.recalculate({ dirtyOnly: true })).toEqual([{ cell: 'Sheet1!B3', rows: 3, columns: 2 }]);
  expect(emu.range('B3:B5').getValues()).toEqual([[2], [4], [6]]);
  emu.range('C4').setValue('typed');
  expect(emu.recalculate({ dirtyOnly: true })).toEqual([
    { cell: 'Sheet1!B3', error: 'Array result was not expanded because it would overwrite data in C4.' },
  ]);
  emu.sheet('Sheet1').deleteRows(3, 1);
  expect(emu.range('B3:C4').getValues()).toEqual([
    ['', 'typed'],
    ['', ''],
  ]);
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

describe('built-in text formulas (the ones a mailing list is built with)', () => {
  const evaluate = (cells, formulas) => {
    const emu = make();
    for (const [a1, value] of Object.entries(cells)) emu.range(a1).setValue(value);
    Object.entries(formulas).forEach(([a1, f]) => emu.setFormula(a1, f));
    emu.recalculate();
    const sheet = emu.snapshot().spreadsheet.sheets[0];
    const at = (a1) => {
      const r = Number(a1.slice(1)) - 1;
      const c = a1.charCodeAt(0) - 65;
      return {
        value: emu.range(a1).getValue(),
        error: sheet.errors[r][c],
        unevaluated: sheet.unevaluated[r][c],
      };
    };
    return Object.fromEntries(Object.keys(formulas).map((a1) => [a1, at(a1)]));
  };

  test('text functions, & and arithmetic evaluate; inputs first, whatever order the cells are in', () => {
    const out = evaluate(
      { A1: '  ann  LEE ', B1: 'Acme Corp', C1: 1234.5, A2: true, B2: new Date(Date.UTC(2024, 0, 5)) },
      {
        D1: '=E1&"@"&SUBSTITUTE(LOWER(B1)," ","")&".com"', // E1 is evaluated first
        E1: '=LOWER(TRIM(A1))',
        D2: '=PROPER(A1)',
        D3: '=CONCATENATE(A1:B1, C1, A2)',
        D4: '=LEFT(B1,4)&"|"&RIGHT(B1,4)&"|"&MID(B1,2,3)&"|"&LEN(B1)',
        D5: '=TEXT(C1,"#,##0.00")&" "&TEXT(B2,"yyyy-mm-dd")&" "&B2',
        D6: '=C1*2+1&"x"',
        D7: '=SUBSTITUTE("a-b-c","-","+",2)',
        D8: '=TEXTJOIN(", ",TRUE,A1:C1,"",A2)',
      },
    );
    expect(out.E1.value).toBe('ann lee');
    expect(out.D1.value).toBe('ann lee@acmecorp.com');
    expect(out.D2.value).toBe('  Ann  Lee ');
    expect(out.D3.value).toBe('  ann  LEE Acme Corp1234.5TRUE');
    expect(out.D4.value).toBe('Acme|Corp|cme|9');
    expect(out.D5.value).toBe('1,234.50 2024-01-05 45296'); // a date joins as its serial number
    expect(out.D6.value).toBe('2470x'); // & binds less tightly than + and *
    expect(out.D7.value).toBe('a-b+c');
    expect(out.D8.value).toBe('  ann  LEE , Acme Corp, 1234.5, TRUE');
  });

  test('errors carry their note; a cycle is #REF!; an unknown function is unevaluated, not blank', () => {
    const out = evaluate(
      { A1: 'x' },
      { B1: '="a"+1', B2: '=1/0', B3: '=B4', B4: '=B3', B5: '=UPPER(B1)', B6: '=VLOOKUP(A1,A1:A2,1,FALSE)' },
    );
    expect(out.B1).toMatchObject({ value: '#VALUE!', error: expect.stringMatching(/'a' is a text/) });
    expect(out.B2).toMatchObject({ value: '#DIV/0!' });
    expect(out.B3).toMatchObject({ value: '#REF!', error: expect.stringMatching(/^Circular dependency/) });
    expect(out.B4).toMatchObject({ value: '#REF!' });
    expect(out.B5).toMatchObject({ value: '#VALUE!' }); // an error in an input carries on
    expect(out.B6).toEqual({
      value: '',
      error: null,
      unevaluated: 'VLOOKUP is not one of the functions it evaluates',
    });
  });
});
