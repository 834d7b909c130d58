// Typed client of the phone-number checking service (docs/services.md). Authentication is the
// `x-api-key` header; the answer's {code, message} decides the outcome whatever the HTTP status. Every
// check may cost credits: callers cache results (custom functions re-run) and numbers are checked once per
// run even when they repeat.
import { type ApiError, type ApiErrorInit, endsRun } from '../errors';
import { Transport, type TransportOptions, type Outcome, type RequestSpec } from '../transport';
import { normalizePhone } from './phone-number';
import {
  type CreditsResponse,
  CreditsResponseSchema,
  type PhoneCheckResponse,
  PhoneCheckResponseSchema,
} from './phone-schemas';
import { type RateBudget } from '../../platform';
import { interpretPhone } from './phone-answers';

const PHONE_PATHS = {
  check: '/api/wa/check',
  credits: '/api/user/credits',
} as const;

type PhoneCheckStatus = 'registered' | 'not-registered' | 'invalid' | 'error';

export interface PhoneCheckResult {
  /** Position in the input list. */
  index: number;
  /** The number as given (cell value). */
  input: unknown;
  /** Canonical number sent to the service (`+14155550123`), or the given text when it is invalid. */
  phone: string;
  status: PhoneCheckStatus;
  /** Why the number is 'invalid' (local check or code 1002). */
  reason?: string;
  /** Why it is 'error' (service failure after the retries). */
  error?: ApiError;
}

export interface PhoneCheckManyResult {
  /** Numbers with a final answer, in input order. */
  results: PhoneCheckResult[];
  /** Indexes of the input numbers not checked because the run stopped. */
  unchecked: number[];
  /** Why the run stopped early: auth (1001/1003), funds (1004), rate-limit (1005), or for later: rate-budget, time-up (see endsRun). */
  stopped?: ApiError;
}

/** Options of the transport; `maxBatchSize` (most checks in one fetchAll) defaults to 100. */
export type PhoneClientOptions = Omit<TransportOptions, 'service' | 'interpret' | 'extraHeaders'>;

export class PhoneClient {
  private readonly transport: Transport;

  /** No attribution headers: they go to the outreach service only. */
  constructor(options: PhoneClientOptions) {
    this.transport = new Transport({ ...options, service: 'phone', interpret: interpretPhone });
  }

  get budget(): RateBudget {
    return this.transport.budget;
  }

  /** GET /api/user/credits: the credits left. */
  credits(): number {
    const answer = this.transport.request<CreditsResponse>({
      method: 'get',
      path: PHONE_PATHS.credits,
      schema: CreditsResponseSchema(),
      probe: true,
    });
    return answer.result.total;
  }

  /**
   * GET /api/wa/check for one number: true when registered. An invalid number (locally or code 1002) throws
   * ApiError kind 'bad-request'.
   */
  check(phone: unknown): boolean {
    const normalized = normalizePhone(phone);
    if (!normalized.ok) {
      const message = `Phone number is not valid: ${normalized.reason}`;
      throw this.transport.error(badPhoneInit(message));
    }
    return this.transport.request(this.checkSpec(normalized.phone)).result.exist;
  }

  /**
   * Checks many numbers with fetchAll in batches sized to the hourly budget. Invalid numbers get status
   * 'invalid' without a request; repeated numbers are checked once. Stops cleanly on a refused key
   * (1001/1003), no credits (1004), a rate limit that does not clear in time (1005) or the deadline:
   * `results` holds what is done, `unchecked` the rest, `stopped` the reason. `onResults` hears the results
   * of each fetchAll batch as soon as it is answered (paid answers can be stored before the next batch).
   */
  checkMany(
    phones: readonly unknown[],
    onResults?: (results: PhoneCheckResult[]) => void,
  ): PhoneCheckManyResult {
    const results: Array<PhoneCheckResult | undefined> = phones.map(() => undefined);
    const unique = new Map<string, number[]>();
    phones.forEach((input, index) => {
      const normalized = normalizePhone(input);
      if (!normalized.ok) {
        results[index] = {
          index,
          input,
          phone: shownInput(input),
          status: 'invalid',
          reason: normalized.reason,
        };
        return;
      }
      const list = unique.get(normalized.phone);
      if (list) list.push(index);
      else unique.set(normalized.phone, [index]);
    });
    const numbers = [...unique.keys()];
    /** The results of the given numbers (by position in `numbers`) now that their outcome is final. */
    const settle = (settled: number[], outcomes: ReadonlyArray<Outcome<PhoneCheckResponse> | undefined>) => {
      const batch: PhoneCheckResult[] = [];
      for (const k of settled) {
        const outcome = outcomes[k];
        if (!outcome || (!outcome.ok && endsRun(outcome.error))) continue; // nothing charged
        for (const index of unique.get(numbers[k]) ?? []) {
          results[index] = resultOf(index, phones[index], numbers[k], outcome);
          batch.push(results[index]!);
        }
      }
      return batch;
    };
    const answered = this.transport.requestAll(
      numbers.map((phone) => this.checkSpec(phone)),
      endsRun,
      (settled, outcomes) => {
        const batch = settle(settled, outcomes);
        if (onResults && batch.length > 0) onResults(batch);
      },
    );
    settle(
      numbers.map((_, k) => k),
      answered.outcomes,
    );
    const done = results.filter((r): r is PhoneCheckResult => r !== undefined);
    const unchecked = results.map((r, i) => (r ? -1 : i)).filter((i) => i >= 0);
    const stopped = answered.stopped;
    return stopped ? { results: done, unchecked, stopped } : { results: done, unchecked };
  }

  private checkSpec(phone: string): RequestSpec<PhoneCheckResponse> {
    return { method: 'get', path: PHONE_PATHS.check, query: { phone }, schema: PhoneCheckResponseSchema() };
  }
}

function resultOf(
  index: number,
  input: unknown,
  phone: string,
  outcome: Outcome<PhoneCheckResponse>,
): PhoneCheckResult {
  if (outcome.ok) {
    return { index, input, phone, status: outcome.value.result.exist ? 'registered' : 'not-registered' };
  }
  if (outcome.error.kind === 'bad-request') {
    return { index, input, phone, status: 'invalid', reason: 'the service says the number is not valid' };
  }
  return { index, input, phone, status: 'error', error: outcome.error };
}

function badPhoneInit(message: string): ApiErrorInit {
  return {
    service: 'phone',
    kind: 'bad-request',
    endpoint: `GET ${PHONE_PATHS.check}`,
    field: 'phone',
    message,
    userMessage: message,
    action: 'Write the number in international form, e.g. +14155550123: nothing was sent.',
    retryable: false,
  };
}

function shownInput(input: unknown): string {
  if (input === null || input === undefined) return '';
  return String(input).slice(0, 60);
}
