// The transport: the only place that calls UrlFetchApp. It owns the URL, headers and JSON body of a request,
// the rate-budget slot each takes, the retries (the rules: docs/design.md, "Retries"), and one requestAll's
// state; answers are read in answers.ts. It must never: follow a redirect (the key must not travel to another
// host), put a key anywhere but the Authorization / x-api-key header or into an error (every error goes
// through redactInit), retry a paid call whose outcome is unknown (unlock, the two sends), let a wait end after
// the deadline (deadlineMs, else 5 minutes after the call began: the call ends with 'time-up', 'stopped' or
// 'rate-budget'), start a fetch that would end after it (an execution cut off during a fetch loses answers
// that were paid for), or read a property (its key, base URL, secrets and headers are given).
import type * as z from 'zod/mini';
import { ApiError, type ApiErrorInit, type ApiService } from '../errors';
import {
  addressNotAllowedInit,
  cancelledInit,
  FETCH_QUOTA_PATTERN,
  fetchQuotaInit,
  missingKeyInit,
  rateBudgetInit,
  timeUpInit,
  tooLongInit,
} from '../error-texts';
import { type Interpreted, type Interpreter, type RawResponse, readResponse, thrownInit } from './answers';
import { redact, redactInit } from './redact';
import { buildQuery, endpointOf, type Outcome, type RequestSpec } from './request-spec';
import { checkRequest } from './requests';
import { RateBudget, RateDeadlineError, allowedPrefixesText, isAllowedBaseUrl } from '../../platform';

// One requestAll call's state: its requests, their attempts and outcomes, why it stopped.

export interface BatchResult<T> {
  /** One entry per request, in order; undefined when the run stopped before the request got an answer. */
  outcomes: Array<Outcome<T> | undefined>;
  /** Why the run stopped early (a stopOn error, or the rate budget had no slot before the deadline). */
  stopped?: ApiError;
}

/** Utilities.sleep accepts at most 5 minutes. */
const MAX_SLEEP_MS = 300_000;

interface AttemptState {
  rateRetries: number;
  failRetries: number;
  notBefore: number;
  /** Retried alone: its batch's fetchAll threw, so it may be the request that breaks the connection. */
  solo: boolean;
}

/** One requestAll call: its requests, their URLs, what each has come to, and why the run stopped. */
interface Run<T> {
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
  /** Slots reserved at once for more requests than one fetch sends (see nextBatch). */
  block?: SlotBlock;
}

/** Rate slots taken in one reservation (each with the time it may be used), and when each used one went. */
interface SlotBlock {
  times: number[];
  used: number;
  sent: number[];
}

/** Hears, after each batch, which requests have their final outcome now. */
type Settled<T> = (indexes: number[], outcomes: ReadonlyArray<Outcome<T> | undefined>) => void;

function sleepMs(ms: number): void {
  let left = Math.ceil(ms);
  while (left > 0) {
    const step = Math.min(left, MAX_SLEEP_MS);
    Utilities.sleep(step);
    left -= step;
  }
}

export interface TransportOptions {
  service: ApiService;
  /** How the service's answers are read (its client's). */
  interpret: Interpreter;
  baseUrl: string;
  apiKey: string;
  /** Other secrets to keep out of messages (the other service's key). */
  secrets?: readonly string[];
  budget?: RateBudget;
  /** Absolute time (Date.now() scale) by which every wait must end. */
  deadlineMs?: number;
  /** Extra headers of every request (the outreach attribution headers), asked for once, at the first one. */
  extraHeaders?: () => Record<string, string>;
  maxRateRetries?: number;
  /** Back-off delays of 5xx/network retries on reads; its length bounds the retries. */
  backoffMs?: readonly number[];
  /** Longest total wait of one call when no deadline is given. */
  maxWaitMs?: number;
  /** Most requests in one fetchAll. */
  maxBatchSize?: number;
}

const DEFAULT_BACKOFF_MS: readonly number[] = [1000, 2000, 4000];
const DEFAULT_MAX_RATE_RETRIES = 3;
const DEFAULT_MAX_WAIT_MS = 300_000;
const DEFAULT_MAX_BATCH_SIZE = 100;
/** Apps Script refuses URLs longer than about 2 KB. */
const MAX_URL_LENGTH = 2000;
/** A cancellable run asks again after this much of a wait for the rate budget. */
const CANCEL_POLL_MS = 5000;

export class Transport {
  readonly service: ApiService;
  readonly baseUrl: string;
  readonly budget: RateBudget;
  deadlineMs?: number;
  private readonly interpret: Interpreter;
  private readonly apiKey: string;
  private readonly secrets: string[];
  private readonly extraHeaders?: () => Record<string, string>;
  private extraHeadersMemo?: Record<string, string>;
  private readonly maxRateRetries: number;
  private readonly backoff: readonly number[];
  private readonly maxWaitMs: number;
  private readonly maxBatchSize: number;
  /** The longest fetch or fetchAll batch of this transport so far (ms): a new one must fit before the deadline. */
  private longestBatchMs = 0;

  constructor(options: TransportOptions) {
    this.service = options.service;
    this.interpret = options.interpret;
    this.baseUrl = (options.baseUrl || '').replace(/\/+$/, '');
    this.apiKey = (options.apiKey || '').trim();
    this.secrets = [this.apiKey, ...(options.secrets ?? [])].filter((s) => s !== '');
    this.budget = options.budget ?? new RateBudget({ service: options.service, apiKey: this.apiKey });
    this.deadlineMs = options.deadlineMs;
    this.extraHeaders = options.extraHeaders;
    this.maxRateRetries = options.maxRateRetries ?? DEFAULT_MAX_RATE_RETRIES;
    this.backoff = options.backoffMs ?? DEFAULT_BACKOFF_MS;
    this.maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    this.maxBatchSize = Math.max(1, options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE);
    if (!isAllowedBaseUrl(this.baseUrl)) throw this.error(this.notAllowedInit());
  }

  /** Apps Script refuses the address (urlFetchWhitelist): nothing can be sent, so nothing is retried. */
  private notAllowedInit(): ApiErrorInit {
    return addressNotAllowedInit(this.service, this.baseUrl, allowedPrefixesText());
  }

  /** An ApiError with every secret removed. */
  error(init: ApiErrorInit): ApiError {
    return new ApiError(redactInit(init, this.secrets));
  }

  /** Checks a request before anything is sent (kind 'bad-request', keys redacted from the message). */
  check<S extends z.ZodMiniType>(endpoint: string, schema: S, data: unknown): z.output<S> {
    return checkRequest(this.service, endpoint, schema, data, this.secrets);
  }

  /** Sends one request (with the retries its kind allows); throws ApiError. */
  request<T>(spec: RequestSpec<T>): T {
    const result = this.requestAll([spec]);
    const outcome = result.outcomes[0];
    if (outcome?.ok) return outcome.value;
    throw outcome ? outcome.error : (result.stopped ?? this.error(missingKeyInit(this.service)));
  }

  /**
   * Sends many requests (reads, or sends) with UrlFetchApp.fetchAll, in batches sized to the free rate
   * budget, each with the retries its kind allows. One request's failure does not fail the others; an error for which stopOn answers true
   * (a refused key, no funds...) stops the run: later requests are not sent. `onSettled` hears, after each
   * batch, which requests have their final outcome now (so a caller can store paid answers at once).
   * `cancelled` (the user pressed Stop) is asked before each batch and every few seconds of a wait for the
   * rate budget: true ends the run, the requests not sent yet stay unsent.
   */
  requestAll<T>(
    specs: readonly RequestSpec<T>[],
    stopOn?: (error: ApiError) => boolean,
    onSettled?: Settled<T>,
    cancelled?: () => boolean,
  ): BatchResult<T> {
    const outcomes: Array<Outcome<T> | undefined> = specs.map(() => undefined);
    if (specs.length === 0) return { outcomes };
    if (!this.apiKey) return { outcomes, stopped: this.error(missingKeyInit(this.service)) };
    // Sends may go together: each carries its own tag, so an answer lost with the batch is settled per send.
    if (specs.length > 1 && specs.some((s) => s.unsafe && s.unsafe !== 'send')) {
      throw new RangeError('unlocks are sent one at a time');
    }
    const run: Run<T> = {
      specs,
      urls: specs.map((spec) => this.urlOf(spec)),
      states: specs.map(() => ({ rateRetries: 0, failRetries: 0, notBefore: 0, solo: false })),
      outcomes,
      deadline: this.deadlineMs ?? Date.now() + this.maxWaitMs,
      stopOn,
      onSettled,
      cancelled,
    };
    run.urls.forEach((url, i) => {
      if (url.length > MAX_URL_LENGTH) {
        const init = tooLongInit(this.service, endpointOf(specs[i]), url.length, MAX_URL_LENGTH);
        outcomes[i] = { ok: false, error: this.error(init) };
      }
    });
    let pending = specs.map((_, i) => i).filter((i) => outcomes[i] === undefined);
    try {
      while (pending.length > 0 && !run.stopped) {
        const batch = this.nextBatch(run, pending);
        if (batch.length > 0) this.send(run, batch);
        pending = pending.filter((i) => outcomes[i] === undefined);
      }
    } finally {
      this.closeBlock(run);
    }
    return run.stopped ? { outcomes, stopped: run.stopped } : { outcomes };
  }

  /**
   * The requests to send now, with budget slots taken; empty after sleeping until one may go, or when the
   * run stopped (the deadline passed, or the budget has no slot before it).
   */
  private nextBatch<T>(run: Run<T>, pending: number[]): number[] {
    const now = Date.now();
    if (now + this.longestBatchMs >= run.deadline) {
      run.stopped = this.error(timeUpInit(this.service));
      return [];
    }
    const ready = pending.filter((i) => run.states[i].notBefore <= now);
    if (ready.length === 0) {
      sleepMs(Math.min(...pending.map((i) => run.states[i].notBefore)) - now);
      return [];
    }
    if (run.cancelled && this.waitCancelled(run, run.cancelled, now)) return [];
    const soloIndex = ready.find((i) => run.states[i].solo);
    const batch = soloIndex !== undefined ? [soloIndex] : ready.slice(0, this.maxBatchSize);
    if (run.block && run.block.used < run.block.times.length) return this.fromBlock(run, batch, now);
    this.closeBlock(run);
    try {
      // More ready than one fetch sends (a run that Stop may end between fetches): the slots of all of them
      // are taken at once, each with its time, one lock and cache write instead of one a fetch.
      if (soloIndex === undefined && ready.length > batch.length) {
        const times = this.budget.reserveSchedule(ready.length, run.deadline - this.longestBatchMs);
        run.block = { times, used: 0, sent: [] };
        return this.fromBlock(run, batch, Date.now());
      }
      return batch.slice(0, this.budget.reserveUpTo(batch.length, run.deadline - this.longestBatchMs));
    } catch (error) {
      if (!(error instanceof RateDeadlineError)) throw error;
      run.stopped = this.error(rateBudgetInit(this.service, error.waitMs, error.limitText));
      return [];
    }
  }

  /**
   * For a run that may be cancelled: true when it was (the run stops), or after sleeping one poll of a long
   * wait for the rate budget (the caller asks again). A wait that ends after the deadline is left to the
   * budget, which says so at once.
   */
  private waitCancelled<T>(run: Run<T>, cancelled: () => boolean, now: number): boolean {
    if (cancelled()) {
      run.stopped = this.error(cancelledInit(this.service));
      return true;
    }
    if (run.block && run.block.used < run.block.times.length) return false; // slots in hand
    const wait = this.budget.waitFor(1, now);
    if (wait <= CANCEL_POLL_MS || now + wait >= run.deadline - this.longestBatchMs) return false;
    sleepMs(CANCEL_POLL_MS);
    return true;
  }

  /**
   * The first requests of the batch whose block slots may be used now; none, after sleeping until the next
   * slot's time (a few seconds at most when Stop may end the run: it is asked again first).
   */
  private fromBlock<T>(run: Run<T>, batch: number[], now: number): number[] {
    const block = run.block!;
    let n = 0;
    while (n < batch.length && block.used + n < block.times.length && block.times[block.used + n] <= now) n++;
    if (n === 0) {
      const wait = block.times[block.used] - now;
      sleepMs(run.cancelled ? Math.min(wait, CANCEL_POLL_MS) : wait);
      return [];
    }
    block.used += n;
    return batch.slice(0, n);
  }

  /**
   * A block's slots were stamped with the times they could be used; their requests went at those times or
   * later, so each is stamped again with its request's time (the unused ones are given back): none frees early.
   */
  private closeBlock<T>(run: Run<T>): void {
    const block = run.block;
    if (!block) return;
    run.block = undefined;
    // Every slot used, each request within half the guard of its slot's time: the stamps stand as they are.
    const late = block.sent.some((at, i) => at - block.times[i] > this.budget.guardMs / 2);
    if (late || block.sent.length !== block.times.length) this.budget.restamp(block.times, block.sent);
  }

  /** Sends one batch and settles each answer: a value, a retry later, or a final error. */
  private send<T>(run: Run<T>, batch: number[]): void {
    const started = Date.now();
    if (run.block) for (let k = 0; k < batch.length; k++) run.block.sent.push(started);
    const answers = this.fetchBatch(batch.map((i) => this.fetchRequest(run.specs[i], run.urls[i])));
    this.longestBatchMs = Math.max(this.longestBatchMs, Date.now() - started);
    const batchThrew = batch.length > 1 && answers.every((a) => 'thrown' in a);
    batch.forEach((i, k) => {
      const spec = run.specs[i];
      const answer = answers[k];
      const result: Interpreted<T> =
        'thrown' in answer
          ? { ok: false, init: this.thrownInit(spec, answer.thrown) }
          : this.interpret(spec, answer, this.baseUrl);
      if (result.ok) {
        run.outcomes[i] = result;
        return;
      }
      const state = run.states[i];
      const delay = this.retryDelay(spec, result.init, state);
      if (delay !== undefined && Date.now() + delay <= run.deadline) {
        state.notBefore = Date.now() + delay;
        if (batchThrew) state.solo = true;
        this.logRetry(spec, result.init, delay);
        return;
      }
      const error = this.error(result.init);
      run.outcomes[i] = { ok: false, error };
      if (run.stopOn?.(error) || error.kind === 'address-not-allowed' || error.kind === 'fetch-quota') {
        run.stopped = error;
      }
    });
    if (run.onSettled) {
      run.onSettled(
        batch.filter((i) => run.outcomes[i] !== undefined),
        run.outcomes,
      );
    }
  }

  /** Delay before the next attempt, or undefined when the error is final. */
  private retryDelay(
    spec: RequestSpec<unknown>,
    init: ApiErrorInit,
    state: AttemptState,
  ): number | undefined {
    if (init.kind === 'rate-limit' && state.rateRetries < this.maxRateRetries) {
      state.rateRetries++;
      return init.retryAfterMs ?? this.budget.backoffMs();
    }
    const transient = init.kind === 'network' || (init.kind === 'server' && init.retryable);
    if (transient && !spec.unsafe && state.failRetries < this.backoff.length) {
      const delay = this.backoff[state.failRetries];
      state.failRetries++;
      return Math.max(delay, init.kind === 'server' ? (init.retryAfterMs ?? 0) : 0);
    }
    return undefined;
  }

  private thrownInit(spec: RequestSpec<unknown>, thrown: unknown): ApiErrorInit {
    // Apps Script's own allowlist refusal: the request never left, so it is neither retried nor unknown.
    if (/has not been whitelisted/.test(String(thrown))) return this.notAllowedInit();
    // Apps Script's daily quota: the request never left, so it is neither retried nor of unknown outcome.
    if (FETCH_QUOTA_PATTERN.test(String(thrown))) return fetchQuotaInit(this.service, endpointOf(spec));
    return thrownInit(this.service, spec, thrown);
  }

  private urlOf(spec: RequestSpec<unknown>): string {
    const query = buildQuery(spec.query);
    return `${this.baseUrl}${spec.path}${query ? `?${query}` : ''}`;
  }

  private headers(): Record<string, string> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.extraHeaders) {
      if (!this.extraHeadersMemo) this.extraHeadersMemo = this.extraHeaders();
      Object.assign(headers, this.extraHeadersMemo);
    }
    if (this.service === 'outreach') headers.Authorization = `ApiKey ${this.apiKey}`;
    else headers['x-api-key'] = this.apiKey;
    return headers;
  }

  private fetchRequest(spec: RequestSpec<unknown>, url: string): GoogleAppsScript.URL_Fetch.URLFetchRequest {
    const request: GoogleAppsScript.URL_Fetch.URLFetchRequest = {
      url,
      method: spec.method,
      headers: this.headers(),
      muteHttpExceptions: true,
      followRedirects: false,
    };
    if (spec.method === 'post') {
      request.contentType = 'application/json';
      request.payload = JSON.stringify(spec.body ?? {});
    }
    return request;
  }

  /** One fetch, or fetchAll for several; a throw is kept as the answer of every request of the batch. */
  private fetchBatch(
    requests: GoogleAppsScript.URL_Fetch.URLFetchRequest[],
  ): Array<RawResponse | { thrown: unknown }> {
    try {
      if (requests.length === 1) {
        const { url, ...options } = requests[0];
        return [readResponse(UrlFetchApp.fetch(url, options))];
      }
      return UrlFetchApp.fetchAll(requests).map(readResponse);
    } catch (thrown) {
      return requests.map(() => ({ thrown }));
    }
  }

  private logRetry(spec: RequestSpec<unknown>, init: ApiErrorInit, delay: number): void {
    const status = `${init.status ? ` ${init.status}` : ''}${init.code ? ` code ${init.code}` : ''}`;
    const line = `[${this.service}] ${endpointOf(spec)}: ${init.kind}${status}; retry in ${delay} ms`;
    try {
      console.log(redact(line, this.secrets));
    } catch {
      // logging is optional
    }
  }
}
