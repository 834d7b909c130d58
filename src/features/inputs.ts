// User input from sidebars and custom-function arguments: a keyword list may be comma-separated text, a
// range (2-D array) or an array; numbers and flags may be blank. It reads what the user typed and never a
// cell the add-on wrote (those have their own parser beside their writer).
import { UserError } from './errors';
import { plural } from '../platform';

/** Trimmed, non-empty, de-duplicated items from text ("a, b"), arrays or ranges. */
export function parseList(input: unknown): string[] {
  const items: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && value !== undefined && value !== '') {
      String(value)
        .split(/[,;\n]/)
        .map((part) => part.trim())
        .filter((part) => part !== '')
        .forEach((part) => items.push(part));
    }
  };
  visit(input);
  return [...new Set(items)];
}

/** Codes people write for a country that ISO 3166 spells otherwise. */
export const COUNTRY_ALIASES: Readonly<Record<string, string>> = { UK: 'GB', EL: 'GR' };

/** Country codes from text or ranges: commas, semicolons, spaces and line breaks all separate codes. */
export function parseCountries(
  input: unknown,
  label: string,
  isCountry: (code: string) => boolean,
): string[] {
  const codes = parseList(input).flatMap((item) => item.toUpperCase().split(/\s+/));
  const problem = countryCodesProblem(codes.filter((code) => !isCountry(code)));
  if (problem) throw new UserError(`${label}: ${problem}`, label);
  return [...new Set(codes)];
}

/**
 * What is wrong with codes that are not ISO country codes ('' when none), in the order they were typed:
 * a sentence per misspelling (UK: use GB), the unknown codes together where the first of them stands. The
 * sidebar says the same (search.html countriesError).
 */
export function countryCodesProblem(bad: readonly string[]): string {
  const sentences: string[] = [];
  const unknown: string[] = [];
  let unknownAt = -1;
  for (const code of new Set(bad)) {
    if (COUNTRY_ALIASES[code])
      sentences.push(`"${code}" is not an ISO country code: use ${COUNTRY_ALIASES[code]}.`);
    else {
      if (unknownAt < 0) unknownAt = sentences.push('') - 1;
      unknown.push(code);
    }
  }
  if (unknownAt >= 0) {
    const are = plural(unknown.length, 'is not an ISO country code', 'are not ISO country codes');
    sentences[unknownAt] = `"${unknown.join('", "')}" ${are} (two letters, e.g. DE, US).`;
  }
  return sentences.join(' ');
}

/** An optional whole number within [min, max]; blank gives the fallback. */
export function parseWholeNumber(
  input: unknown,
  label: string,
  min: number,
  max: number,
  fallback: number,
): number {
  const value = Array.isArray(input) ? input.flat(2)[0] : input;
  if (value === '' || value === null || value === undefined) return fallback;
  const number = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new UserError(`${label} must be a whole number from ${min} to ${max}.`, label);
  }
  return number;
}

export function parseFlag(input: unknown): boolean {
  const value = Array.isArray(input) ? input.flat(2)[0] : input;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  return /^(true|yes|1|y)$/i.test(String(value ?? '').trim());
}
