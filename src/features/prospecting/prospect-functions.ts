// Custom functions of the prospecting service: free look-ups only (never unlock or send), answered from a
// short cache so recalculation does not hammer the service. Each returns one 2-D array with a header row.
// Values are returned as plain values: a custom function's result is never parsed as a formula.
import { ApiError, type CompanyProfile as Profile, type SearchRow, usableEdm } from '../../api';
import { outreachClient } from '../clients';
import {
  cacheKey,
  cached,
  Deadline,
  carriesMark,
  existingMark,
  readSettings,
  count,
  formatCount,
} from '../../platform';
import { wholeNumberOf } from '../../sheets';
import { tradeSummary } from './contacts';
import { roleOf } from './roles';
import { parseWholeNumber } from '../inputs';
import { companyName, MAX_PAGE_SIZE, searchPlan, withoutDomain } from './search';
import { PAGES_PER_CALL, type PageRun, readPages } from './search-pages';
import { campaignOf, capitalized, TASK_STATUS_TEXTS } from '../tracking';
import { describe, UserError } from '../errors';
import { whenText } from '../words';

type Cell = string | number | boolean | Date;

/** How long answers stay cached, in seconds (documented in docs/user-guide.md, Custom functions). */
const CACHE_SECONDS = { balance: 60, search: 600, profile: 3600, contacts: 3600 };

const SEARCH_HEADER = [
  'Search ID',
  'Company',
  'Country',
  'Company type',
  'Industry',
  'Main products',
  'Founded',
  'Employees',
  'E-mails',
  'WhatsApp',
  'Description',
];

export function prospectBalance(): Cell[][] {
  return run('balance', [], CACHE_SECONDS.balance, (client) => {
    const b = client.balance();
    return [
      [
        'Monthly points',
        'Add-on points',
        'Usable points',
        'Monthly EDM',
        'Add-on EDM',
        'Usable EDM',
        'Monthly expiry',
      ],
      [
        b.monthlyPoints,
        b.addonPoints,
        b.monthlyPoints + b.addonPoints,
        b.monthlyEdm,
        b.addonEdm,
        usableEdm(b),
        shownAt(b.monthlyExpiresAt),
      ],
    ];
  });
}

export function prospectSearch(
  products: unknown,
  industries: unknown,
  companyTypes: unknown,
  includeCountries: unknown,
  excludeCountries: unknown,
  withEmails: unknown,
  size: unknown,
  from: unknown,
  employees?: unknown,
  founded?: unknown,
  minEmails?: unknown,
  withWhatsApp?: unknown,
  limit?: unknown,
): Cell[][] {
  const form = { products, industries, companyTypes, includeCountries, excludeCountries, withEmails, size };
  const filters = { employees, founded, minEmails, withWhatsApp, limit };
  const plan = searchPlan({ ...form, from, ...filters });
  const { request, paged } = plan;
  return run('search', [request, plan.filters, plan.limit], CACHE_SECONDS.search, (client) => {
    if (!paged) {
      const response = client.search(request);
      if (response.list.length === 0) return [SEARCH_HEADER, noteRow('No company matches.')];
      return [SEARCH_HEADER, ...response.list.map(searchRowCells)];
    }
    // The sidebar's filters: pages of 50 from `from` until `limit` companies pass, as many pages as one
    // sidebar call reads (a custom function has 30 seconds).
    const pages = readPages(
      client,
      { ...request, size: MAX_PAGE_SIZE },
      {
        limit: plan.limit,
        maxPages: PAGES_PER_CALL,
        filters: plan.filters,
        present: new Set(),
      },
    );
    if (pages.total === 0) return [SEARCH_HEADER, noteRow('No company matches.')];
    const rows = [SEARCH_HEADER, ...pages.kept.map(searchRowCells)];
    if (pages.kept.length < plan.limit) rows.push(noteRow(pagesNote(pages, plan.limit)));
    return rows;
  });
}

/** Why fewer companies than the limit came back, and where the next formula starts. */
function pagesNote(pages: PageRun, limit: number): string {
  const found = `Found ${formatCount(pages.kept.length)} of ${count(limit, 'company', 'companies')} in results ${formatCount(pages.loaded - pages.read + 1)} to ${formatCount(pages.loaded)} of ${formatCount(pages.total)}`;
  if (pages.ended || pages.loaded >= pages.total) return `${found}: no more results.`;
  return `${found}: give from ${pages.loaded} to read on.`;
}

function noteRow(text: string): Cell[] {
  return [text, ...SEARCH_HEADER.slice(1).map(() => '')];
}

export function prospectProfile(companyHashId: unknown): Cell[][] {
  const id = requireHashId(companyHashId);
  return run('profile', [id], CACHE_SECONDS.profile, (client) => {
    const p: Profile = client.profile(id);
    return [
      [
        'Company hash ID',
        'Company',
        'Country',
        'Industry',
        'Employees',
        'Website',
        'Description',
        'Trade data',
      ],
      [
        p.companyHashId,
        p.name ?? '',
        p.country ?? '',
        p.industry ?? '',
        p.employeeCount ?? '',
        p.website ?? '',
        p.description ?? '',
        tradeSummary(p.tradeData ?? []),
      ],
    ];
  });
}

export function prospectContacts(
  companyHashId: unknown,
  keyword: unknown,
  page: unknown,
  pageSize: unknown,
): Cell[][] {
  const id = requireHashId(companyHashId);
  const query = {
    keyword: keyword === undefined || keyword === null ? '' : String(keyword).trim(),
    page: parseWholeNumber(page, 'page', 1, 100000, 1),
    pageSize: parseWholeNumber(pageSize, 'pageSize', 1, 100, 20),
  };
  // 'contacts2': answers cached before Department and Seniority were added are not served.
  return run('contacts2', [id, query], CACHE_SECONDS.contacts, (client) => {
    const result = client.profileEmails(id, {
      ...(query.keyword ? { keyword: query.keyword } : {}),
      page: query.page,
      pageSize: query.pageSize,
    });
    const header = ['Name', 'Title', 'E-mail', 'LinkedIn', 'Department', 'Seniority'];
    if (result.emails.length === 0)
      return [
        header,
        [query.page > 1 ? 'No more contacts.' : 'No contact e-mails for this company.', '', '', '', '', ''],
      ];
    return [
      header,
      ...result.emails.map((c) => {
        const role = roleOf(c.title);
        return [
          c.name ?? '',
          c.title ?? '',
          c.email ?? '',
          c.linkedin ?? '',
          role.department,
          role.seniority,
        ];
      }),
    ];
  });
}

/**
 * PROSPECT_ROLE(title): the Department and Seniority of a title, or of each cell of a range (two columns per
 * cell, same rows; blank for a blank cell). Free and local: no request, no cache.
 */
export function prospectRole(title: unknown): Cell[][] {
  const rows = Array.isArray(title) ? (title as unknown[]) : [[title]];
  return rows.map((row) =>
    (Array.isArray(row) ? row : [row]).flatMap((cell): Cell[] => {
      if (cell === '' || cell === null || cell === undefined) return ['', ''];
      const role = roleOf(cell);
      return [role.department, role.seniority];
    }),
  );
}

function searchRowCells(row: SearchRow): Cell[] {
  const list = (value: unknown) => (Array.isArray(value) ? value.join(', ') : String(value ?? ''));
  return [
    row.id,
    companyName(row),
    row.country_code ?? '',
    list(row.company_type),
    list(row.industry),
    list(row.main_products),
    wholeNumberOf(row.founding_time) ?? row.founding_time ?? '',
    row.employees_count ?? '',
    row.email_count ?? '',
    row.whatsapp_count ?? '',
    withoutDomain(row.company_profile ?? '', row.domain),
  ];
}

function requireHashId(input: unknown): string {
  const value = Array.isArray(input) ? input.flat(2)[0] : input;
  const id = String(value ?? '').trim();
  if (!id)
    throw new UserError('Give a companyHashId from the Companies or Profiles sheet (it comes from Unlock).');
  if (/\s/.test(id) || id.length > 200)
    throw new UserError(`"${id.slice(0, 40)}" is not a companyHashId: use one from Unlock.`);
  return id;
}

/** Common frame: key check, cache, and errors as the #ERROR! text the user reads. */
/**
 * A service time as the rest of the add-on shows it ("2026-12-21 19:56", the spreadsheet's zone): a formula
 * cannot give its cell a number format, and a Date would show in the locale's long form.
 */
function shownAt(time: string | number | null | undefined): string {
  return time ? whenText(new Date(time).getTime()) : '';
}

function run(
  name: string,
  args: unknown[],
  ttl: number,
  compute: (client: ReturnType<typeof outreachClient>) => Cell[][],
): Cell[][] {
  const settings = readSettings();
  if (!settings.outreachApiKey)
    throw new Error(
      "No outreach API key for formulas: they use the spreadsheet owner's key. The owner adds it in Extensions › Outreach › Settings; editors can search from the sidebar with their own key.",
    );
  try {
    return cached(cacheKey(name, settings.outreachBaseUrl, settings.outreachApiKey, args), ttl, () =>
      compute(outreachClient({ deadlineMs: Deadline.forCustomFunction().at }, settings)),
    );
  } catch (error) {
    if (error instanceof ApiError) throw new Error(describe(error), { cause: error });
    throw error;
  }
}

// ── PROSPECT_TASK (tracking) ─────────────────────────────────────────────────────────────────────────

/** Task counts move while its mails are sent: a short cache. */
const TASK_CACHE_SECONDS = 60;

const TASK_HEADER = [
  'Task ID',
  'Campaign',
  'Status',
  'Total',
  'Sent',
  'Failed',
  'Opened',
  'Created',
  'Completed',
];

/** PROSPECT_TASK(taskId): a header row and the task's status and counts, for a task this spreadsheet sent. */
export function prospectTask(taskId: unknown): Cell[][] {
  const id = requireTaskId(taskId);
  return run('task', [id], TASK_CACHE_SECONDS, (client) => {
    // The list answer has no mails; a task of another document (an id typed in by any editor) is refused
    // before anything of it reaches a cell that every editor and viewer reads.
    const task = client.listTasks({ task_ids: [id], page_size: 1 }).data.find((t) => t.taskId === id);
    // One answer for a task that does not exist and for another document's: a formula cannot tell which
    // task ids exist.
    if (!task || !carriesMark(task.taskSubject, existingMark())) {
      throw new UserError(
        `Task ${id} is not one of the tasks this spreadsheet sent (formulas use the key of the spreadsheet's owner): use a Task ID from the Tracking sheet or the Task ID column.`,
      );
    }
    return [
      TASK_HEADER,
      [
        task.taskId,
        campaignOf(task),
        TASK_STATUS_TEXTS[task.status] || capitalized(task.status),
        task.totalCount,
        task.sentCount,
        task.failedCount,
        task.openedCount,
        shownAt(task.createdAt),
        shownAt(task.completedAt),
      ],
    ];
  });
}

function requireTaskId(input: unknown): number {
  const value = Array.isArray(input) ? input.flat(2)[0] : input;
  const text = String(value ?? '').trim();
  if (!text) throw new UserError('Give a Task ID (from the Tracking sheet or the Task ID column).');
  const id = Number(text);
  if (!Number.isSafeInteger(id) || id < 1)
    throw new UserError(`"${text.slice(0, 40)}" is not a Task ID: a Task ID is a whole number.`);
  return id;
}
