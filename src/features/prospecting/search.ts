// Company search: sidebar form → service → Companies sheet. Rows are appended, never duplicated (by search
// row id); the domain each row carries goes to the company index only, never to the sheet.
import { outreachClient } from '../clients';
import { ISO_COUNTRY_CODES, type SearchRequest, type SearchRow } from '../../api';
import { CompanyIndex, nameMark } from './company-index';
import { type FilterName, hasFilters, leftOutText, parseFilters, type SearchFilters } from './filters';
import { PAGES_PER_CALL, type PageRun, readPages } from './search-pages';
import { Deadline, readDocumentPreference, saveDocumentPreference, count, formatCount } from '../../platform';
import {
  listCell,
  numberCell,
  textCell,
  CellValue,
  cellText,
  wholeNumberCell,
  COMPANIES,
  Table,
} from '../../sheets';
import { COUNTRY_ALIASES, parseCountries, parseFlag, parseList, parseWholeNumber } from '../inputs';
import { ensureKey } from '../settings';
import { scriptJson, showSidebarFile } from '../../ui';
import { UserError } from '../errors';

export const MAX_PAGE_SIZE = 50;
/** Matching companies one search may add. */
const MAX_LIMIT = 1000;

interface SearchForm {
  products?: unknown;
  industries?: unknown;
  companyTypes?: unknown;
  includeCountries?: unknown;
  excludeCountries?: unknown;
  withEmails?: unknown;
  operator?: unknown;
  size?: unknown;
  from?: unknown;
  /** Client-side filters (filters.ts) and how many matching companies to add (up to MAX_LIMIT). */
  employees?: unknown;
  founded?: unknown;
  minEmails?: unknown;
  withWhatsApp?: unknown;
  limit?: unknown;
}

interface SearchSummary {
  added: number;
  alreadyPresent: number;
  /** How many results of this search have been fetched so far (the next page starts here). */
  loaded: number;
  total: number;
  hasMore: boolean;
  message: string;
  /** With filters or a limit only: rows the filters left out (per filter: each it failed), rows read, pages. */
  leftOut?: number;
  leftOutBy?: Partial<Record<FilterName, number>>;
  read?: number;
  pages?: number;
  /** How many more the limit asks for; done: the limit is reached or the results ended. */
  remaining?: number;
  done?: boolean;
  /** Why a run stopped early: its page cap (the sidebar calls again) or the rate budget. */
  paused?: 'pages' | 'rate';
}

/** Menu: the search sidebar (or Settings, when no key is saved yet). */
export function openSearchSidebar(): void {
  // The sidebar checks country codes against the same list before it sends the form.
  const countries = { codes: [...ISO_COUNTRY_CODES].sort(), aliases: COUNTRY_ALIASES };
  if (ensureKey('outreach'))
    showSidebarFile('search', 'Search companies', {
      countries: scriptJson(countries),
      last: scriptJson(lastSearch()),
    });
}

/** Checks the form and builds the request; nothing is sent for a form that breaks a rule. */
function buildSearchRequest(form: SearchForm): SearchRequest {
  const productKeywords = parseList(form.products);
  const industryKeywords = parseList(form.industries);
  const companyTypeKeywords = parseList(form.companyTypes);
  if (productKeywords.length + industryKeywords.length + companyTypeKeywords.length === 0) {
    throw new UserError(
      'Enter at least one product, industry or company-type keyword (countries only filter).',
      'products',
    );
  }
  const isCountryCode = (code: string) => ISO_COUNTRY_CODES.has(code);
  const includeCountry = parseCountries(form.includeCountries, 'Include countries', isCountryCode);
  const excludeCountry = parseCountries(form.excludeCountries, 'Exclude countries', isCountryCode);
  const both = includeCountry.filter((code) => excludeCountry.includes(code));
  if (both.length > 0)
    throw new UserError(`${both.join(', ')} is both included and excluded.`, 'Exclude countries');
  const operator = String(form.operator ?? 'AND').toUpperCase() || 'AND';
  if (operator !== 'AND' && operator !== 'OR') throw new UserError('Match must be AND or OR.', 'operator');
  const request: SearchRequest = {
    size: parseWholeNumber(form.size, 'Page size', 1, MAX_PAGE_SIZE, 10),
    from: parseWholeNumber(form.from, 'From', 0, 1_000_000, 0),
    crossFieldOperator: operator,
  };
  if (productKeywords.length) request.productKeywords = productKeywords;
  if (industryKeywords.length) request.industryKeywords = industryKeywords;
  if (companyTypeKeywords.length) request.companyTypeKeywords = companyTypeKeywords;
  if (includeCountry.length) request.includeCountry = includeCountry;
  if (excludeCountry.length) request.excludeCountry = excludeCountry;
  if (parseFlag(form.withEmails)) request.withEmails = 1;
  return request;
}

/**
 * Results appended to the Companies sheet. Without filters or a limit: one page of `size`. With them: pages
 * of 50 from `from` until `limit` rows pass the filters (see search-pages.ts).
 */
export function searchCompanies(form: SearchForm): SearchSummary {
  const { request, filters, paged, limit } = searchPlan(form);
  const table = Table.open(SpreadsheetApp.getActiveSpreadsheet(), COMPANIES);
  // Paged: no wait for a rate-budget slot past the execution's deadline (the run pauses, the sidebar goes on).
  const client = outreachClient(paged ? { deadlineMs: Deadline.forExecution().at } : {});
  const run = readPages(client, paged ? { ...request, size: MAX_PAGE_SIZE } : request, {
    limit: paged ? limit : Infinity,
    maxPages: paged ? PAGES_PER_CALL : 1,
    filters,
    present: existingIds(table),
  });
  const index = CompanyIndex.load();
  for (const row of run.kept)
    index.put(row.id, {
      domain: row.domain,
      countryCode: row.country_code,
      nameMark: nameMark(companyName(row)),
    });
  index.save();
  const first = table.append(run.kept.map(companyRecord));
  const added = run.kept.length;
  // The rows just added are shown and selected (ready for Unlock selected companies).
  if (added) table.sheet.getRange(first, 1, added, 3).activate();
  else table.sheet.activate();
  const loaded = Math.min(run.loaded, run.total);
  const hasMore = !run.ended && loaded < run.total;
  rememberSearch(form, loaded, run.total, hasMore);
  const summary: SearchSummary = {
    added,
    alreadyPresent: run.alreadyPresent,
    loaded,
    total: run.total,
    hasMore,
    message: paged ? pagedMessage(run, limit) : pageMessage(run),
  };
  if (!paged) return summary;
  return {
    ...summary,
    leftOut: run.leftOut,
    leftOutBy: run.leftOutBy,
    read: run.read,
    pages: run.pages,
    remaining: limit - added,
    done: added >= limit || !hasMore,
    ...(run.paused ? { paused: run.paused } : {}),
  };
}

interface SearchPlan {
  request: SearchRequest;
  filters: SearchFilters;
  /** Filters or a limit: pages of 50 until `limit` rows pass (search-pages.ts); else one page of `size`. */
  paged: boolean;
  limit: number;
}

/** The request, the filters and how many to add: the sidebar's form and PROSPECT_SEARCH read it alike. */
export function searchPlan(form: SearchForm): SearchPlan {
  const request = buildSearchRequest(form);
  const filters = parseFilters(form as Record<string, unknown>);
  // At least one e-mail is the service's own filter (withEmails): fewer pages to read for the same rows.
  if (filters.minEmails) request.withEmails = 1;
  const paged = hasFilters(filters) || !isBlank(form.limit);
  const limit = paged
    ? parseWholeNumber(form.limit, 'How many companies', 1, MAX_LIMIT, request.size ?? 10)
    : 0;
  return { request, filters, paged, limit };
}

/** The sidebar's last search in this document, so that Load more goes on after the sidebar was closed. */
interface LastSearch {
  form: Record<string, string | boolean>;
  loaded: number;
  total: number;
  hasMore: boolean;
}

const LAST_SEARCH = 'lastSearch';
const FORM_FIELDS = [
  'products',
  'industries',
  'companyTypes',
  'includeCountries',
  'excludeCountries',
  'withEmails',
  'operator',
  'size',
  'employees',
  'founded',
  'minEmails',
  'withWhatsApp',
  'limit',
] as const;

function rememberSearch(form: SearchForm, loaded: number, total: number, hasMore: boolean): void {
  const kept: LastSearch['form'] = {};
  for (const field of FORM_FIELDS) {
    const value = form[field];
    if (typeof value === 'boolean') kept[field] = value;
    else if (value !== undefined && value !== null) kept[field] = String(value).slice(0, 300);
  }
  saveDocumentPreference(LAST_SEARCH, { form: kept, loaded, total, hasMore });
}

function lastSearch(): LastSearch | null {
  return readDocumentPreference<LastSearch>(LAST_SEARCH) ?? null;
}

const isBlank = (value: unknown) => value === undefined || value === null || String(value).trim() === '';

function pageMessage(run: PageRun): string {
  const added = run.kept.length;
  if (run.total === 0) return 'No company matches these keywords.';
  return (
    `Added ${count(added, 'company', 'companies')}` +
    (run.alreadyPresent ? ` (${formatCount(run.alreadyPresent)} already on the sheet).` : '.')
  );
}

function pagedMessage(run: PageRun, limit: number): string {
  if (run.total === 0) return 'No company matches these keywords.';
  // The results read add up: added + already on the sheet + left out by the filters.
  const added = run.kept.length;
  const parts = [`${formatCount(added)} added`];
  if (run.alreadyPresent) parts.push(`${formatCount(run.alreadyPresent)} already on the sheet`);
  if (run.leftOut)
    parts.push(`${formatCount(run.leftOut)} left out by the filters (${leftOutText(run.leftOutBy)})`);
  const total = count(run.total, 'result');
  const upTo = Math.min(run.loaded, run.total);
  const readNow = added + run.alreadyPresent + run.leftOut; // this call's: a Load more starts further on
  const read =
    readNow === upTo
      ? `Read ${formatCount(upTo)} of ${total}`
      : `Read ${formatCount(readNow)} more results (to ${formatCount(upTo)} of ${total})`;
  const asked =
    added >= limit
      ? `all ${count(limit, 'company', 'companies')} asked for`
      : `${formatCount(added)} of the ${count(limit, 'company', 'companies')} asked for`;
  let message = `${read}: ${parts.join(', ')}; ${asked}.`;
  if (run.paused === 'rate')
    message += ' Paused for the rate limit (60 requests a minute): Load more goes on from here.';
  else if (run.ended && run.kept.length < limit)
    message += run.leftOut
      ? ' No more results: widen a filter or change the keywords to find more.'
      : ' No more results: change the keywords or countries to find more.';
  return message;
}

/** A search row as a Companies record: every field but the domain. */
function companyRecord(row: SearchRow): Record<string, CellValue> {
  return {
    id: textCell(row.id),
    name: textCell(companyName(row)),
    country: textCell(row.country_code),
    companyType: listCell(row.company_type),
    industry: listCell(row.industry),
    products: listCell(row.main_products),
    founded: wholeNumberCell(row.founding_time),
    employees: textCell(row.employees_count),
    emailCount: numberCell(row.email_count),
    whatsappCount: numberCell(row.whatsapp_count),
    description: textCell(withoutDomain(row.company_profile ?? '', row.domain)),
  };
}

export const NAME_HIDDEN = '(name shown after unlock)';
/** After unlock, for a company whose only name is its website (shown on Profiles, never on Companies). */
const NAME_IS_WEBSITE = '(its name is its website: see Profiles)';

/** The row's name, unless it is the domain itself (the service allows that): then a neutral label. */
export function companyName(row: SearchRow): string {
  return nameWithoutDomain(row.company_name, row.domain, NAME_HIDDEN);
}

/** The name unlock revealed, to replace NAME_HIDDEN on the Companies row. */
export function unlockedName(name: string | null | undefined, domain: string): string {
  return nameWithoutDomain(name ?? '', domain, NAME_IS_WEBSITE);
}

function nameWithoutDomain(raw: string, domain: string, label: string): string {
  const name = raw.trim();
  const bare = (text: string) =>
    text
      .toLowerCase()
      .replace(/^https?:\/\//, '')
      .replace(/^www\./, '')
      .replace(/\/$/, '');
  if (name === '' || (domain && bare(name) === bare(domain))) return label;
  return withoutDomain(name, domain);
}

/** Text with every mention of the domain (bare, www. or as a URL) removed: search results never show it. */
export function withoutDomain(text: string, domain: string): string {
  if (!domain) return text;
  const escaped = domain.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`(https?://)?(www\\.)?${escaped}(/[^\\s]*)?`, 'gi'), '[website hidden]');
}

function existingIds(table: Table): Set<string> {
  const column = table.column('id');
  const last = table.sheet.getLastRow();
  if (!column || last < 2) return new Set();
  const values = table.sheet.getRange(2, column, last - 1, 1).getValues();
  return new Set(values.map((row) => cellText(row[0])).filter((id) => id !== ''));
}
