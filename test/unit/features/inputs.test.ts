// src/features/inputs.ts: what users type in sidebars and custom-function arguments: lists from text or
// ranges, country codes (a misspelling named with its fix), optional whole numbers and flags.
import {
  countryCodesProblem,
  parseCountries,
  parseFlag,
  parseList,
  parseWholeNumber,
} from '../../../src/features/inputs';
import { UserError } from '../../../src/features/errors';

describe('parseList', () => {
  test('items from text, arrays and ranges: trimmed, de-duplicated, blanks dropped', () => {
    expect(parseList('pumps, valves;\n pumps ,')).toEqual(['pumps', 'valves']);
    expect(parseList([['pumps'], [''], [null], ['gears, bolts']])).toEqual(['pumps', 'gears', 'bolts']);
    expect(parseList(42)).toEqual(['42']);
    expect(parseList(undefined)).toEqual([]);
  });
});

describe('parseCountries', () => {
  const isCountry = (code: string) => ['DE', 'GB', 'GR', 'US'].includes(code);

  test('codes separated by commas, semicolons, spaces or lines, in upper case, once each', () => {
    expect(parseCountries('de, us gb\nDE', 'Countries', isCountry)).toEqual(['DE', 'US', 'GB']);
  });

  test('a misspelling is named with the code to use; unknown codes together, in the order typed', () => {
    expect(() => parseCountries('UK, XX, DE, YY', 'Countries', isCountry)).toThrow(
      new UserError(
        'Countries: "UK" is not an ISO country code: use GB. "XX", "YY" are not ISO country codes (two letters, e.g. DE, US).',
      ),
    );
    expect(countryCodesProblem(['ZZ', 'EL'])).toBe(
      '"ZZ" is not an ISO country code (two letters, e.g. DE, US). "EL" is not an ISO country code: use GR.',
    );
    expect(countryCodesProblem([])).toBe('');
  });

  test('the refusal names the field', () => {
    try {
      parseCountries('XX', 'Exclude countries', isCountry);
    } catch (error) {
      expect((error as UserError).field).toBe('Exclude countries');
      return;
    }
    throw new Error('not refused');
  });
});

describe('parseWholeNumber', () => {
  test('blank gives the fallback; a number or its text within the bounds is taken', () => {
    expect(parseWholeNumber('', 'Pages', 1, 10, 3)).toBe(3);
    expect(parseWholeNumber([['']], 'Pages', 1, 10, 3)).toBe(3);
    expect(parseWholeNumber(' 7 ', 'Pages', 1, 10, 3)).toBe(7);
    expect(parseWholeNumber([[10]], 'Pages', 1, 10, 3)).toBe(10);
  });

  test('a fraction, a word or a number out of bounds is refused with the bounds', () => {
    for (const input of ['2.5', 'ten', 0, 11])
      expect(() => parseWholeNumber(input, 'Pages', 1, 10, 3)).toThrow(
        'Pages must be a whole number from 1 to 10.',
      );
  });
});

describe('parseFlag', () => {
  test('true, yes, y, 1 (any case) and a non-zero number are on; anything else off', () => {
    for (const on of [true, 'TRUE', 'yes', ' Y ', '1', 2, [[true]]]) expect(parseFlag(on)).toBe(true);
    for (const off of [false, 'no', '', 0, null, undefined, 'on']) expect(parseFlag(off)).toBe(false);
  });
});
