// The user texts of API errors (ERROR_TEXTS: userMessage and action; `message` is the log's) and the
// builders of the errors the transport and the clients raise themselves. Builders return ApiErrorInit so the
// transport can redact the keys before the error exists. Callers branch on `kind`, never on these words.
import type { ApiErrorInit, ApiService } from './errors';
import { HOUR_MS } from '../platform';

export const ERROR_TEXTS = {
  settings: 'Check the API key in Extensions › Outreach › Settings.',
  missingKey: 'Enter the API key in Extensions › Outreach › Settings.',
  plan: 'Upgrade the plan',
  profileNotFound: 'Unlock the company first.',
  gone: 'Use unlock and profileEmails instead: the old contact search is retired.',
  continueLater: 'Continue later: the work done so far is kept.',
  outreach: 'Outreach service',
  phone: 'phone-check service',
  noKey: (service: ApiService) => `No ${service === 'outreach' ? 'Outreach' : 'phone-check'} API key is set.`,
  correct: 'Correct it and try again: nothing was sent.',
  notUnderstood: (name: string) => `The ${name} sent an answer the add-on does not understand.`,
  tryLater: 'Try again later; if it keeps happening, report it with the time it happened.',
  unlockAgain: 'Unlock again: a repeat unlock of the same company within 30 days is free.',
  checkTracking:
    'Check the Tracking sheet (the mail list) before sending again, so nobody gets the e-mail twice.',
  unknownUnlock: 'It is not known whether the unlock went through: the answer was lost.',
  unknownSend: 'It is not known whether the e-mails were sent: the answer was lost.',
  notAllowed: (name: string, baseUrl: string, allowed: string) =>
    `The ${name} address ${baseUrl} is not allowed: Apps Script lets this add-on reach only addresses under ${allowed}.`,
  changeAddress: 'Change the address in Extensions › Outreach › Settings: nothing was sent.',
  tooLong: 'The request is too long: ask for fewer items at a time.',
  fewer: 'Ask for fewer items at a time.',
  unreachable: (name: string) => `The ${name} could not be reached.`,
  connection: 'Check the connection and try again in a moment.',
  rateBudget: (name: string, limit: string) => `The ${name} allows ${limit}; this run has reached the limit.`,
  timeUp: 'This run has used its time.',
  stopped: 'Stopped before the next request, as you asked.',
  fetchQuota:
    "Google's daily limit of calls from add-ons to other services is used up for your account (20,000 a day, 100,000 with Google Workspace, shared with your other scripts and add-ons): nothing was sent and nothing charged.",
  fetchQuotaAction:
    'It can go on at the latest 24 hours after the limit was reached (Google counts the day from your first call); work that was started goes on by itself when the limit is back.',
};
const T = ERROR_TEXTS;

function serviceName(service: ApiService): string {
  return T[service];
}

export function missingKeyInit(service: ApiService): ApiErrorInit {
  const text = T.noKey(service);
  return {
    service,
    kind: 'missing-key',
    message: text,
    userMessage: text,
    action: T.missingKey,
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
    action: T.correct,
    retryable: false,
  };
}

export function invalidResponseInit(service: ApiService, endpoint: string, what: string): ApiErrorInit {
  return {
    service,
    kind: 'invalid-response',
    endpoint,
    message: `Unexpected answer from ${endpoint}: ${what}`,
    userMessage: T.notUnderstood(serviceName(service)),
    action: T.tryLater,
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
  const unlock = operation === 'unlock';
  return {
    service,
    kind: 'outcome-unknown',
    endpoint,
    status,
    message: `Outcome unknown for ${endpoint}: ${why}. Not retried (the call is charged).`,
    userMessage: unlock ? T.unknownUnlock : T.unknownSend,
    action: unlock ? T.unlockAgain : T.checkTracking,
    retryable: false,
  };
}

/** A service address outside the manifest's urlFetchWhitelist: Apps Script refuses it, so nothing is sent. */
export function addressNotAllowedInit(service: ApiService, baseUrl: string, allowed: string): ApiErrorInit {
  const text = T.notAllowed(serviceName(service), baseUrl, allowed);
  const action = T.changeAddress;
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

/** A URL longer than Apps Script takes: refused before sending. */
export function tooLongInit(
  service: ApiService,
  endpoint: string,
  length: number,
  max: number,
): ApiErrorInit {
  return {
    service,
    kind: 'bad-request',
    endpoint,
    field: 'query',
    message: `The query of ${endpoint} is too long (${length} characters, at most ${max}): ask for fewer ids at a time.`,
    userMessage: T.tooLong,
    action: T.fewer,
    retryable: false,
  };
}

export function networkInit(service: ApiService, endpoint: string, cause: unknown): ApiErrorInit {
  return {
    service,
    kind: 'network',
    endpoint,
    message: `No answer from ${endpoint}: ${describeCause(cause)}`,
    userMessage: T.unreachable(serviceName(service)),
    action: T.connection,
    retryable: true,
  };
}

/** The rate budget cannot free a slot before the caller's deadline. */
export function rateBudgetInit(service: ApiService, waitMs: number, limitText: string): ApiErrorInit {
  return {
    service,
    kind: 'rate-budget',
    message: `Rate budget of the ${serviceName(service)} (${limitText}) is used up; the next slot frees in ${Math.ceil(waitMs / 1000)} s, after the deadline.`,
    userMessage: T.rateBudget(serviceName(service), limitText),
    action: T.continueLater,
    retryable: true,
    retryAfterMs: Math.max(0, Math.ceil(waitMs)),
  };
}

/** The caller's deadline has passed: the run stops before the next request. */
export function timeUpInit(service: ApiService): ApiErrorInit {
  return {
    service,
    kind: 'time-up',
    message: `Deadline reached before the next request to the ${serviceName(service)}.`,
    userMessage: T.timeUp,
    action: T.continueLater,
    retryable: true,
    retryAfterMs: 0,
  };
}

/** The caller asked the run to stop (the user pressed Stop): the requests left are not sent. */
export function cancelledInit(service: ApiService): ApiErrorInit {
  return {
    service,
    kind: 'stopped',
    message: `Stopped before the next request to the ${serviceName(service)}, as asked.`,
    userMessage: T.stopped,
    action: T.continueLater,
    retryable: true,
    retryAfterMs: 0,
  };
}

/** UrlFetchApp exception text without URLs (a query string may hold a phone number or an e-mail). */
function describeCause(cause: unknown): string {
  const text = cause instanceof Error ? cause.message : String(cause);
  return text.replace(/\bhttps?:\/\/\S+/gi, '<url>').slice(0, 300);
}

/** Apps Script's message when the day's URL Fetch calls are used up (Google's "Quotas for Google Services"). */
export const FETCH_QUOTA_PATTERN = /Service invoked too many times for one day: urlfetch/i;

/** The calls Apps Script allows an account a day: 20,000 (consumer), 100,000 (Google Workspace). */
export const FETCH_CALLS_PER_DAY = 20_000;
export const FETCH_CALLS_PER_DAY_WORKSPACE = 100_000;

/** Google's daily limit of calls to other services is reached: nothing was sent, nothing charged. */
export function fetchQuotaInit(service: ApiService, endpoint: string): ApiErrorInit {
  return {
    service,
    kind: 'fetch-quota',
    endpoint,
    message: `Apps Script's daily URL Fetch quota is used up: ${endpoint} was not sent.`,
    userMessage: T.fetchQuota,
    action: T.fetchQuotaAction,
    retryable: true,
    retryAfterMs: HOUR_MS,
  };
}
