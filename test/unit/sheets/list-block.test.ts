// src/sheets/list-block.ts: a list ends at its first row blank in its header's columns, and the cells the add-on must not
// write inside it are a formula and a value an array formula put there.
import {
  blockLength,
  type CellBlock,
  cutAtBlankRow,
  cutBelow,
  guardedCells,
  isEmptyCell,
  lastListRow,
  listColumns,
  listEnd,
  maySpill,
  readListBlock,
  rowAfterList,
} from '../../../src/sheets/list-block';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** A block from rows of values; `=…` strings are formulas (their value is `out`). */
function block(first: number, rows: unknown[][], out: unknown = 'x'): CellBlock {
  const isFormula = (v: unknown) => typeof v === 'string' && v.startsWith('=');
  return {
    first,
    values: rows.map((row) => row.map((v) => (isFormula(v) ? out : v))),
    formulas: rows.map((row) => row.map((v) => (isFormula(v) ? String(v) : ''))),
  };
}

/** A sheet over a grid of values (row 1 first), counting reads and recording inserted rows. */
function fakeSheet(grid: unknown[][]) {
  const calls = { reads: 0, inserted: [] as Array<[number, number]> };
  const width = Math.max(0, ...grid.map((row) => row.length));
  const cell = (r: number, c: number) => (grid[r - 1] && grid[r - 1][c - 1]) ?? '';
  const sheet = {
    getLastRow: () => grid.length,
    getLastColumn: () => width,
    getRange: (row: number, column: number, rows: number, columns: number) => {
      const area = (f: (_value: unknown) => unknown) =>
        Array.from({ length: rows }, (_, i) =>
          Array.from({ length: columns }, (_, j) => f(cell(row + i, column + j))),
        );
      return {
        getValues: () => (calls.reads++, area((v) => v)),
        getFormulas: () => area(() => ''),
        getDisplayValues: () => area((v) => String(v)),
      };
    },
    insertRowsAfter: (after: number, count: number) => calls.inserted.push([after, count]),
  };
  return { sheet: sheet as unknown as Sheet, calls };
}

describe('isEmptyCell', () => {
  test('nothing, an empty text and an unchecked checkbox are empty; a formula or any value is not', () => {
    expect([undefined, null, '', false].every((v) => isEmptyCell(v))).toBe(true);
    expect(isEmptyCell('', '=A1')).toBe(false);
    expect(isEmptyCell(0)).toBe(false);
    expect(isEmptyCell(true)).toBe(false);
    expect(isEmptyCell(' ')).toBe(false);
  });
});

describe('where a list ends', () => {
  const rows = [
    ['a@x.com', 'Ann'],
    ['b@x.com', false],
    ['', false],
    ['Notes below the list', ''],
  ];

  test('at its first fully blank row (an unchecked checkbox counts as blank)', () => {
    expect(blockLength(block(2, rows))).toBe(2);
    expect(cutAtBlankRow(block(2, rows)).values).toEqual(rows.slice(0, 2));
  });

  test('a formula returning nothing is not a blank row', () => {
    expect(blockLength(block(2, [['a@x.com'], ['=IF(1,"",1)'], ['c@x.com']], ''))).toBe(3);
  });

  test('a block with no blank row is kept whole, the same object', () => {
    const whole = block(2, rows.slice(0, 2));
    expect(cutAtBlankRow(whole)).toBe(whole);
  });

  test('cutBelow keeps the rows before `from` (a header) and cuts the rest at its blank row', () => {
    const withHeader = block(1, [['E-mail', 'Name'], ['', ''], ...rows]);
    withHeader.display = withHeader.values.map((row) => row.map(String));
    // From index 0 the header is followed by a blank row: the list is the header alone.
    expect(cutBelow(withHeader, 0).values).toHaveLength(1);
    const cut = cutBelow(withHeader, 2);
    expect(cut.first).toBe(1);
    expect(cut.values).toEqual([['E-mail', 'Name'], ['', ''], ...rows.slice(0, 2)]);
    expect(cut.display).toHaveLength(4);
  });

  test('listEnd: the list holding a row ends before the next blank row, leading blank rows skipped', () => {
    const sheetRows = block(2, [['a'], ['b'], [''], [''], ['c'], ['d'], ['']]);
    expect(listEnd(sheetRows, 2)).toBe(3);
    expect(listEnd(sheetRows, 4)).toBe(7); // rows 4 and 5 are blank: the list of rows 6-7
    expect(listEnd(sheetRows, 8)).toBe(7); // nothing below: from - 1
    expect(listEnd(sheetRows, 20)).toBe(19);
  });
});

describe('reading a list from a sheet', () => {
  const grid = [['E-mail'], ['a@x.com'], ['b@x.com'], [''], ['Total: 2']];

  test('readListBlock reads one block and stops at the blank row', () => {
    const { sheet, calls } = fakeSheet(grid);
    const read = readListBlock(sheet, 1, true);
    expect(read.first).toBe(2);
    expect(read.values).toEqual([['a@x.com'], ['b@x.com']]);
    expect(read.display).toEqual([['a@x.com'], ['b@x.com']]);
    expect(calls.reads).toBe(1); // the header row comes in the same read
    expect(readListBlock(fakeSheet([['E-mail']]).sheet, 1)).toEqual({
      first: 2,
      values: [],
      formulas: [],
      display: undefined,
    });
  });

  // Numbers pasted in column E, two blank columns right of the list (A-B), go on below it.
  const beside = [
    ['E-mail', 'Name', '', '', ''],
    ['a@x.com', 'Ann', '', '', '+14155550100'],
    ['b@x.com', 'Bob', '', '', '+14155550101'],
    ['', '', '', '', '+14155550102'],
    ['', '', '', '', '+14155550103'],
    ['c@x.com', 'Cy', '', '', ''],
  ];

  test('a cell under no header of the list neither makes a row of it nor carries it on', () => {
    const { sheet } = fakeSheet(beside);
    const read = readListBlock(sheet, 5);
    expect(read.columns).toEqual([0, 1]);
    expect(read.values.map((row) => row[0])).toEqual(['a@x.com', 'b@x.com']);
    expect(lastListRow(sheet)).toBe(3);
    expect(rowAfterList(sheet, 1, 2)).toBe(4);
  });

  test("the list's columns: its header from column A to two blank cells, and columns found by header", () => {
    expect(listColumns(['E-mail', 'Name', '', '', 'Mail status', 'Phone check'], [])).toEqual([0, 1]);
    expect(listColumns(['E-mail', 'Name', '', '', 'Mail status'], [], [4])).toEqual([0, 1, 4]);
    // One blank header is a column inserted into the list: the columns after it are still the list's.
    expect(listColumns(['E-mail', '', 'Name', '', '', 'Notes'], [])).toEqual([0, 1, 2]);
    expect(listColumns(['', '=1'], ['', '=1'])).toBeUndefined(); // no header at A: every column counts
    expect(listColumns(['', 'E-mail'], [])).toBeUndefined();
    // A column the add-on found beyond the header's gap carries the list on like the header's own.
    const status = fakeSheet(
      beside.map((row, r) => [...row.slice(0, 4), r === 0 ? 'Mail status' : row[4] && 'Accepted']),
    );
    expect(readListBlock(status.sheet, 5).values).toHaveLength(2);
    expect(readListBlock(status.sheet, 5, false, [4]).values).toHaveLength(5);
  });

  test('lastListRow is the last row before the blank row', () => {
    expect(lastListRow(fakeSheet(grid).sheet)).toBe(3);
    expect(lastListRow(fakeSheet([['E-mail']]).sheet)).toBe(1);
  });

  test('rowAfterList: rows are inserted below the list when something lies below it', () => {
    const below = fakeSheet(grid);
    expect(rowAfterList(below.sheet, 1, 5)).toBe(4);
    expect(below.calls.inserted).toEqual([[3, 5]]);
    const nothingBelow = fakeSheet(grid.slice(0, 3));
    expect(rowAfterList(nothingBelow.sheet, 1, 5)).toBe(4);
    expect(nothingBelow.calls.inserted).toEqual([]);
    expect(rowAfterList(fakeSheet([]).sheet, 1, 5)).toBe(2);
  });
});

describe('maySpill', () => {
  test('functions that can return an array, array literals and custom functions spill', () => {
    for (const f of [
      '=ARRAYFORMULA(A2:A*2)',
      '=filter(A:A, B:B)',
      '={1;2}',
      '=PROSPECT_SEARCH("x")',
      '=SORT(A2:B)',
    ])
      expect(maySpill(f)).toBe(true);
  });

  test('a plain formula, a name only containing such a word, and no formula do not', () => {
    for (const f of ['=A1+1', '=SUM(A:A)', '=MYFILTERX(A1)', '=ISFILTERED(A1)', ''])
      expect(maySpill(f)).toBe(false);
  });
});

describe('guardedCells', () => {
  const own = (v: unknown) => v === 'Sent' || v === 'Queued';

  test('a formula in a written column is guarded, wherever it is', () => {
    const cells = block(2, [
      ['a@x.com', '=1+1'],
      ['b@x.com', ''],
    ]);
    expect([...guardedCells(cells, [{ column: 2, own }])]).toEqual(['2:2']);
  });

  test("a spilling formula's output below it is guarded until an empty or own cell", () => {
    const cells = block(2, [['=ARRAYFORMULA(1)'], ['out1'], ['out2'], [''], ['typed']]);
    expect([...guardedCells(cells, [{ column: 1 }])].sort()).toEqual(['2:1', '3:1', '4:1']);
  });

  test("a value right of a spilling formula in its row is guarded; the column's own words are not", () => {
    const cells = block(2, [
      ['a@x.com', '={"x","y"}', 'y'],
      ['b@x.com', '={"x","Sent"}', 'Sent'],
      ['c@x.com', '=A4', 'z'],
    ]);
    expect([...guardedCells(cells, [{ column: 3, own }])]).toEqual(['2:3']);
  });

  test('a filled cell between breaks nothing, an empty cell between stops the spill', () => {
    const reached = block(2, [['=SPLIT("a b")', 'a', 'b']]);
    expect([...guardedCells(reached, [{ column: 3 }])]).toEqual(['2:3']);
    const stopped = block(2, [['=SPLIT("a b")', '', 'b']]);
    expect([...guardedCells(stopped, [{ column: 3 }])]).toEqual([]);
  });
});
