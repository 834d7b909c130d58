// User input from sidebars and custom-function arguments: a keyword list may be comma-separated text, a
// range (2-D array) or an array; numbers and flags may be blank.

export class UserError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'UserError';
  }
}

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

/** What is wrong with codes that are not ISO country codes ('' when none); the sidebar says the same. */
export function countryCodesProblem(bad: readonly string[]): string {
  const sentences = bad
    .filter((code) => COUNTRY_ALIASES[code])
    .map((code) => `"${code}" is not an ISO country code: use ${COUNTRY_ALIASES[code]}.`);
  const unknown = bad.filter((code) => !COUNTRY_ALIASES[code]);
  if (unknown.length > 0) {
    const are = unknown.length === 1 ? 'is not an ISO country code' : 'are not ISO country codes';
    sentences.push(`"${[...new Set(unknown)].join('", "')}" ${are} (two letters, e.g. DE, US).`);
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
