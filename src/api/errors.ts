// Typed errors of the two API clients. Every failure a feature can meet (no key, refused key, funds, plan,
// unknown company, retired endpoint, rate limit, quota, bad request, server, network, unexpected answer,
// unknown outcome of a paid call) is one ApiError with a `kind`, a one-sentence `userMessage` and an `action`,
// typed per kind (ApiErrorFacts: what a funds, gone, wait or bad-request error carries besides).
// The texts are built in error-texts.ts, problem.ts (RFC 7807 answers) and phone-codes.ts.
//
// Secrets: no field of an ApiError may contain an API key. The transport builds every error from an
// ApiErrorInit and passes it through redactInit() (redact.ts) with the keys it knows; messages never quote a
// URL (query strings may hold a phone number or an e-mail filter), only the method and path of the endpoint.

export type ApiService = 'outreach' | 'phone';

export type ApiErrorKind =
  | 'missing-key'
  | 'auth'
  | 'funds'
  | 'plan'
  | 'not-found'
  | 'gone'
  /** The service refused the request for its rate limit (429 `rate-limit`, phone code 1005), after the retries. */
  | 'rate-limit'
  /** The rate budget would free a slot only after the run's deadline: nothing was sent (see rate-budget.ts). */
  | 'rate-budget'
  /** The run has used its time: the deadline came before the next request, which was not sent. */
  | 'time-up'
  /** The user pressed Stop: the requests not sent yet stay unsent. */
  | 'stopped'
  | 'quota'
  | 'bad-request'
  | 'server'
  | 'network'
  | 'invalid-response'
  | 'outcome-unknown'
  /** The service address answers, but not as this API: the address is wrong (see wrong-address.ts). */
  | 'address'
  /** The address is outside the manifest's urlFetchWhitelist: Apps Script refuses it, nothing is sent. */
  | 'address-not-allowed'
  /** Apps Script's daily quota of URL Fetch calls is used up: nothing was sent (see error-texts.ts). */
  | 'fetch-quota';

/** What a 402 / 1004 was short of. */
export type FundsUnit = 'points' | 'edm' | 'credits';

/** What every error carries, whatever its kind. */
interface ApiErrorCommon {
  service: ApiService;
  /** Developer-level description: endpoint, status, slug or code, detail. Never a key, never a URL. */
  message: string;
  /** One sentence a user understands. */
  userMessage: string;
  /** What to do about it. */
  action: string;
  /** True when trying the same request again later can succeed without changing anything. */
  retryable: boolean;
  /** `METHOD /path` of the request (no query string). */
  endpoint?: string;
  /** HTTP status (outreach), or the HTTP status that carried a phone-service code. */
  status?: number;
  /** Slug of the RFC 7807 `type` (`rate-limit`, `quota-exceeded`, `upstream-error`, ...). */
  slug?: string;
  /** Phone-service code (1000..1007) or the 410 problem `code` (`contact_search_retired`). */
  code?: number | string;
  title?: string;
  detail?: string;
  instance?: string;
}

/** The kinds that say how long to wait before the same request can succeed. */
type RetryAfterKind =
  'rate-limit' | 'rate-budget' | 'time-up' | 'stopped' | 'quota' | 'fetch-quota' | 'server';

/** What each family of kinds carries besides: a reader narrows on `kind` to reach it. */
export type ApiErrorFacts =
  | {
      kind: 'funds';
      /** Parsed from a 402 detail when it states the amounts. */
      required?: number;
      available?: number;
      unit?: FundsUnit;
    }
  /** 410: the path that replaces the retired endpoint. */
  | { kind: 'gone'; replacement?: string }
  /** How long to wait before trying again (Retry-After, or the time until the rate budget frees). */
  | { kind: RetryAfterKind; retryAfterMs?: number }
  /** Client-side request checks: the offending field (`emails[2].email`), a recipient's or e-mail's 0-based index. */
  | { kind: 'bad-request'; field?: string; index?: number }
  | { kind: Exclude<ApiErrorKind, 'funds' | 'gone' | RetryAfterKind | 'bad-request'> };

export type ApiErrorInit = ApiErrorCommon & ApiErrorFacts;

/** What a user is told of an error. */
export type ApiErrorWords = Pick<ApiErrorCommon, 'userMessage' | 'action' | 'retryable'>;

/** Plain JSON form of an ApiError (google.script.run and custom functions cannot carry an Error's fields). */
type ApiErrorJson = ApiErrorInit & { name: 'ApiError' };

class ApiErrorClass extends Error {
  declare readonly service: ApiService;
  declare readonly kind: ApiErrorKind;
  declare readonly userMessage: string;
  declare readonly action: string;
  declare readonly retryable: boolean;
  declare readonly endpoint?: string;
  declare readonly status?: number;
  declare readonly slug?: string;
  declare readonly code?: number | string;
  declare readonly title?: string;
  declare readonly detail?: string;
  declare readonly instance?: string;

  constructor(init: ApiErrorInit) {
    super(init.message);
    Object.assign(this, init);
    this.name = 'ApiError';
  }

  /** Every field as plain JSON (for google.script.run results and the test harness). */
  toJSON(): ApiErrorJson {
    const json: Record<string, unknown> = { name: 'ApiError', message: this.message };
    for (const [key, value] of Object.entries(this)) {
      if (value !== undefined && key !== 'stack') json[key] = value;
    }
    return json as unknown as ApiErrorJson;
  }
}

/** An error of the API clients, typed per kind: `error.kind === 'funds'` gives its amounts, and so on. */
export type ApiError = ApiErrorClass & Readonly<ApiErrorFacts>;
export const ApiError = ApiErrorClass as { new (init: ApiErrorInit): ApiError; readonly prototype: ApiError };

/**
 * What an error means for the run (one requestAll, one job slice) that met it:
 * - 'later': nothing is wrong with the work left; the run ends here and the rest is done by a later slice
 *   (out of time, the user's Stop, the rate budget or the service's rate limit);
 * - 'stop': every later request would fail the same way (key, funds, plan, quota, address, Apps Script's
 *   daily fetch quota, a retired endpoint): the run ends and says why;
 * - 'go-on': it concerns this request only (not found, bad request, a server or network failure, an answer
 *   lost or not understood): the run goes on with the others.
 * The one place that decides it: a new kind does not compile until it is placed here.
 */
type RunEffect = 'later' | 'stop' | 'go-on';

/** The kinds whose run effect is 'later' (RUN_EFFECTS' type keeps the two the same). */
type LaterKind = 'rate-limit' | 'rate-budget' | 'time-up' | 'stopped';

const RUN_EFFECTS: { [K in ApiErrorKind]: K extends LaterKind ? 'later' : 'stop' | 'go-on' } = {
  'rate-limit': 'later',
  'rate-budget': 'later',
  'time-up': 'later',
  stopped: 'later',
  'missing-key': 'stop',
  auth: 'stop',
  funds: 'stop',
  plan: 'stop',
  gone: 'stop',
  quota: 'stop',
  address: 'stop',
  'address-not-allowed': 'stop',
  'fetch-quota': 'stop',
  'not-found': 'go-on',
  'bad-request': 'go-on',
  server: 'go-on',
  network: 'go-on',
  'invalid-response': 'go-on',
  'outcome-unknown': 'go-on',
};

export function runEffect(error: Pick<ApiErrorInit, 'kind'>): RunEffect {
  return RUN_EFFECTS[error.kind];
}

/** The run ends at this error (later, or for good). */
export function endsRun(error: Pick<ApiErrorInit, 'kind'>): boolean {
  return RUN_EFFECTS[error.kind] !== 'go-on';
}

/** The run ends at this error, and the work left is done by a later slice. */
export function isForLater(error: unknown): error is ApiError & { kind: LaterKind } {
  return error instanceof ApiError && RUN_EFFECTS[error.kind] === 'later';
}
