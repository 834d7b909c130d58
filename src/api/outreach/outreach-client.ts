// Typed client of the prospecting and e-mail outreach service (docs/services.md). Every method checks
// its request before sending (kind 'bad-request', nothing sent), takes rate-budget slots, and returns the
// validated answer or throws ApiError. Costs: unlock 1 point on a first unlock; sends 1 EDM per recipient or
// e-mail; every other call is free.
import * as z from 'zod/mini';
import { badRequestInit, missingKeyInit } from '../error-texts';
import {
  type BatchResult,
  Transport,
  type TransportOptions,
  type Outcome,
  type QueryValue,
  type RequestSpec,
} from '../transport';
import { OUTREACH_PATHS } from './outreach-paths';
import {
  type CompanyWithEmails,
  emailsSpec,
  type ProfileEmailsOptions,
  profileSpec,
  readProfilesWithEmails,
} from './profiles-with-emails';
import { ApiError } from '../errors';
import {
  BalanceSchema,
  type Balance,
  type CompanyProfile,
  type ProfileEmailsPage,
  ProfileEmailsQuerySchema,
  type SearchRequest,
  SearchRequestSchema,
  type SearchResponse,
  SearchResponseSchema,
  type UnlockResult,
  UnlockRequestSchema,
  UnlockResultSchema,
} from './outreach-schemas';
import {
  type MailDetail,
  MailDetailSchema,
  type MailList,
  type MailListQuery,
  MailListQuerySchema,
  MailListSchema,
  type SendPersonalizedRequest,
  SendPersonalizedRequestSchema,
  type SendPersonalizedResponse,
  SendPersonalizedResponseSchema,
  type TaskList,
  type TaskListQuery,
  TaskListQuerySchema,
  TaskListSchema,
} from './email-schemas';
import { type RateBudget } from '../../platform';

import { interpretOutreach } from './outreach-answers';

export type OutreachClientOptions = Omit<TransportOptions, 'service' | 'interpret'>;

export class OutreachClient {
  private readonly transport: Transport;

  /** `extraHeaders` gives the attribution headers (features/clients.ts computes them). */
  constructor(options: OutreachClientOptions) {
    this.transport = new Transport({ ...options, service: 'outreach', interpret: interpretOutreach });
  }

  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** Where funds are bought (docs/services.md, Outreach: limits: `{base_url}/pricing`). */
  get pricingUrl(): string {
    return `${this.transport.baseUrl}/pricing`;
  }

  get budget(): RateBudget {
    return this.transport.budget;
  }

  /** GET /api/v1/credit/balance (free). */
  balance(): Balance {
    return this.transport.request({
      method: 'get',
      path: OUTREACH_PATHS.balance,
      schema: BalanceSchema(),
      probe: true,
    });
  }

  /** POST /api/v1/companies/search-advanced (free; retried like a read). */
  search(request: SearchRequest): SearchResponse {
    return this.post(OUTREACH_PATHS.search, SearchRequestSchema(), request, SearchResponseSchema());
  }

  /**
   * POST /api/v1/companies/unlock: 1 point on the first unlock of a domain, free again within 30 days.
   * Never retried after an ambiguous failure: kind 'outcome-unknown' (unlock again: a repeat is free).
   */
  unlock(domain: string, countryCode: string): UnlockResult {
    return this.post(
      OUTREACH_PATHS.unlock,
      UnlockRequestSchema(),
      { domain, countryCode },
      UnlockResultSchema(),
      {
        unsafe: 'unlock',
        notFound: 'unlock',
      },
    );
  }

  /** GET /api/v1/companies/:companyHashId/profile (free; 404 until unlocked). */
  profile(companyHashId: string): CompanyProfile {
    return this.transport.request(profileSpec(this.checkHashId(companyHashId, 'profile')));
  }

  /** GET /api/v1/companies/:companyHashId/profileEmails, one page (free; 404 until unlocked). */
  profileEmails(companyHashId: string, options: ProfileEmailsOptions = {}): ProfileEmailsPage {
    const id = this.checkHashId(companyHashId, 'profileEmails');
    const query = this.transport.check(
      `GET ${OUTREACH_PATHS.profileEmails(':companyHashId')}`,
      ProfileEmailsQuerySchema(),
      withoutUndefined(options),
    );
    return this.transport.request(emailsSpec(id, query));
  }

  /**
   * Profile and every contact of many companies, through UrlFetchApp.fetchAll in batches sized to the free
   * rate budget (see profiles-with-emails.ts). One result per id, in order; one company's failure does not
   * fail the others; a refused key, a used-up quota or the deadline stops the run.
   */
  profilesWithEmails(companyHashIds: readonly string[]): CompanyWithEmails[] {
    const ids = companyHashIds.map((id) => this.checkHashId(id, 'profile'));
    return readProfilesWithEmails(this.transport, ids);
  }

  /**
   * POST /api/v1/emails/send/personalized: 1 EDM per e-mail. Never retried after an ambiguous failure (kind
   * 'outcome-unknown': reconcile with the mail list before sending again).
   */
  sendPersonalized(request: SendPersonalizedRequest): SendPersonalizedResponse {
    return this.post(
      OUTREACH_PATHS.sendPersonalized,
      SendPersonalizedRequestSchema(),
      request,
      SendPersonalizedResponseSchema(),
      { unsafe: 'send' },
    );
  }

  /**
   * Several POST /api/v1/emails/send/personalized at once (UrlFetchApp.fetchAll, as many as the rate budget
   * lets go; the rest wait for it). One outcome per request, in order: a request that fails its check is
   * not sent; undefined when the run stopped before it was sent (`stopped` says why: the deadline, no rate
   * slot in time, `cancelled` answered true), so it surely was not sent. A lost answer is kind
   * 'outcome-unknown' for that request.
   */
  sendPersonalizedAll(
    requests: readonly SendPersonalizedRequest[],
    onSettled?: (answered: number) => void,
    cancelled?: () => boolean,
  ): BatchResult<SendPersonalizedResponse> {
    const path = OUTREACH_PATHS.sendPersonalized;
    const outcomes: Array<Outcome<SendPersonalizedResponse> | undefined> = [];
    const specs: RequestSpec<SendPersonalizedResponse>[] = [];
    const sent: number[] = [];
    requests.forEach((request, i) => {
      try {
        const body = this.transport.check(`POST ${path}`, SendPersonalizedRequestSchema(), request);
        specs.push({ method: 'post', path, body, schema: SendPersonalizedResponseSchema(), unsafe: 'send' });
        sent.push(i);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        outcomes[i] = { ok: false, error };
      }
    });
    let answered = 0;
    const settled = (indexes: number[]) => {
      answered += indexes.length;
      if (onSettled) onSettled(answered);
    };
    const result = this.transport.requestAll(specs, undefined, settled, cancelled);
    sent.forEach((i, k) => (outcomes[i] = result.outcomes[k]));
    return result.stopped ? { outcomes, stopped: result.stopped } : { outcomes };
  }

  /** GET /api/v1/emails/tasks (free). */
  listTasks(query: TaskListQuery = {}): TaskList {
    return this.list(OUTREACH_PATHS.tasks, TaskListQuerySchema(), query, TaskListSchema());
  }

  /** GET /api/v1/emails/mails (free). */
  listMails(query: MailListQuery = {}): MailList {
    return this.list(OUTREACH_PATHS.mails, MailListQuerySchema(), query, MailListSchema());
  }

  /**
   * GET /api/v1/emails/mails for many queries at once: UrlFetchApp.fetchAll in batches sized to the free rate
   * budget (one reservation, one fetch call a batch, instead of one of each a request). Answers in order;
   * the first error stops the run and is thrown (later queries are not sent).
   */
  listMailsAll(queries: readonly MailListQuery[]): MailList[] {
    return this.listAll(OUTREACH_PATHS.mails, MailListQuerySchema(), queries, MailListSchema());
  }

  /** GET /api/v1/emails/tasks for many queries at once, as listMailsAll. */
  listTasksAll(queries: readonly TaskListQuery[]): TaskList[] {
    return this.listAll(OUTREACH_PATHS.tasks, TaskListQuerySchema(), queries, TaskListSchema());
  }

  /** GET /api/v1/emails/mails/:mailId (free). */
  getMail(mailId: number): MailDetail {
    return this.byId(OUTREACH_PATHS.mail, 'mailId', mailId, MailDetailSchema(), 'mail');
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

  private listAll<S extends z.ZodMiniType, T>(
    path: string,
    querySchema: S,
    queries: readonly object[],
    schema: z.ZodMiniType<T>,
  ): T[] {
    const specs = queries.map((query) => ({
      method: 'get' as const,
      path,
      query: this.transport.check(`GET ${path}`, querySchema, withoutUndefined(query)) as Record<
        string,
        QueryValue
      >,
      schema,
    }));
    const result = this.transport.requestAll(specs, () => true);
    return result.outcomes.map((outcome) => {
      if (outcome?.ok) return outcome.value;
      throw outcome ? outcome.error : (result.stopped ?? this.transport.error(missingKeyInit('outreach')));
    });
  }

  private byId<T>(
    path: (id: number) => string,
    field: string,
    id: unknown,
    schema: z.ZodMiniType<T>,
    notFound: 'mail',
  ): T {
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
      const endpoint = `GET ${path(0).replace('/0', `/:${field}`)}`;
      throw this.transport.error(
        badRequestInit('outreach', endpoint, field, `${field} must be a positive whole number`),
      );
    }
    return this.transport.request({ method: 'get', path: path(id), schema, notFound });
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
