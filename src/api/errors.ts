// Typed errors of the two API clients. Every failure a feature can meet (no key, refused key, funds, plan,
// unknown company, retired endpoint, rate limit, quota, bad request, server, network, unexpected answer,
// unknown outcome of a paid call) is one ApiError with a `kind`, a one-sentence `userMessage` and an `action`.
//
// Secrets: no field of an ApiError may contain an API key. The transport builds every error from an
// ApiErrorInit and passes it through redactInit() with the keys it knows; messages never quote a URL
// (query strings may hold a phone number or an e-mail filter), only the method and path of the endpoint.

import { quotaExceededInit } from './quota-exceeded';
import { isProblemBody, wrongAddressInit } from './wrong-address';

export type ApiService = 'outreach' | 'phone';

export type ApiErrorKind =
  | 'missing-key'
  | 'auth'
  | 'funds'
  | 'plan'
  | 'not-found'
  | 'gone'
  | 'rate-limit'
  | 'quota'
  | 'bad-request'
  | 'server'
  | 'network'
  | 'invalid-response'
  | 'outcome-unknown'
  /** The service address answers, but not as this API: the address is wrong (see wrong-address.ts). */
  | 'address'
  | 'address-not-allowed';

/** What a 402 / 1004 was short of. */
export type FundsUnit = 'points' | 'edm' | 'credits';

export interface ApiErrorInit {
  service: ApiService;
  kind: ApiErrorKind;
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
  /** Parsed from a 402 detail when it states the amounts. */
  required?: number;
  available?: number;
  unit?: FundsUnit;
  instance?: string;
  /** 410: the path that replaces the retired endpoint. */
  replacement?: string;
  /** How long to wait before trying again (Retry-After, or the time until the rate budget frees). */
  retryAfterMs?: number;
  /** Client-side request checks: the offending field (`recipients[2].email`). */
  field?: string;
  /** Client-side request checks of sends: 0-based index of the offending recipient or e-mail. */
  index?: number;
}

/** Plain JSON form of an ApiError (google.script.run and custom functions cannot carry an Error's fields). */
export type ApiErrorJson = ApiErrorInit & { name: 'ApiError' };

export class ApiError extends Error {
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
  declare readonly required?: number;
  declare readonly available?: number;
  declare readonly unit?: FundsUnit;
  declare readonly instance?: string;
  declare readonly replacement?: string;
  declare readonly retryAfterMs?: number;
  declare readonly field?: string;
  declare readonly index?: number;

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

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

// ---------------------------------------------------------------------------------------------------------
// Fixed sentences (features and tests may rely on them).

export const SETTINGS_ACTION = 'Check the API key in Extensions › Outreach › Settings.';
export const MISSING_KEY_ACTION = 'Enter the API key in Extensions › Outreach › Settings.';
export const PLAN_ACTION = 'Your plan cannot send e-mail: upgrade the plan.';
export const PROFILE_NOT_FOUND_ACTION = 'Unlock the company first.';
export const GONE_ACTION = 'Use unlock and profileEmails instead: the old contact search is retired.';
export const CONTINUE_LATER_ACTION = 'Continue later: the work done so far is kept.';

export function serviceName(service: ApiService): string {
  return service === 'outreach' ? 'Outreach service' : 'phone-check service';
}

// ---------------------------------------------------------------------------------------------------------
// Builders. They return ApiErrorInit so the transport can redact the keys before the error exists.

export function missingKeyInit(service: ApiService): ApiErrorInit {
  const which = service === 'outreach' ? 'Outreach' : 'phone-check';
  return {
    service,
    kind: 'missing-key',
    message: `No ${which} API key is set.`,
    userMessage: `No ${which} API key is set.`,
    action: MISSING_KEY_ACTION,
    retryable: false,
  };
}

/** A request check that failed before anything was sent. */
export function badRequestInit(
  service: ApiService,
  endpoint: string,
  field: string,
  message: string,
  index?: number,
): ApiErrorInit {
  return {
    service,
    kind: 'bad-request',
    endpoint,
    field,
    index,
    message,
    userMessage: message,
    action: 'Correct it and try again: nothing was sent.',
    retryable: false,
  };
}

export function invalidResponseInit(service: ApiService, endpoint: string, what: string): ApiErrorInit {
  return {
    service,
    kind: 'invalid-response',
    endpoint,
    message: `Unexpected answer from ${endpoint}: ${what}`,
    userMessage: `The ${serviceName(service)} sent an answer the add-on does not understand.`,
    action: 'Try again later; if it keeps happening, report it with the time it happened.',
    retryable: false,
  };
}

export type UnsafeOperation = 'unlock' | 'send';

/** A paid call whose answer was lost or unreadable: it may or may not have happened. */
export function outcomeUnknownInit(
  service: ApiService,
  endpoint: string,
  operation: UnsafeOperation,
  why: string,
  status?: number,
): ApiErrorInit {
  const action =
    operation === 'unlock'
      ? 'Unlock again: a repeat unlock of the same company within 30 days is free.'
      : 'Check the Tracking sheet (the mail list) before sending again, so nobody gets the e-mail twice.';
  const what = operation === 'unlock' ? 'the unlock' : 'the e-mails were sent';
  return {
    service,
    kind: 'outcome-unknown',
    endpoint,
    status,
    message: `Outcome unknown for ${endpoint}: ${why}. Not retried (the call is charged).`,
    userMessage: `It is not known whether ${what} went through: the answer was lost.`,
    action,
    retryable: false,
  };
}

/** A service address outside the manifest's urlFetchWhitelist: Apps Script refuses it, so nothing is sent. */
export function addressNotAllowedInit(service: ApiService, baseUrl: string, allowed: string): ApiErrorInit {
  const text = `The ${serviceName(service)} address ${baseUrl} is not allowed: Apps Script lets this add-on reach only addresses under ${allowed}.`;
  const action = 'Change the address in Extensions › Outreach › Settings: nothing was sent.';
  return {
    service,
    kind: 'address-not-allowed',
    // The whole sentence: a sidebar or a formula cell shows only the message.
    message: `${text} ${action}`,
    userMessage: text,
    action,
    retryable: false,
  };
}

export function networkInit(service: ApiService, endpoint: string, cause: unknown): ApiErrorInit {
  return {
    service,
    kind: 'network',
    endpoint,
    message: `No answer from ${endpoint}: ${describeCause(cause)}`,
    userMessage: `The ${serviceName(service)} could not be reached.`,
    action: 'Check the connection and try again in a moment.',
    retryable: true,
  };
}

/** The rate budget cannot free a slot before the caller's deadline. */
export function deadlineInit(service: ApiService, waitMs: number, limitText: string): ApiErrorInit {
  return {
    service,
    kind: 'rate-limit',
    message: `Rate budget of the ${serviceName(service)} (${limitText}) is used up; the next slot frees in ${Math.ceil(waitMs / 1000)} s, after the deadline.`,
    userMessage: `The ${serviceName(service)} allows ${limitText}; this run has reached the limit.`,
    action: CONTINUE_LATER_ACTION,
    retryable: true,
    retryAfterMs: Math.max(0, Math.ceil(waitMs)),
  };
}

/** The caller's deadline has passed: the run stops before the next request. */
export function timeUpInit(service: ApiService): ApiErrorInit {
  return {
    service,
    kind: 'rate-limit',
    message: `Deadline reached before the next request to the ${serviceName(service)}.`,
    userMessage: 'This run has used its time.',
    action: CONTINUE_LATER_ACTION,
    retryable: true,
    retryAfterMs: 0,
  };
}

/** UrlFetchApp exception text without URLs (a query string may hold a phone number or an e-mail). */
export function describeCause(cause: unknown): string {
  const text = cause instanceof Error ? cause.message : String(cause);
  return text.replace(/\bhttps?:\/\/\S+/gi, '<url>').slice(0, 300);
}

// ---------------------------------------------------------------------------------------------------------
// RFC 7807 problem bodies (outreach service).

export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  instance?: string;
  code?: string;
  replacement?: string;
  /** 402 extensions, when the service adds them. */
  required?: number;
  available?: number;
  /** Last path segment of `type` when it has the `{base_url}/errors/<slug>` form, else `code`. */
  slug?: string;
}

/** Parses a problem body leniently: JSON or problem+json, any field may be missing or of the wrong type. */
export function parseProblem(text: string): Problem {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return {};
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  const raw = body as Record<string, unknown>;
  const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const problem: Problem = {
    type: str(raw.type),
    title: str(raw.title),
    status: typeof raw.status === 'number' ? raw.status : undefined,
    detail: str(raw.detail),
    instance: str(raw.instance),
    code: str(raw.code),
    replacement: str(raw.replacement),
    required: typeof raw.required === 'number' ? raw.required : undefined,
    available: typeof raw.available === 'number' ? raw.available : undefined,
  };
  const match = problem.type ? /\/errors\/([A-Za-z0-9_.-]+)\/?$/.exec(problem.type) : null;
  problem.slug = match ? match[1] : problem.code;
  return problem;
}

/** Reads `required` and `available` amounts (and the unit) from a 402 detail text, when it states them. */
export function parseFundsDetail(detail: string | undefined): {
  required?: number;
  available?: number;
  unit?: FundsUnit;
} {
  if (!detail) return {};
  const number = (re: RegExp) => {
    const match = re.exec(detail);
    return match ? Number(match[1]) : undefined;
  };
  const required = number(/\brequired\b\D{0,30}?(\d+)/i) ?? number(/\b(?:needs?|needed)\b\D{0,30}?(\d+)/i);
  const available = number(/\bavailable\b\D{0,30}?(\d+)/i) ?? number(/(\d+)\s+(?:\w+\s+){0,3}available\b/i);
  const unit: FundsUnit | undefined = /\b(edm|quota|e-?mail)/i.test(detail)
    ? 'edm'
    : /\bpoints?\b/i.test(detail)
      ? 'points'
      : undefined;
  return { required, available, unit };
}

export interface OutreachErrorContext {
  service: 'outreach';
  endpoint: string;
  baseUrl: string;
  /** What a 404 means for this endpoint. */
  notFound?: 'company' | 'unlock' | 'task' | 'mail';
  /** Set for unlock and sends: 5xx answers become outcome-unknown (except a refunded 502 upstream-error). */
  unsafe?: UnsafeOperation;
}

/** Maps a non-2xx answer of the outreach service to an error. The HTTP status decides the kind. */
export function outreachProblemInit(
  ctx: OutreachErrorContext,
  status: number,
  text: string,
  retryAfterMs?: number,
): ApiErrorInit {
  const problem = parseProblem(text);
  const common = {
    service: 'outreach' as const,
    endpoint: ctx.endpoint,
    status,
    slug: problem.slug,
    title: problem.title,
    detail: problem.detail,
    instance: problem.instance,
  };
  const said = [problem.slug, problem.detail ?? problem.title].filter(Boolean).join(': ');
  const message = `${ctx.endpoint} answered ${status}${said ? ` (${said})` : ''}`;
  const pricing = `${ctx.baseUrl}/pricing`;
  if (status === 400 || status === 405 || status === 409 || status === 413 || status === 422) {
    return {
      ...common,
      kind: 'bad-request',
      message,
      userMessage: `The Outreach service rejected the request${problem.detail ? `: ${problem.detail}` : '.'}`,
      action: 'Correct the request and try again.',
      retryable: false,
    };
  }
  if (status === 401) {
    return {
      ...common,
      kind: 'auth',
      message,
      userMessage: 'The Outreach service refused the API key (missing, invalid or revoked).',
      action: SETTINGS_ACTION,
      retryable: false,
    };
  }
  if (status === 402) {
    const funds = parseFundsDetail(problem.detail);
    if (problem.required !== undefined) funds.required = problem.required;
    if (problem.available !== undefined) funds.available = problem.available;
    const unitText =
      funds.unit === 'edm' ? 'EDM quota' : funds.unit === 'points' ? 'search points' : 'points or EDM quota';
    const amounts =
      funds.required !== undefined || funds.available !== undefined
        ? ` (needed ${funds.required ?? '?'}, available ${funds.available ?? '?'})`
        : '';
    return {
      ...common,
      ...funds,
      kind: 'funds',
      message,
      userMessage: `Not enough ${unitText}${amounts}; nothing was charged.`,
      action: `${amounts ? `Needed ${funds.required ?? '?'}, available ${funds.available ?? '?'}: b` : 'B'}uy a plan or an add-on pack (400 points + 2000 EDM) at ${pricing}`,
      retryable: false,
    };
  }
  if (status === 403) {
    return {
      ...common,
      kind: 'plan',
      message,
      userMessage: 'Your plan has no permission to send e-mail.',
      action: `${PLAN_ACTION} (${pricing})`,
      retryable: false,
    };
  }
  if (status === 404) {
    // A 404 where no resource can be missing, or without this API's problem body: the address is wrong.
    if (!ctx.notFound || !isProblemBody(text)) {
      return { ...wrongAddressInit('outreach', ctx.endpoint, ctx.baseUrl, status, message), ...common };
    }
    const notFound = {
      company: ['The company is not unlocked (or the id is not one of yours).', PROFILE_NOT_FOUND_ACTION],
      unlock: [
        'No company matches this domain and country; nothing was charged.',
        'Check the row: the domain and country must come from a search result.',
      ],
      task: ['This e-mail task does not exist or is not yours.', 'Check the task id.'],
      mail: ['This mail does not exist or is not yours.', 'Check the mail id.'],
    }[ctx.notFound];
    return {
      ...common,
      kind: 'not-found',
      message,
      userMessage: notFound[0],
      action: notFound[1],
      retryable: false,
    };
  }
  if (status === 410) {
    return {
      ...common,
      kind: 'gone',
      code: problem.code,
      replacement: problem.replacement,
      message,
      userMessage: 'The old contact search is retired.',
      action: problem.replacement ? `${GONE_ACTION} (${problem.replacement})` : GONE_ACTION,
      retryable: false,
    };
  }
  if (status === 429) {
    if (problem.slug === 'quota-exceeded')
      return quotaExceededInit({ ...common, message }, problem.detail, retryAfterMs);
    return {
      ...common,
      kind: 'rate-limit',
      retryAfterMs,
      message,
      userMessage: 'The Outreach service allows 60 requests per minute; the limit was reached.',
      action: 'Wait a minute and try again.',
      retryable: true,
    };
  }
  if (status >= 500 && status <= 599) {
    const refunded = status === 502 && problem.slug === 'upstream-error';
    if (ctx.unsafe && !refunded) {
      return {
        ...outcomeUnknownInit('outreach', ctx.endpoint, ctx.unsafe, `answered ${status}`, status),
        ...common,
        kind: 'outcome-unknown',
      };
    }
    return {
      ...common,
      kind: 'server',
      retryAfterMs,
      message,
      userMessage: refunded
        ? 'The e-mail delivery provider failed; any quota deducted for this call is refunded.'
        : `The Outreach service had a temporary failure (${status}).`,
      action: 'Try again later.',
      retryable: true,
    };
  }
  // 3xx (redirects are not followed: the key must not travel elsewhere), 1xx or any other status.
  return {
    ...common,
    ...invalidResponseInit('outreach', ctx.endpoint, `HTTP status ${status}`),
    ...(ctx.unsafe
      ? outcomeUnknownInit('outreach', ctx.endpoint, ctx.unsafe, `answered ${status}`, status)
      : {}),
    status,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Phone-service codes: the body's {code, message} is authoritative, whatever the HTTP status.

export const PHONE_CODES = {
  INTERNAL: 1000,
  MISSING_KEY: 1001,
  INVALID_PHONE: 1002,
  INVALID_KEY: 1003,
  INSUFFICIENT_CREDITS: 1004,
  RATE_LIMIT: 1005,
  UPSTREAM: 1006,
  DEDUCT_FAILED: 1007,
} as const;

export function phoneCodeInit(
  endpoint: string,
  code: number,
  serviceMessage: string | undefined,
  status: number,
  retryAfterMs?: number,
): ApiErrorInit {
  const common = {
    service: 'phone' as const,
    endpoint,
    status,
    code,
    detail: serviceMessage,
    message: `${endpoint} answered code ${code}${serviceMessage ? ` (${serviceMessage})` : ''}`,
  };
  switch (code) {
    case PHONE_CODES.MISSING_KEY:
    case PHONE_CODES.INVALID_KEY:
      return {
        ...common,
        kind: 'auth',
        userMessage: 'The phone-check service refused the API key (missing or invalid).',
        action: SETTINGS_ACTION,
        retryable: false,
      };
    case PHONE_CODES.INVALID_PHONE:
      return {
        ...common,
        kind: 'bad-request',
        userMessage: 'The phone-check service says this phone number is not valid.',
        action: 'Write the number in international form, e.g. +14155550123.',
        retryable: false,
      };
    case PHONE_CODES.INSUFFICIENT_CREDITS:
      return {
        ...common,
        kind: 'funds',
        unit: 'credits',
        userMessage: 'The phone-check credits are used up.',
        action: 'Add credits to the phone-check account, then check the remaining numbers.',
        retryable: false,
      };
    case PHONE_CODES.RATE_LIMIT:
      return {
        ...common,
        kind: 'rate-limit',
        retryAfterMs,
        userMessage: 'The phone-check service allows 1000 checks per hour; the limit was reached.',
        action: CONTINUE_LATER_ACTION,
        retryable: true,
      };
    case PHONE_CODES.INTERNAL:
    case PHONE_CODES.UPSTREAM:
    case PHONE_CODES.DEDUCT_FAILED:
      return {
        ...common,
        kind: 'server',
        userMessage: `The phone-check service had a temporary failure (code ${code}); a failed check costs nothing.`,
        action: 'Try again later.',
        retryable: true,
      };
    default:
      return {
        ...common,
        kind: 'server',
        userMessage: `The phone-check service answered an unknown error code ${code}.`,
        action: 'Try again later; if it keeps happening, report it.',
        retryable: false,
      };
  }
}

// ---------------------------------------------------------------------------------------------------------
// Redaction.

const REDACTED = '[redacted]';

/** Replaces every occurrence of a secret (API key) in a text. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** Returns a copy of init whose string fields contain no secret. */
export function redactInit(init: ApiErrorInit, secrets: readonly string[]): ApiErrorInit {
  const copy: Record<string, unknown> = { ...init };
  for (const [key, value] of Object.entries(copy)) {
    if (typeof value === 'string') copy[key] = redact(value, secrets);
  }
  return copy as unknown as ApiErrorInit;
}
