// The search filters the service leaves to the client (docs/services.md, Outreach: search): employees,
// founding year, e-mails, WhatsApp. They are read from the form before any request (a filter that cannot be
// read is refused with the field and an example) and applied to each search row; nothing of them is ever sent.
import { type SearchRow } from '../../api';
import { parseFlag, parseWholeNumber } from '../inputs';
import { UserError } from '../errors';

/** Inclusive bounds; max is Infinity for "50+". */
interface Bounds {
  min: number;
  max: number;
}

export interface SearchFilters {
  employees?: Bounds;
  founded?: Bounds;
  minEmails?: number;
  withWhatsApp?: boolean;
}

export type FilterName = keyof SearchFilters;
const FILTER_NAMES: FilterName[] = ['employees', 'founded', 'minEmails', 'withWhatsApp'];

const EMPLOYEES_EXAMPLE = '11-200, 50+, <10 or 1000 or more';
const FOUNDED_EXAMPLE = '2005, 1990-2010, before 2000 or after 2010';

const NUMBER = String.raw`(\d{1,3}(?:[,.' ]\d{3})+|\d+)\s*(k)?`;
const AT_MOST = /^(?:<=|≤|up to|at most|max(?:imum)?)$/;
const BELOW = /^(?:<|under|less than|fewer than|below|before)$/;
const AT_LEAST = /^(?:>=|≥|at least|min(?:imum)?|from|since)$/;
const ABOVE = /^(?:>|over|more than|above|after)$/;

function number(text: string, thousands: string | undefined): number {
  return Number(text.replace(/[,.' ]/g, '')) * (thousands ? 1000 : 1);
}

/**
 * Bounds from text as people type them: "11-200", "11 to 200", "50+", "<10", "up to 10", "1000 or more",
 * "10 or fewer", "before 2000", "500". Undefined when the text is not one of these.
 */
export function parseBounds(input: string): Bounds | undefined {
  const text = input
    .trim()
    .toLowerCase()
    .replace(/[–—]/g, '-')
    .replace(/\s*employees?$/, '')
    .replace(/\s+/g, ' ');
  if (!text) return undefined;
  const one = new RegExp(`^${NUMBER}$`).exec(text);
  if (one) return { min: number(one[1], one[2]), max: number(one[1], one[2]) };
  const range = new RegExp(`^${NUMBER}\\s*(?:-|to|and)\\s*${NUMBER}$`).exec(text);
  if (range) {
    const [a, b] = [number(range[1], range[2]), number(range[3], range[4])];
    return a <= b ? { min: a, max: b } : undefined;
  }
  const plus = new RegExp(`^${NUMBER}\\s*(\\+|or more|and more|and up|or later|and later|or above)$`).exec(
    text,
  );
  if (plus) return { min: number(plus[1], plus[2]), max: Infinity };
  const less = new RegExp(`^${NUMBER}\\s*(or fewer|or less|or earlier|or below)$`).exec(text);
  if (less) return { min: 0, max: number(less[1], less[2]) };
  const prefixed = new RegExp(`^([<>]=?|[≤≥]|[a-z]+(?: [a-z]+)?)\\s*${NUMBER}$`).exec(text);
  if (!prefixed) return undefined;
  const value = number(prefixed[2], prefixed[3]);
  const word = prefixed[1];
  if (AT_MOST.test(word)) return { min: 0, max: value };
  if (BELOW.test(word)) return value > 0 ? { min: 0, max: value - 1 } : undefined;
  if (AT_LEAST.test(word)) return { min: value, max: Infinity };
  if (ABOVE.test(word)) return { min: value + 1, max: Infinity };
  return undefined;
}

function text(input: unknown): string {
  const value = Array.isArray(input) ? input.flat(2)[0] : input;
  return value === null || value === undefined ? '' : String(value).trim();
}

/** The filters of a form; a filter that cannot be read throws a UserError naming the field. */
export function parseFilters(form: Record<string, unknown>): SearchFilters {
  const filters: SearchFilters = {};
  const employees = text(form.employees);
  if (employees) {
    const bounds = parseBounds(employees);
    if (!bounds)
      throw new UserError(
        `Employees: "${employees.slice(0, 40)}" is not a range of employees. Write it like ${EMPLOYEES_EXAMPLE}.`,
        'employees',
      );
    filters.employees = bounds;
  }
  const founded = text(form.founded);
  if (founded) {
    const bounds = parseBounds(founded);
    const year = (n: number) => n === 0 || n === Infinity || (n >= 1000 && n <= 2100);
    if (!bounds || !year(bounds.min) || !year(bounds.max))
      throw new UserError(
        `Founded: "${founded.slice(0, 40)}" is not a year or a range of years. Write it like ${FOUNDED_EXAMPLE}.`,
        'founded',
      );
    filters.founded = bounds;
  }
  const minEmails = parseWholeNumber(form.minEmails, 'Minimum e-mails', 0, 100_000, 0);
  if (minEmails > 0) filters.minEmails = minEmails;
  if (parseFlag(form.withWhatsApp)) filters.withWhatsApp = true;
  return filters;
}

export function hasFilters(filters: SearchFilters): boolean {
  return FILTER_NAMES.some((name) => filters[name] !== undefined);
}

const overlaps = (a: Bounds, b: Bounds) => a.min <= b.max && b.min <= a.max;

/** The company's founding year: the first four-digit year in founding_time ("2005", "2005-03-01"). */
export function foundingYear(value: unknown): number | undefined {
  const match = /(?:^|\D)(1[0-9]\d\d|20\d\d)(?:\D|$)/.exec(String(value ?? ''));
  return match ? Number(match[1]) : undefined;
}

/** The filters a row fails (none: it matches). A value that cannot be read fails its filter. */
export function failedFilters(row: SearchRow, filters: SearchFilters): FilterName[] {
  const failed: FilterName[] = [];
  if (filters.employees) {
    const range = parseBounds(String(row.employees_count ?? ''));
    if (!range || !overlaps(range, filters.employees)) failed.push('employees');
  }
  if (filters.founded) {
    const year = foundingYear(row.founding_time);
    if (year === undefined || year < filters.founded.min || year > filters.founded.max)
      failed.push('founded');
  }
  if (filters.minEmails !== undefined && !((row.email_count ?? 0) >= filters.minEmails))
    failed.push('minEmails');
  if (filters.withWhatsApp && !((row.whatsapp_count ?? 0) >= 1)) failed.push('withWhatsApp');
  return failed;
}

/** "employees 41, founded 30" for the counts that are not zero. */
export function leftOutText(counts: Partial<Record<FilterName, number>>): string {
  const label: Record<FilterName, string> = {
    employees: 'employees',
    founded: 'founded',
    minEmails: 'e-mails',
    withWhatsApp: 'WhatsApp',
  };
  return FILTER_NAMES.filter((name) => counts[name])
    .map((name) => `${label[name]} ${counts[name]}`)
    .join(', ');
}
