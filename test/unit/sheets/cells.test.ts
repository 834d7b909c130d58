// src/sheets/cells.ts: untrusted text from an API is written so that Sheets keeps exactly that text (never a
// formula, a number, a date or a boolean), and cells are read back as the user sees them.
import {
  asShown,
  booleanCell,
  cellText,
  dateCell,
  listCell,
  needsQuote,
  numberCell,
  textAsShown,
  textCell,
  wholeNumberCell,
  wholeNumberOf,
} from '../../../src/sheets/cells';

describe('textCell', () => {
  test('a formula, a signed number, an @ or a quote of its own gets the quote prefix', () => {
    expect(textCell('=IMPORTXML("http://evil")')).toBe(`'=IMPORTXML("http://evil")`);
    expect(textCell('+1 555 0100')).toBe(`'+1 555 0100`);
    expect(textCell('-5')).toBe(`'-5`);
    expect(textCell('@mention')).toBe(`'@mention`);
    expect(textCell("'quoted")).toBe(`''quoted`);
  });

  test('what Sheets would parse into a number, a date, a time or a boolean is kept as text', () => {
    for (const text of [
      '00123',
      '1-10',
      '2015-01',
      '12%',
      '$5',
      '1e3',
      '9pm',
      '10:30 a.m.',
      'Jan 5',
      '5 January 2015',
      'Sept 2020',
      'TRUE',
      ' false ',
    ])
      expect(needsQuote(text)).toBe(true);
  });

  test('ordinary text is written as it is', () => {
    for (const text of ['Acme GmbH', 'Pumps & valves', 'Route 66 Diner', 'Model X200', 'May Chen', 'Trueman'])
      expect(textCell(text)).toBe(text);
    expect(textCell(null)).toBe('');
    expect(textCell(undefined)).toBe('');
  });
});

describe('other API values', () => {
  test('a list in one cell, blanks dropped, the whole made safe', () => {
    expect(listCell(['Pumps', '', null, 'Valves'])).toBe('Pumps, Valves');
    expect(listCell(['=1+1'])).toBe(`'=1+1`);
    expect(listCell('single')).toBe('single');
  });

  test('numbers, whole numbers sent as text, booleans, dates', () => {
    expect(numberCell(5)).toBe(5);
    expect(numberCell(NaN)).toBe('');
    expect(numberCell('5')).toBe('');
    expect(wholeNumberOf('1998')).toBe(1998);
    expect(wholeNumberOf('0049')).toBeUndefined(); // leading zeros stay text
    expect(wholeNumberCell('0049')).toBe(`'0049`);
    expect(wholeNumberCell(' 12 ')).toBe(12);
    expect(booleanCell(true)).toBe(true);
    expect(booleanCell('true')).toBe('');
    expect(dateCell('2026-01-05T10:00:00Z')).toEqual(new Date(Date.UTC(2026, 0, 5, 10)));
    expect(dateCell('not a date')).toBe('not a date');
    expect(dateCell('')).toBe('');
  });
});

describe('reading cells back', () => {
  test('cellText: trimmed text, a date as ISO', () => {
    expect(cellText('  a@b.com ')).toBe('a@b.com');
    expect(cellText(12)).toBe('12');
    expect(cellText(new Date(Date.UTC(2026, 0, 5)))).toBe('2026-01-05T00:00:00.000Z');
    expect(cellText(null)).toBe('');
  });

  test('asShown: a number shown with leading zeros is taken as shown (a national phone number)', () => {
    expect(asShown(7911123456, '07911123456')).toBe('07911123456');
    expect(asShown(42, '42')).toBe(42);
    expect(asShown('0x', '0x')).toBe('0x');
  });

  test('textAsShown: text as it is, anything else as the cell shows it', () => {
    expect(textAsShown(' Ann ', 'Ann')).toBe('Ann');
    expect(textAsShown(true, 'TRUE')).toBe('TRUE');
    expect(textAsShown(new Date(Date.UTC(2026, 0, 5)), '2026-01-05 ')).toBe('2026-01-05');
  });
});
