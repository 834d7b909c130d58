// src/features/prospecting/filters.ts: the search filters the client applies, read from the form as people
// type them (a filter that cannot be read names its field and an example), and applied to each row.
import type { SearchRow } from '../../../../src/api/outreach/outreach-schemas';
import {
  failedFilters,
  foundingYear,
  hasFilters,
  leftOutText,
  parseBounds,
  parseFilters,
} from '../../../../src/features/prospecting/filters';
import { UserError } from '../../../../src/features/errors';

describe('parseBounds', () => {
  test.each([
    ['500', 500, 500],
    ['11-200', 11, 200],
    ['11 – 200 employees', 11, 200],
    ['11 to 200', 11, 200],
    ['1,000-5.000', 1000, 5000],
    ['2k-10k', 2000, 10000],
    ['50+', 50, Infinity],
    ['1000 or more', 1000, Infinity],
    ['10 or fewer', 0, 10],
    ['<10', 0, 9],
    ['<=10', 0, 10],
    ['up to 10', 0, 10],
    ['before 2000', 0, 1999],
    ['after 2010', 2011, Infinity],
    ['since 2010', 2010, Infinity],
    ['> 5', 6, Infinity],
  ])('"%s" is %p to %p', (text, min, max) => {
    expect(parseBounds(text)).toEqual({ min, max });
  });

  test('a reversed range, "< 0", an unknown word or no number is not read', () => {
    for (const text of ['200-11', '<0', 'about 50', 'many', '', '   ', '10-', '5 employees 6'])
      expect(parseBounds(text)).toBeUndefined();
  });
});

describe('parseFilters', () => {
  test('an empty form has no filters', () => {
    const filters = parseFilters({ employees: '', founded: ' ', minEmails: '', withWhatsApp: false });
    expect(filters).toEqual({});
    expect(hasFilters(filters)).toBe(false);
  });

  test('each field read; a range (2-D array) gives its first cell', () => {
    const filters = parseFilters({
      employees: [['11-200']],
      founded: '1990-2010',
      minEmails: '3',
      withWhatsApp: 'yes',
    });
    expect(filters).toEqual({
      employees: { min: 11, max: 200 },
      founded: { min: 1990, max: 2010 },
      minEmails: 3,
      withWhatsApp: true,
    });
    expect(hasFilters(filters)).toBe(true);
  });

  test('"Minimum e-mails" of 0 is no filter', () => {
    expect(parseFilters({ minEmails: 0 })).toEqual({});
  });

  const refusal = (form: Record<string, unknown>) => {
    try {
      parseFilters(form);
    } catch (error) {
      return error as UserError;
    }
    throw new Error('not refused');
  };

  test('employees that cannot be read: the field is named, with what was typed and an example', () => {
    const error = refusal({ employees: 'lots of people' });
    expect(error).toBeInstanceOf(UserError);
    expect(error.field).toBe('employees');
    expect(error.message).toMatch(
      /^Employees: "lots of people" is not a range of employees\. Write it like 11-200/,
    );
  });

  test('founded must be years (or open ends): 50 is not a year', () => {
    expect(refusal({ founded: '50' }).field).toBe('founded');
    expect(refusal({ founded: '1990-3000' }).field).toBe('founded');
    expect(parseFilters({ founded: 'before 2000' }).founded).toEqual({ min: 0, max: 1999 });
  });

  test('a typed text is cut at 40 characters in the message', () => {
    expect(refusal({ employees: 'x'.repeat(100) }).message).toContain(`"${'x'.repeat(40)}"`);
  });

  test('minimum e-mails must be a whole number from 0 to 100,000', () => {
    expect(refusal({ minEmails: '2.5' }).message).toBe(
      'Minimum e-mails must be a whole number from 0 to 100000.',
    );
  });
});

describe('foundingYear', () => {
  test('the first four-digit year of founding_time', () => {
    expect(foundingYear('2005')).toBe(2005);
    expect(foundingYear('2005-03-01')).toBe(2005);
    expect(foundingYear('founded in 1998')).toBe(1998);
    expect(foundingYear(1987)).toBe(1987);
  });

  test('no year: a longer number, a year out of 1000-2099, nothing', () => {
    expect(foundingYear('20050')).toBeUndefined();
    expect(foundingYear('0999')).toBeUndefined();
    expect(foundingYear('2100')).toBeUndefined();
    expect(foundingYear(null)).toBeUndefined();
  });
});

describe('failedFilters', () => {
  const row = (fields: Partial<SearchRow>) => fields as SearchRow;
  const filters = parseFilters({
    employees: '11-200',
    founded: 'after 2000',
    minEmails: 2,
    withWhatsApp: true,
  });

  test('a row that matches every filter fails none', () => {
    const match = row({
      employees_count: '51-200',
      founding_time: '2010',
      email_count: 4,
      whatsapp_count: 1,
    });
    expect(failedFilters(match, filters)).toEqual([]);
  });

  test('an employee range matches when it overlaps the filter', () => {
    expect(failedFilters(row({ employees_count: '1-20' }), { employees: { min: 11, max: 200 } })).toEqual([]);
    expect(failedFilters(row({ employees_count: '201-500' }), { employees: { min: 11, max: 200 } })).toEqual([
      'employees',
    ]);
  });

  test('a value that cannot be read fails its filter', () => {
    expect(failedFilters(row({}), filters)).toEqual(['employees', 'founded', 'minEmails', 'withWhatsApp']);
  });

  test('no filters: nothing fails', () => {
    expect(failedFilters(row({}), {})).toEqual([]);
  });
});

describe('leftOutText', () => {
  test('the counts that are not zero, in the order of the filters', () => {
    expect(leftOutText({ withWhatsApp: 2, employees: 41, founded: 0, minEmails: 3 })).toBe(
      'employees 41, e-mails 3, WhatsApp 2',
    );
    expect(leftOutText({})).toBe('');
  });
});
