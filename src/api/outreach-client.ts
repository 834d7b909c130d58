// Typed client of the prospecting and e-mail outreach service (spec/outreach-api.md). Every method checks
// its request before sending (kind 'bad-request', nothing sent), takes rate-budget slots, and returns the
// validated answer or throws ApiError. Costs: unlock 1 point on a first unlock; sends 1 EDM per recipient or
// e-mail; every other call is free.
import * as z from 'zod/mini';
import { ApiError, type ApiErrorInit, invalidResponseInit, missingKeyInit } from './errors';
import { Transport, type Outcome, type RequestSpec } from './http';
import {
  BalanceSchema,
  type Balance,
  type CompanyProfile,
  CompanyProfileSchema,
  type ContactEmail,
  type MailDetail,
  MailDetailSchema,
  type MailList,
  type MailListQuery,
  MailListQuerySchema,
  MailListSchema,
  type ProfileEmailsPage,
  ProfileEmailsPageSchema,
  type ProfileEmailsQuery,
  ProfileEmailsQuerySchema,
  type SearchRequest,
  SearchRequestSchema,
  type SearchResponse,
  SearchResponseSchema,
  type SendBatchRequest,
  SendBatchRequestSchema,
  type SendBatchResponse,
  SendBatchResponseSchema,
  type SendPersonalizedRequest,
  SendPersonalizedRequestSchema,
  type SendPersonalizedResponse,
  SendPersonalizedResponseSchema,
  type TaskDetail,
  TaskDetailSchema,
  type TaskList,
  type TaskListQuery,
  TaskListQuerySchema,
  TaskListSchema,
  type UnlockResult,
  UnlockRequestSchema,
  UnlockResultSchema,
} from './outreach-schemas';
import { readSettings } from '../platform/settings';
import type { RateBudget } from '../platform/rate-budget';

export const OUTREACH_PATHS = {
  balance: '/api/v1/credit/balance',
  search: '/api/v1/companies/search-advanced',
  unlock: '/api/v1/companies/unlock',
  profile: (id: string) => `/api/v1/companies/${encodeURIComponent(id)}/profile`,
  profileEmails: (id: string) => `/api/v1/companies/${encodeURIComponent(id)}/profileEmails`,
  contactSearch: '/api/v1/contacts/search',
  sendBatch: '/api/v1/emails/send/batch',
  sendPersonalized: '/api/v1/emails/send/personalized',
  tasks: '/api/v1/emails/tasks',
  task: (id: number) => `/api/v1/emails/tasks/${id}`,
  mails: '/api/v1/emails/mails',
  mail: (id: number) => `/api/v1/emails/mails/${id}`,
} as const;

/** Page size used to read every contact of a company (the spec's maximum; its default is not shown). */
export const PROFILE_EMAILS_PAGE_SIZE = 100;
/** Safety bound of allProfileEmails: 100 pages of 100 contacts. */
export const PROFILE_EMAILS_MAX_PAGES = 100;

export interface OutreachClientOptions {
  apiKey: string;
  baseUrl: string;
  /** Absolute time (Date.now() scale, virtual in tests) by which every wait must end. */
  deadlineMs?: number;
  /** Shared rate budget (default: the key's budget in the script cache). */
  budget?: RateBudget;
  /** Other secrets to keep out of messages (the phone key). */
  secrets?: readonly string[];
  /** Attribution headers (default true). */
  attribution?: boolean;
  /** Retry tuning (tests). */
  backoffMs?: readonly number[];
  maxRateRetries?: number;
}

export interface ProfileEmailsOptions {
  keyword?: string;
  page?: number;
  pageSize?: number;
}

export type CompanyWithEmails =
  | { companyHashId: string; ok: true; profile: CompanyProfile; emails: ContactEmail[]; total: number }
  | { companyHashId: string; ok: false; error: ApiError };

const NOT_SENT = 'nothing was sent';

export class OutreachClient {
  private readonly transport: Transport;

  constructor(options: OutreachClientOptions) {
    this.transport = new Transport({
      service: 'outreach',
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      secrets: options.secrets,
      budget: options.budget,
      deadlineMs: options.deadlineMs,
      attribution: options.attribution ?? true,
      backoffMs: options.backoffMs,
      maxRateRetries: options.maxRateRetries,
    });
  }

  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  get budget(): RateBudget {
    return this.transport.budget;
  }

  /** Absolute time by which every wait must end; features set it from their execution's start. */
  get deadlineMs(): number | undefined {
    return this.transport.deadlineMs;
  }

  set deadlineMs(value: number | undefined) {
    this.transport.deadlineMs = value;
  }

  /** GET /api/v1/credit/balance (free). */
  balance(): Balance {
    return this.transport.request({ method: 'get', path: OUTREACH_PATHS.balance, schema: BalanceSchema });
  }

  /** POST /api/v1/companies/search-advanced (free; retried like a read). */
  search(request: SearchRequest): SearchResponse {
    const body = this.transport.check(`POST ${OUTREACH_PATHS.search}`, SearchRequestSchema, request);
    return this.transport.request({
      method: 'post',
      path: OUTREACH_PATHS.search,
      body,
      schema: SearchResponseSchema,
    });
  }

  /**
   * POST /api/v1/companies/unlock: 1 point on the first unlock of a domain, free again within 30 days.
   * Never retried after an ambiguous failure: kind 'outcome-unknown' (unlock again: a repeat is free).
   */
  unlock(domain: string, countryCode: string): UnlockResult {
    const body = this.transport.check(`POST ${OUTREACH_PATHS.unlock}`, UnlockRequestSchema, {
      domain,
      countryCode,
    });
    return this.transport.request({
      method: 'post',
      path: OUTREACH_PATHS.unlock,
      body,
      schema: UnlockResultSchema,
      unsafe: 'unlock',
      notFound: 'unlock',
    });
  }

  /** GET /api/v1/companies/:companyHashId/profile (free; 404 until unlocked). */
  profile(companyHashId: string): CompanyProfile {
    return this.transport.request(this.profileSpec(this.checkHashId(companyHashId, 'profile')));
  }

  /** GET /api/v1/companies/:companyHashId/profileEmails, one page (free; 404 until unlocked). */
  profileEmails(companyHashId: string, options: ProfileEmailsOptions = {}): ProfileEmailsPage {
    const id = this.checkHashId(companyHashId, 'profileEmails');
    const query = this.transport.check(
      `GET ${OUTREACH_PATHS.profileEmails(':companyHashId')}`,
      ProfileEmailsQuerySchema,
      withoutUndefined(options as ProfileEmailsQuery),
    );
    return this.transport.request(this.emailsSpec(id, query));
  }

  /** Every contact of a company, page after page of 100. */
  allProfileEmails(companyHashId: string, options: { keyword?: string } = {}): ContactEmail[] {
    const emails: ContactEmail[] = [];
    for (let page = 1; page <= PROFILE_EMAILS_MAX_PAGES; page++) {
      const answer = this.profileEmails(companyHashId, {
        keyword: options.keyword,
        page,
        pageSize: PROFILE_EMAILS_PAGE_SIZE,
      });
      emails.push(...answer.emails);
      if (answer.emails.length === 0 || emails.length >= answer.total) break;
    }
    return emails;
  }

  /**
   * Profile and every contact of many companies, through UrlFetchApp.fetchAll in batches sized to the free
   * rate budget. One result per id, in order; one company's failure (a 404: not unlocked) does not fail the
   * others. A refused key, or no rate-budget slot before the deadline, stops the run: the companies not done
   * carry that error (kind 'auth' / 'rate-limit': continue later).
   */
  profilesWithEmails(companyHashIds: readonly string[]): CompanyWithEmails[] {
    const ids = companyHashIds.map((id) => this.checkHashId(id, 'profile'));
    const stopOn = (error: ApiError) =>
      error.kind === 'auth' ||
      error.kind === 'missing-key' ||
      error.kind === 'quota' ||
      error.kind === 'rate-limit';
    const errors = new Map<number, ApiError>();
    let stopped: ApiError | undefined;

    // Round 1: profile and first page of contacts of every company.
    const firstSpecs: RequestSpec<CompanyProfile | ProfileEmailsPage>[] = [];
    for (const id of ids) {
      firstSpecs.push(
        this.profileSpec(id),
        this.emailsSpec(id, { page: 1, pageSize: PROFILE_EMAILS_PAGE_SIZE }),
      );
    }
    const first = this.transport.requestAll(firstSpecs, stopOn);
    stopped = first.stopped;
    const profiles: Array<CompanyProfile | undefined> = [];
    const emails: ContactEmail[][] = [];
    const totals: number[] = [];
    const more: Array<{ company: number; page: number }> = [];
    ids.forEach((_, c) => {
      const profile = first.outcomes[2 * c] as Outcome<CompanyProfile> | undefined;
      const page = first.outcomes[2 * c + 1] as Outcome<ProfileEmailsPage> | undefined;
      const failed = [profile, page].find((o) => o && !o.ok) as { ok: false; error: ApiError } | undefined;
      if (failed) errors.set(c, failed.error);
      if (!profile?.ok || !page?.ok) return;
      profiles[c] = profile.value;
      emails[c] = page.value.emails.slice();
      totals[c] = page.value.total;
      const pages = Math.min(
        PROFILE_EMAILS_MAX_PAGES,
        Math.ceil(page.value.total / PROFILE_EMAILS_PAGE_SIZE),
      );
      if (page.value.emails.length > 0) for (let p = 2; p <= pages; p++) more.push({ company: c, page: p });
    });

    // Round 2: the remaining pages, all at once.
    if (more.length > 0 && !stopped) {
      const rest = this.transport.requestAll(
        more.map(({ company, page }) =>
          this.emailsSpec(ids[company], { page, pageSize: PROFILE_EMAILS_PAGE_SIZE }),
        ),
        stopOn,
      );
      stopped = rest.stopped;
      more.forEach(({ company }, k) => {
        const outcome = rest.outcomes[k];
        if (outcome?.ok) emails[company].push(...outcome.value.emails);
        else if (outcome && !errors.has(company)) errors.set(company, outcome.error);
        else if (!outcome && !errors.has(company) && stopped) errors.set(company, stopped);
      });
    } else if (more.length > 0 && stopped) {
      for (const { company } of more) if (!errors.has(company)) errors.set(company, stopped);
    }

    return ids.map((companyHashId, c) => {
      const error = errors.get(c) ?? (profiles[c] ? undefined : stopped);
      if (error || !profiles[c]) {
        return {
          companyHashId,
          ok: false as const,
          error: error ?? this.transport.error(missingKeyInit('outreach')),
        };
      }
      return {
        companyHashId,
        ok: true as const,
        profile: profiles[c] as CompanyProfile,
        emails: emails[c],
        total: totals[c],
      };
    });
  }

  /**
   * POST /api/v1/emails/send/batch: 1 EDM per recipient. Never retried after an ambiguous failure (kind
   * 'outcome-unknown': reconcile with the mail list before sending again).
   */
  sendBatch(request: SendBatchRequest): SendBatchResponse {
    const body = this.transport.check(`POST ${OUTREACH_PATHS.sendBatch}`, SendBatchRequestSchema, request);
    if (body.task_subject === '') delete body.task_subject;
    return this.transport.request({
      method: 'post',
      path: OUTREACH_PATHS.sendBatch,
      body,
      schema: SendBatchResponseSchema,
      unsafe: 'send',
    });
  }

  /** POST /api/v1/emails/send/personalized: 1 EDM per e-mail. Same rules as sendBatch. */
  sendPersonalized(request: SendPersonalizedRequest): SendPersonalizedResponse {
    const body = this.transport.check(
      `POST ${OUTREACH_PATHS.sendPersonalized}`,
      SendPersonalizedRequestSchema,
      request,
    );
    if (body.task_subject === '') delete body.task_subject;
    return this.transport.request({
      method: 'post',
      path: OUTREACH_PATHS.sendPersonalized,
      body,
      schema: SendPersonalizedResponseSchema,
      unsafe: 'send',
    });
  }

  /** GET /api/v1/emails/tasks (free). */
  listTasks(query: TaskListQuery = {}): TaskList {
    const checked = this.transport.check(
      `GET ${OUTREACH_PATHS.tasks}`,
      TaskListQuerySchema,
      withoutUndefined(query),
    );
    return this.transport.request({
      method: 'get',
      path: OUTREACH_PATHS.tasks,
      query: checked,
      schema: TaskListSchema,
    });
  }

  /** GET /api/v1/emails/tasks/:taskId (free). */
  getTask(taskId: number): TaskDetail {
    const id = this.checkId(taskId, 'taskId', OUTREACH_PATHS.task(0).replace('/0', '/:taskId'));
    return this.transport.request({
      method: 'get',
      path: OUTREACH_PATHS.task(id),
      schema: TaskDetailSchema,
      notFound: 'task',
    });
  }

  /** GET /api/v1/emails/mails (free). */
  listMails(query: MailListQuery = {}): MailList {
    const checked = this.transport.check(
      `GET ${OUTREACH_PATHS.mails}`,
      MailListQuerySchema,
      withoutUndefined(query),
    );
    return this.transport.request({
      method: 'get',
      path: OUTREACH_PATHS.mails,
      query: checked,
      schema: MailListSchema,
    });
  }

  /** GET /api/v1/emails/mails/:mailId (free). */
  getMail(mailId: number): MailDetail {
    const id = this.checkId(mailId, 'mailId', OUTREACH_PATHS.mail(0).replace('/0', '/:mailId'));
    return this.transport.request({
      method: 'get',
      path: OUTREACH_PATHS.mail(id),
      schema: MailDetailSchema,
      notFound: 'mail',
    });
  }

  /**
   * POST /api/v1/contacts/search: retired, always 410. Kept only to prove the 410 handling: throws ApiError
   * kind 'gone' (never retried) with `code` and `replacement`.
   */
  contactSearchRetired(): never {
    const spec: RequestSpec<unknown> = {
      method: 'post',
      path: OUTREACH_PATHS.contactSearch,
      body: {},
      schema: z.unknown(),
    };
    this.transport.request(spec);
    throw this.transport.error(
      invalidResponseInit('outreach', `POST ${OUTREACH_PATHS.contactSearch}`, 'expected 410 Gone'),
    );
  }

  private profileSpec(id: string): RequestSpec<CompanyProfile> {
    return {
      method: 'get',
      path: OUTREACH_PATHS.profile(id),
      schema: CompanyProfileSchema,
      notFound: 'company',
    };
  }

  private emailsSpec(id: string, query: ProfileEmailsOptions): RequestSpec<ProfileEmailsPage> {
    return {
      method: 'get',
      path: OUTREACH_PATHS.profileEmails(id),
      query: { keyword: query.keyword || undefined, page: query.page, pageSize: query.pageSize },
      schema: ProfileEmailsPageSchema,
      notFound: 'company',
    };
  }

  private checkHashId(companyHashId: unknown, what: 'profile' | 'profileEmails'): string {
    const endpoint = `GET /api/v1/companies/:companyHashId/${what}`;
    const id = typeof companyHashId === 'string' ? companyHashId.trim() : '';
    if (id === '' || id.length > 200) {
      throw this.badRequest(
        endpoint,
        'companyHashId',
        'companyHashId is required: take it from the unlock answer',
      );
    }
    return id;
  }

  private checkId(value: unknown, field: string, endpointPath: string): number {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      throw this.badRequest(`GET ${endpointPath}`, field, `${field} must be a positive whole number`);
    }
    return value;
  }

  private badRequest(endpoint: string, field: string, message: string): ApiError {
    const init: ApiErrorInit = {
      service: 'outreach',
      kind: 'bad-request',
      endpoint,
      field,
      message,
      userMessage: message,
      action: `Correct it and try again: ${NOT_SENT}.`,
      retryable: false,
    };
    return this.transport.error(init);
  }
}

function withoutUndefined<T extends object>(value: T): T {
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value ?? {})) if (item !== undefined) copy[key] = item;
  return copy as T;
}

/** A client from the user's settings; throws ApiError 'missing-key' when no Outreach key is set. */
export function outreachClientFromSettings(
  options: Partial<Omit<OutreachClientOptions, 'apiKey' | 'baseUrl'>> = {},
): OutreachClient {
  const settings = readSettings();
  if (!settings.outreachApiKey) throw new ApiError(missingKeyInit('outreach'));
  return new OutreachClient({
    ...options,
    apiKey: settings.outreachApiKey,
    baseUrl: settings.outreachBaseUrl,
    secrets: [settings.phoneApiKey, ...(options.secrets ?? [])].filter((s) => s !== ''),
  });
}
