// Typed client of the prospecting and e-mail outreach service (spec/outreach-api.md). Every method checks
// its request before sending (kind 'bad-request', nothing sent), takes rate-budget slots, and returns the
// validated answer or throws ApiError. Costs: unlock 1 point on a first unlock; sends 1 EDM per recipient or
// e-mail; every other call is free.
import * as z from 'zod/mini';
import { ApiError, badRequestInit, invalidResponseInit, missingKeyInit } from './errors';
import { Transport, type QueryValue, type RequestSpec, type TransportOptions } from './http';
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
/** Safety bound of allProfileEmails and profilesWithEmails: 100 pages of 100 contacts. */
export const PROFILE_EMAILS_MAX_PAGES = 100;
/** profilesWithEmails asks for at most this many further pages of one company in one fetchAll. */
export const PAGES_PER_WAVE = 4;

export type OutreachClientOptions = Omit<TransportOptions, 'service'>;

export interface ProfileEmailsOptions {
  keyword?: string;
  page?: number;
  pageSize?: number;
}

export type CompanyWithEmails =
  | { companyHashId: string; ok: true; profile: CompanyProfile; emails: ContactEmail[]; total: number }
  | { companyHashId: string; ok: false; error: ApiError };

/** Errors of profilesWithEmails that stop the run: they say nothing about the company itself. */
const STOP_KINDS = new Set(['auth', 'missing-key', 'quota', 'rate-limit', 'address']);

export class OutreachClient {
  private readonly transport: Transport;

  /** Attribution headers are sent unless `attribution` is false. */
  constructor(options: OutreachClientOptions) {
    this.transport = new Transport({
      ...options,
      service: 'outreach',
      attribution: options.attribution ?? true,
    });
  }

  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  get budget(): RateBudget {
    return this.transport.budget;
  }

  /** GET /api/v1/credit/balance (free). */
  balance(): Balance {
    return this.transport.request({
      method: 'get',
      path: OUTREACH_PATHS.balance,
      schema: BalanceSchema,
      probe: true,
    });
  }

  /** POST /api/v1/companies/search-advanced (free; retried like a read). */
  search(request: SearchRequest): SearchResponse {
    return this.post(OUTREACH_PATHS.search, SearchRequestSchema, request, SearchResponseSchema);
  }

  /**
   * POST /api/v1/companies/unlock: 1 point on the first unlock of a domain, free again within 30 days.
   * Never retried after an ambiguous failure: kind 'outcome-unknown' (unlock again: a repeat is free).
   */
  unlock(domain: string, countryCode: string): UnlockResult {
    return this.post(
      OUTREACH_PATHS.unlock,
      UnlockRequestSchema,
      { domain, countryCode },
      UnlockResultSchema,
      {
        unsafe: 'unlock',
        notFound: 'unlock',
      },
    );
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
      withoutUndefined(options),
    );
    return this.transport.request(this.emailsSpec(id, query));
  }

  /**
   * Every contact of a company, page after page of 100, until an empty page or `total` contacts (at most
   * 100 pages: an inflated total never makes it read past the end).
   */
  allProfileEmails(companyHashId: string, options: { keyword?: string } = {}): ContactEmail[] {
    const emails: ContactEmail[] = [];
    for (let page = 1; page <= PROFILE_EMAILS_MAX_PAGES; page++) {
      const answer = this.profileEmails(companyHashId, {
        ...options,
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
   * rate budget: first every profile and first page; then, for the companies that have more, the pages their
   * `total` announces, at most PAGES_PER_WAVE at a time, until an empty page or `total` contacts (so an
   * inflated total costs a few requests, never a hundred pages). One result per id, in order; one company's
   * failure (a 404: not unlocked) does not fail the others. A refused key, a used-up quota, or no rate-budget
   * slot before the deadline stops the run: the companies not done carry that error (continue later).
   */
  profilesWithEmails(companyHashIds: readonly string[]): CompanyWithEmails[] {
    const stopOn = (error: ApiError) => STOP_KINDS.has(error.kind);
    const companies: Array<{
      companyHashId: string;
      profile?: CompanyProfile;
      emails: ContactEmail[];
      total: number;
      /** Next page to read; undefined when done. */
      next?: number;
      error?: ApiError;
    }> = companyHashIds.map((id) => ({
      companyHashId: this.checkHashId(id, 'profile'),
      emails: [],
      total: 0,
      next: 1,
    }));
    let stopped: ApiError | undefined;
    for (let wave = companies; wave.length > 0 && !stopped; wave = companies.filter((c) => c.next)) {
      const specs: RequestSpec<CompanyProfile | ProfileEmailsPage>[] = [];
      const owners: Array<[(typeof companies)[number], number]> = []; // page 0: the profile
      for (const company of wave) {
        const first = company.next as number;
        const last =
          first === 1
            ? 1
            : Math.min(
                first + PAGES_PER_WAVE - 1,
                Math.ceil(company.total / PROFILE_EMAILS_PAGE_SIZE),
                PROFILE_EMAILS_MAX_PAGES,
              );
        for (let page = first === 1 ? 0 : first; page <= last; page++) {
          owners.push([company, page]);
          specs.push(
            page === 0
              ? this.profileSpec(company.companyHashId)
              : this.emailsSpec(company.companyHashId, { page, pageSize: PROFILE_EMAILS_PAGE_SIZE }),
          );
        }
        company.next = undefined;
      }
      const answers = this.transport.requestAll(specs, stopOn);
      stopped = answers.stopped;
      owners.forEach(([company, page], k) => {
        const outcome = answers.outcomes[k];
        if (company.error) return;
        if (!outcome?.ok) {
          company.error = outcome?.error ?? stopped;
          company.next = undefined;
        } else if (page === 0) company.profile = outcome.value as CompanyProfile;
        else {
          const { emails, total } = outcome.value as ProfileEmailsPage;
          company.emails.push(...emails);
          if (page === 1) company.total = total;
          const more = emails.length > 0 && company.emails.length < company.total;
          company.next = more && page < PROFILE_EMAILS_MAX_PAGES ? page + 1 : undefined;
        }
      });
    }
    return companies.map(({ companyHashId, profile, emails, total, next, error }) => {
      error ??= next || !profile ? (stopped ?? this.transport.error(missingKeyInit('outreach'))) : undefined;
      return error || !profile
        ? { companyHashId, ok: false as const, error: error as ApiError }
        : { companyHashId, ok: true as const, profile, emails, total };
    });
  }

  /**
   * POST /api/v1/emails/send/batch: 1 EDM per recipient. Never retried after an ambiguous failure (kind
   * 'outcome-unknown': reconcile with the mail list before sending again).
   */
  sendBatch(request: SendBatchRequest): SendBatchResponse {
    return this.post(OUTREACH_PATHS.sendBatch, SendBatchRequestSchema, request, SendBatchResponseSchema, {
      unsafe: 'send',
    });
  }

  /** POST /api/v1/emails/send/personalized: 1 EDM per e-mail. Same rules as sendBatch. */
  sendPersonalized(request: SendPersonalizedRequest): SendPersonalizedResponse {
    return this.post(
      OUTREACH_PATHS.sendPersonalized,
      SendPersonalizedRequestSchema,
      request,
      SendPersonalizedResponseSchema,
      { unsafe: 'send' },
    );
  }

  /** GET /api/v1/emails/tasks (free). */
  listTasks(query: TaskListQuery = {}): TaskList {
    return this.list(OUTREACH_PATHS.tasks, TaskListQuerySchema, query, TaskListSchema);
  }

  /** GET /api/v1/emails/tasks/:taskId (free). */
  getTask(taskId: number): TaskDetail {
    return this.byId(OUTREACH_PATHS.task, 'taskId', taskId, TaskDetailSchema, 'task');
  }

  /** GET /api/v1/emails/mails (free). */
  listMails(query: MailListQuery = {}): MailList {
    return this.list(OUTREACH_PATHS.mails, MailListQuerySchema, query, MailListSchema);
  }

  /** GET /api/v1/emails/mails/:mailId (free). */
  getMail(mailId: number): MailDetail {
    return this.byId(OUTREACH_PATHS.mail, 'mailId', mailId, MailDetailSchema, 'mail');
  }

  /**
   * POST /api/v1/contacts/search: retired, always 410. Kept only to prove the 410 handling: throws ApiError
   * kind 'gone' (never retried) with `code` and `replacement`.
   */
  contactSearchRetired(): never {
    const path = OUTREACH_PATHS.contactSearch;
    this.transport.request({ method: 'post', path, body: {}, schema: z.unknown() });
    throw this.transport.error(invalidResponseInit('outreach', `POST ${path}`, 'expected 410 Gone'));
  }

  /** Checks the body (nothing is sent when it fails), then POSTs it. An empty task_subject is left out. */
  private post<S extends z.ZodMiniType, T>(
    path: string,
    requestSchema: S,
    data: unknown,
    schema: z.ZodMiniType<T>,
    extra: Pick<RequestSpec<T>, 'unsafe' | 'notFound'> = {},
  ): T {
    const body = this.transport.check(`POST ${path}`, requestSchema, data) as Record<string, unknown>;
    if (body.task_subject === '') delete body.task_subject;
    return this.transport.request({ method: 'post', path, body, schema, ...extra });
  }

  private list<S extends z.ZodMiniType, T>(
    path: string,
    querySchema: S,
    query: object,
    schema: z.ZodMiniType<T>,
  ): T {
    const checked = this.transport.check(`GET ${path}`, querySchema, withoutUndefined(query));
    return this.transport.request({
      method: 'get',
      path,
      query: checked as Record<string, QueryValue>,
      schema,
    });
  }

  private byId<T>(
    path: (id: number) => string,
    field: string,
    id: unknown,
    schema: z.ZodMiniType<T>,
    notFound: 'task' | 'mail',
  ): T {
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
      const endpoint = `GET ${path(0).replace('/0', `/:${field}`)}`;
      throw this.transport.error(
        badRequestInit('outreach', endpoint, field, `${field} must be a positive whole number`),
      );
    }
    return this.transport.request({ method: 'get', path: path(id), schema, notFound });
  }

  private profileSpec(id: string): RequestSpec<CompanyProfile> {
    return {
      method: 'get',
      path: OUTREACH_PATHS.profile(id),
      schema: CompanyProfileSchema,
      notFound: 'company',
    };
  }

  /** A profileEmails request (no pageSize: the service's default). */
  private emailsSpec(id: string, query: ProfileEmailsOptions): RequestSpec<ProfileEmailsPage> {
    return {
      method: 'get',
      path: OUTREACH_PATHS.profileEmails(id),
      query: {
        keyword: query.keyword || undefined,
        page: query.page,
        pageSize: query.pageSize,
      },
      schema: ProfileEmailsPageSchema,
      notFound: 'company',
    };
  }

  private checkHashId(companyHashId: unknown, what: 'profile' | 'profileEmails'): string {
    const id = typeof companyHashId === 'string' ? companyHashId.trim() : '';
    if (id === '' || id.length > 200) {
      const message = 'companyHashId is required: take it from the unlock answer';
      throw this.transport.error(
        badRequestInit('outreach', `GET /api/v1/companies/:companyHashId/${what}`, 'companyHashId', message),
      );
    }
    return id;
  }
}

function withoutUndefined(value: object): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value ?? {})) if (item !== undefined) copy[key] = item;
  return copy;
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
