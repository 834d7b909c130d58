// The state of one Transport.requestAll call (its requests, their attempts and outcomes, why it stopped) and
// the sleep it waits with. Kept apart from http.ts, which does the sending.
import type { ApiError } from '../errors';
import type { Outcome, RequestSpec } from './request-spec';

export interface BatchResult<T> {
  /** One entry per request, in order; undefined when the run stopped before the request got an answer. */
  outcomes: Array<Outcome<T> | undefined>;
  /** Why the run stopped early (a stopOn error, or the rate budget had no slot before the deadline). */
  stopped?: ApiError;
}

/** Utilities.sleep accepts at most 5 minutes. */
const MAX_SLEEP_MS = 300_000;

export interface AttemptState {
  rateRetries: number;
  failRetries: number;
  notBefore: number;
  /** Retried alone: its batch's fetchAll threw, so it may be the request that breaks the connection. */
  solo: boolean;
}

/** One requestAll call: its requests, their URLs, what each has come to, and why the run stopped. */
export interface Run<T> {
  specs: readonly RequestSpec<T>[];
  urls: string[];
  states: AttemptState[];
  outcomes: Array<Outcome<T> | undefined>;
  deadline: number;
  stopOn?: (error: ApiError) => boolean;
  onSettled?: Settled<T>;
  /** Asked before each request goes and during waits for the rate budget: true ends the run there. */
  cancelled?: () => boolean;
  stopped?: ApiError;
}

/** Hears, after each batch, which requests have their final outcome now. */
export type Settled<T> = (indexes: number[], outcomes: ReadonlyArray<Outcome<T> | undefined>) => void;

export function sleepMs(ms: number): void {
  let left = Math.ceil(ms);
  while (left > 0) {
    const step = Math.min(left, MAX_SLEEP_MS);
    Utilities.sleep(step);
    left -= step;
  }
}
