// RFC 7807 problem bodies of the outreach service: lenient parsing, and the mapping of a non-2xx answer to
// an error. The HTTP status decides the kind; the problem's slug refines it (quota, upstream-error).
import type { ApiErrorInit, FundsUnit } from '../errors';
import { type UnsafeOperation, ERROR_TEXTS, invalidResponseInit, outcomeUnknownInit } from '../error-texts';
import { quotaExceededInit } from './quota-exceeded';
import { isProblemBody, wrongAddressInit } from '../transport';

interface Problem {
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
function parseProblem(text: string): Problem {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return {};
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  const raw = body as Record<string, unknown>;
  const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const num = (value: unknown) => (typeof value === 'number' ? value : undefined);
  const problem: Problem = {
    type: str(raw.type),
    title: str(raw.title),
    status: num(raw.status),
    detail: str(raw.detail),
    instance: str(raw.instance),
    code: str(raw.code),
    replacement: str(raw.replacement),
    required: num(raw.required),
    available: num(raw.available),
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

interface OutreachErrorContext {
  service: 'outreach';
  endpoint: string;
  baseUrl: string;
  /** What a 404 means for this endpoint. */
  notFound?: 'company' | 'unlock' | 'mail';
  /** Set for unlock and sends: 5xx answers become outcome-unknown (except a refunded 502 upstream-error). */
  unsafe?: UnsafeOperation;
}

/** What every error of one answer shares (the developer message apart: some kinds keep their own). */
interface Answered {
  common: Pick<ApiErrorInit, 'service' | 'endpoint' | 'status' | 'slug' | 'title' | 'detail' | 'instance'>;
  message: string;
  problem: Problem;
  /** The body has this API's problem shape (a 404 without it comes from something else). */
  isProblem: boolean;
  ctx: OutreachErrorContext;
  retryAfterMs?: number;
}

/** Maps a non-2xx answer of the outreach service to an error. The HTTP status decides the kind. */
export function outreachProblemInit(
  ctx: OutreachErrorContext,
  status: number,
  text: string,
  retryAfterMs?: number,
): ApiErrorInit {
  const problem = parseProblem(text);
  const said = [problem.slug, problem.detail ?? problem.title].filter(Boolean).join(': ');
  const answered: Answered = {
    common: {
      service: 'outreach',
      endpoint: ctx.endpoint,
      status,
      slug: problem.slug,
      title: problem.title,
      detail: problem.detail,
      instance: problem.instance,
    },
    message: `${ctx.endpoint} answered ${status}${said ? ` (${said})` : ''}`,
    problem,
    isProblem: isProblemBody(text),
    ctx,
    retryAfterMs,
  };
  const byStatus = Object.prototype.hasOwnProperty.call(BY_STATUS, status) ? BY_STATUS[status] : undefined;
  if (byStatus) return byStatus(answered);
  if (status >= 500 && status <= 599) return serverError(answered);
  return unexpectedStatus(answered);
}

const BY_STATUS: Record<number, (a: Answered) => ApiErrorInit> = {
  400: badRequest,
  405: badRequest,
  409: badRequest,
  413: badRequest,
  422: badRequest,
  401: ({ common, message }) => ({
    ...common,
    kind: 'auth',
    message,
    userMessage: 'The Outreach service refused the API key (missing, invalid or revoked).',
    action: ERROR_TEXTS.settings,
    retryable: false,
  }),
  402: funds,
  403: ({ common, message, ctx }) => ({
    ...common,
    kind: 'plan',
    message,
    userMessage: 'Your plan has no permission to send e-mail.',
    action: `${ERROR_TEXTS.plan} (${ctx.baseUrl}/pricing).`,
    retryable: false,
  }),
  404: notFound,
  410: ({ common, message, problem }) => ({
    ...common,
    kind: 'gone',
    code: problem.code,
    replacement: problem.replacement,
    message,
    userMessage: 'The old contact search is retired.',
    action: problem.replacement ? `${ERROR_TEXTS.gone} (${problem.replacement})` : ERROR_TEXTS.gone,
    retryable: false,
  }),
  429: tooManyRequests,
};

function badRequest({ common, message, problem }: Answered): ApiErrorInit {
  return {
    ...common,
    kind: 'bad-request',
    message,
    userMessage: `The Outreach service rejected the request${problem.detail ? `: ${problem.detail}` : '.'}`,
    action: 'Correct the request and try again.',
    retryable: false,
  };
}

function funds({ common, message, problem, ctx }: Answered): ApiErrorInit {
  const amounts = parseFundsDetail(problem.detail);
  if (problem.required !== undefined) amounts.required = problem.required;
  if (problem.available !== undefined) amounts.available = problem.available;
  const unitText =
    amounts.unit === 'edm'
      ? 'e-mail credits (EDM)'
      : amounts.unit === 'points'
        ? 'search points'
        : 'search points or e-mail credits (EDM)';
  const stated = amounts.required !== undefined || amounts.available !== undefined;
  const needed = `${amounts.required ?? '?'}, available ${amounts.available ?? '?'}`;
  return {
    ...common,
    ...amounts,
    kind: 'funds',
    message,
    userMessage: `Not enough ${unitText}${stated ? ` (needed ${needed})` : ''}; nothing was charged.`,
    action: `${stated ? `Needed ${needed}: b` : 'B'}uy a plan or an add-on pack (400 search points + 2,000 e-mail credits) at ${ctx.baseUrl}/pricing`,
    retryable: false,
  };
}

const NOT_FOUND_TEXTS: Record<NonNullable<OutreachErrorContext['notFound']>, [string, string]> = {
  company: ['The company is not unlocked (or the id is not one of yours).', ERROR_TEXTS.profileNotFound],
  unlock: [
    'No company matches this domain and country; nothing was charged.',
    'Check the row: the domain and country must come from a search result.',
  ],
  mail: ['This mail does not exist or is not yours.', 'Check the mail id.'],
};

function notFound({ common, message, ctx, isProblem }: Answered): ApiErrorInit {
  // A 404 where no resource can be missing, or without this API's problem body: the address is wrong.
  if (!ctx.notFound || !isProblem) {
    const status = common.status as number;
    return { ...wrongAddressInit('outreach', ctx.endpoint, ctx.baseUrl, status, message), ...common };
  }
  const [userMessage, action] = NOT_FOUND_TEXTS[ctx.notFound];
  return { ...common, kind: 'not-found', message, userMessage, action, retryable: false };
}

function tooManyRequests({ common, message, problem, retryAfterMs }: Answered): ApiErrorInit {
  if (problem.slug === 'quota-exceeded') {
    return quotaExceededInit({ ...common, message }, problem.detail, retryAfterMs);
  }
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

/** 5xx. On unlock and sends the outcome is unknown, except a refunded 502 upstream-error. */
function serverError({ common, message, problem, ctx, retryAfterMs }: Answered): ApiErrorInit {
  const status = common.status as number;
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

/** 3xx (redirects are not followed: the key must not travel elsewhere), 1xx or any other status. */
function unexpectedStatus({ common, ctx }: Answered): ApiErrorInit {
  const status = common.status as number;
  return {
    ...common,
    ...invalidResponseInit('outreach', ctx.endpoint, `HTTP status ${status}`),
    ...(ctx.unsafe
      ? outcomeUnknownInit('outreach', ctx.endpoint, ctx.unsafe, `answered ${status}`, status)
      : {}),
    status,
  };
}
