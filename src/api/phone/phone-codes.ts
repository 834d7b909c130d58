// Phone-service codes: the body's {code, message} is authoritative, whatever the HTTP status.
import type { ApiErrorFacts, ApiErrorInit, ApiErrorWords } from '../errors';
import { ERROR_TEXTS } from '../error-texts';

const PHONE_CODES = {
  INTERNAL: 1000,
  MISSING_KEY: 1001,
  INVALID_PHONE: 1002,
  INVALID_KEY: 1003,
  INSUFFICIENT_CREDITS: 1004,
  RATE_LIMIT: 1005,
  UPSTREAM: 1006,
  DEDUCT_FAILED: 1007,
} as const;

type CodeMeaning = ApiErrorWords & ApiErrorFacts;

const REFUSED_KEY: CodeMeaning = {
  kind: 'auth',
  userMessage: 'The phone-check service refused the API key (missing or invalid).',
  action: ERROR_TEXTS.settings,
  retryable: false,
};

const TEMPORARY = (code: number): CodeMeaning => ({
  kind: 'server',
  userMessage: `The phone-check service had a temporary failure (code ${code}); a failed check costs nothing.`,
  action: 'Try again later.',
  retryable: true,
});

const MEANINGS: Record<number, (code: number) => CodeMeaning> = {
  [PHONE_CODES.MISSING_KEY]: () => REFUSED_KEY,
  [PHONE_CODES.INVALID_KEY]: () => REFUSED_KEY,
  [PHONE_CODES.INVALID_PHONE]: () => ({
    kind: 'bad-request',
    userMessage: 'The phone-check service says this phone number is not valid.',
    action: 'Write the number in international form, e.g. +14155550123.',
    retryable: false,
  }),
  [PHONE_CODES.INSUFFICIENT_CREDITS]: () => ({
    kind: 'funds',
    unit: 'credits',
    userMessage: 'The phone-check credits are used up.',
    action: 'Add credits to the phone-check account, then check the remaining numbers.',
    retryable: false,
  }),
  [PHONE_CODES.RATE_LIMIT]: () => ({
    kind: 'rate-limit',
    userMessage: 'The phone-check service allows 1000 checks per hour; the limit was reached.',
    action: ERROR_TEXTS.continueLater,
    retryable: true,
  }),
  [PHONE_CODES.INTERNAL]: TEMPORARY,
  [PHONE_CODES.UPSTREAM]: TEMPORARY,
  [PHONE_CODES.DEDUCT_FAILED]: TEMPORARY,
};

const UNKNOWN = (code: number): CodeMeaning => ({
  kind: 'server',
  userMessage: `The phone-check service answered an unknown error code ${code}.`,
  action: 'Try again later; if it keeps happening, report it.',
  retryable: false,
});

export function phoneCodeInit(
  endpoint: string,
  code: number,
  serviceMessage: string | undefined,
  status: number,
  retryAfterMs?: number,
): ApiErrorInit {
  const meaning = (Object.prototype.hasOwnProperty.call(MEANINGS, code) ? MEANINGS[code] : UNKNOWN)(code);
  return {
    service: 'phone',
    endpoint,
    status,
    code,
    detail: serviceMessage,
    message: `${endpoint} answered code ${code}${serviceMessage ? ` (${serviceMessage})` : ''}`,
    ...meaning,
    ...(meaning.kind === 'rate-limit' ? { retryAfterMs } : {}),
  };
}
