// The transport: the only place that calls UrlFetchApp. Builds URLs and headers, serializes and parses
// JSON, validates answers with the schemas, maps failures to ApiError, takes rate-budget slots and retries.
//
// Retry rules (README "Retries and rate limits"):
//   - rate limit (outreach 429 `rate-limit`, phone code 1005): wait (Retry-After when given, else until the
//     oldest slot of the budget frees) and retry, at most 3 times. A 429 rejects the call before it runs, so
//     this applies to unlock and sends too.
//   - 429 `quota-exceeded`: never retried (kind 'quota').
//   - 5xx and network failures (UrlFetchApp throws) on reads — GET, the free search POST, phone checks —
//     retried after 1 s, 2 s, 4 s (at most 3 times). Phone codes 1000/1006/1007 likewise (a failed check
//     costs nothing).
//   - unlock and the two sends are not idempotent: after an ambiguous failure (UrlFetchApp throws, a 5xx, a
//     2xx whose body cannot be read) they are never retried and fail with kind 'outcome-unknown'. A 502
//     `upstream-error` on a send is a definite failure (the spec refunds it): kind 'server', retryable, not
//     retried automatically.
//   - 4xx (other than 429) and 410 are never retried; phone 1001/1002/1003/1004 neither.
//   - no wait ever ends after the deadline (deadlineMs, else 5 minutes after the call began): the call
//     fails with the last error, or a 'rate-limit' error when the budget had no slot in time. A fetch (or
//     fetchAll batch) starts only when one as long as the longest so far ends before the deadline: an
//     execution cut off during a fetch would lose answers that were paid for.
// Redirects are not followed (the key must not travel to another host); a 3xx is an unexpected answer.
// Secrets: the key is only ever in the Authorization / x-api-key header; every error is redacted.
import type * as z from 'zod/mini';
import {
  addressNotAllowedInit,
  ApiError,
  type ApiErrorInit,
  type ApiService,
  type UnsafeOperation,
  invalidResponseInit,
  missingKeyInit,
  networkInit,
  outcomeUnknownInit,
  outreachProblemInit,
  phoneCodeInit,
  redactInit,
  timeUpInit,
} from './errors';
import { PhoneEnvelopeSchema } from './phone-schemas';
import { isProblemBody, wrongAddressInit } from './wrong-address';
import { checkRequest } from './requests';
import { parseWith } from './schema-util';
import { attributionHeaders } from '../platform/attribution';
import { RateBudget } from '../platform/rate-budget';
import { allowedPrefixesText, isAllowedBaseUrl } from '../platform/url-allowlist';

export type QueryValue = string | number | boolean | undefined | null | readonly (string | number)[];

export interface RequestSpec<T> {
  method: 'get' | 'post';
  /** Path with parameters already encoded, without query string. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Schema of a successful answer. */
  schema: z.ZodMiniType<T>;
  /** Set for unlock and sends: never retried after an ambiguous failure. */
  unsafe?: UnsafeOperation;
  /** What a 404 means here (no value: nothing can be missing, so a 404 means a wrong service address). */
  notFound?: 'company' | 'unlock' | 'task' | 'mail';
  /**
   * The call that shows whether the address speaks this API (balance, credits): an answer of another shape
   * means a wrong address, not an unexpected answer or a refused key.
   */
  probe?: boolean;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ApiError };

export interface BatchResult<T> {
  /** One entry per request, in order; undefined when the run stopped before the request got an answer. */
  outcomes: Array<Outcome<T> | undefined>;
  /** Why the run stopped early (a stopOn error, or the rate budget had no slot before the deadline). */
  stopped?: ApiError;
}

export interface TransportOptions {
  service: ApiService;
  baseUrl: string;
  apiKey: string;
  /** Other secrets to keep out of messages (the other service's key). */
  secrets?: readonly string[];
  budget?: RateBudget;
  /** Absolute time (Date.now() scale) by which every wait must end. */
  deadlineMs?: number;
  /** Send the attribution headers (outreach only). */
  attribution?: boolean;
  maxRateRetries?: number;
  /** Back-off delays of 5xx/network retries on reads; its length bounds the retries. */
  backoffMs?: readonly number[];
  /** Longest total wait of one call when no deadline is given. */
  maxWaitMs?: number;
  /** Most requests in one fetchAll. */
  maxBatchSize?: number;
}

export const DEFAULT_BACKOFF_MS: readonly number[] = [1000, 2000, 4000];
export const DEFAULT_MAX_RATE_RETRIES = 3;
export const DEFAULT_MAX_WAIT_MS = 300_000;
export const DEFAULT_MAX_BATCH_SIZE = 100;
/** Apps Script refuses URLs longer than about 2 KB. */
export const MAX_URL_LENGTH = 2000;
const MAX_SLEEP_MS = 300_000;

interface RawResponse {
  status: number;
  text: string;
  headers: Record<string, string>;
}

interface AttemptState {
  rateRetries: number;
  failRetries: number;
  notBefore: number;
  /** Retried alone: its batch's fetchAll threw, so it may be the request that breaks the connection. */
  solo: boolean;
  lastError?: ApiErrorInit;
}

/** `a=1&b=x%20y`; undefined, null and empty lists are left out; lists are comma-joined. */
export function buildQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [name, raw] of Object.entries(query)) {
    if (raw === undefined || raw === null) continue;
    const value = Array.isArray(raw) ? raw.join(',') : String(raw);
    if (Array.isArray(raw) && raw.length === 0) continue;
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  }
  return parts.join('&');
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Retry-After: seconds or an HTTP date; undefined when absent or unreadable. Capped (one hour by default). */
export function parseRetryAfter(
  value: string | undefined,
  now: number = Date.now(),
  capMs: number = HOUR_MS,
): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(text)) ms = Number(text) * 1000;
  else {
    const date = Date.parse(text);
    if (isNaN(date)) return undefined;
    ms = date - now;
  }
  return Math.min(capMs, Math.max(0, Math.ceil(ms)));
}

export function sleepMs(ms: number): void {
  let left = Math.ceil(ms);
  while (left > 0) {
    const step = Math.min(left, MAX_SLEEP_MS);
    Utilities.sleep(step);
    left -= step;
  }
}

export class Transport {
  readonly service: ApiService;
  readonly baseUrl: string;
  readonly budget: RateBudget;
  deadlineMs?: number;
  private readonly apiKey: string;
  private readonly secrets: string[];
  private readonly attribution: boolean;
  private attributionMemo?: Record<string, string>;
  private readonly maxRateRetries: number;
  private readonly backoff: readonly number[];
  private readonly maxWaitMs: number;
  private readonly maxBatchSize: number;
  /** The longest fetch or fetchAll batch of this transport so far (ms): a new one must fit before the deadline. */
  private longestBatchMs = 0;

  constructor(options: TransportOptions) {
    this.service = options.service;
    this.baseUrl = (options.baseUrl || '').replace(/\/+$/, '');
    this.apiKey = (options.apiKey || '').trim();
    this.secrets = [this.apiKey, ...(options.secrets ?? [])].filter((s) => s !== '');
    this.budget = options.budget ?? new RateBudget({ service: options.service, apiKey: this.apiKey });
    this.deadlineMs = options.deadlineMs;
    this.attribution = options.attribution ?? false;
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

  endpointOf(spec: { method: string; path: string }): string {
    return `${spec.method.toUpperCase()} ${spec.path}`;
  }

  /** Sends one request (with the retries its kind allows); throws ApiError. */
  request<T>(spec: RequestSpec<T>): T {
    const result = this.requestAll([spec]);
    const outcome = result.outcomes[0];
    if (outcome?.ok) return outcome.value;
    throw outcome ? outcome.error : (result.stopped ?? this.error(missingKeyInit(this.service)));
  }

  /**
   * Sends many read requests with UrlFetchApp.fetchAll, in batches sized to the free rate budget, each with
   * its own retries. One request's failure does not fail the others; an error for which stopOn answers true
   * (a refused key, no funds...) stops the run: later requests are not sent. `onSettled` hears, after each
   * batch, which requests have their final outcome now (so a caller can store paid answers at once).
   */
  requestAll<T>(
    specs: readonly RequestSpec<T>[],
    stopOn?: (error: ApiError) => boolean,
    onSettled?: (indexes: number[], outcomes: ReadonlyArray<Outcome<T> | undefined>) => void,
  ): BatchResult<T> {
    const outcomes: Array<Outcome<T> | undefined> = specs.map(() => undefined);
    if (specs.length === 0) return { outcomes };
    if (!this.apiKey) return { outcomes, stopped: this.error(missingKeyInit(this.service)) };
    if (specs.length > 1 && specs.some((s) => s.unsafe)) {
      throw new RangeError('unlock and sends are sent one at a time');
    }
    const deadline = this.deadlineMs ?? Date.now() + this.maxWaitMs;
    const urls: string[] = [];
    for (let i = 0; i < specs.length; i++) {
      const url = this.urlOf(specs[i]);
      if (url.length > MAX_URL_LENGTH) {
        outcomes[i] = {
          ok: false,
          error: this.error({
            service: this.service,
            kind: 'bad-request',
            endpoint: this.endpointOf(specs[i]),
            field: 'query',
            message: `The query of ${this.endpointOf(specs[i])} is too long (${url.length} characters, at most ${MAX_URL_LENGTH}): ask for fewer ids at a time.`,
            userMessage: 'The request is too long: ask for fewer items at a time.',
            action: 'Ask for fewer items at a time.',
            retryable: false,
          }),
        };
      }
      urls.push(url);
    }
    const states: AttemptState[] = specs.map(() => ({
      rateRetries: 0,
      failRetries: 0,
      notBefore: 0,
      solo: false,
    }));
    let pending = specs.map((_, i) => i).filter((i) => outcomes[i] === undefined);
    let stopped: ApiError | undefined;

    while (pending.length > 0 && !stopped) {
      const now = Date.now();
      if (now + this.longestBatchMs >= deadline) {
        stopped = this.error(timeUpInit(this.service));
        break;
      }
      const ready = pending.filter((i) => states[i].notBefore <= now);
      if (ready.length === 0) {
        const next = Math.min(...pending.map((i) => states[i].notBefore));
        sleepMs(next - now);
        continue;
      }
      const soloIndex = ready.find((i) => states[i].solo);
      let batch = soloIndex !== undefined ? [soloIndex] : ready.slice(0, this.maxBatchSize);
      try {
        const granted = this.budget.reserveUpTo(batch.length, deadline - this.longestBatchMs);
        batch = batch.slice(0, granted);
      } catch (error) {
        if (error instanceof ApiError) {
          stopped = this.error(error.toJSON());
          break;
        }
        throw error;
      }
      const started = Date.now();
      const answers = this.fetchBatch(batch.map((i) => this.fetchRequest(specs[i], urls[i])));
      this.longestBatchMs = Math.max(this.longestBatchMs, Date.now() - started);
      const batchThrew = batch.length > 1 && answers.every((a) => 'thrown' in a);
      for (let k = 0; k < batch.length; k++) {
        const i = batch[k];
        const spec = specs[i];
        const answer = answers[k];
        const result: Outcome<T> | { ok: false; init: ApiErrorInit } =
          'thrown' in answer
            ? { ok: false, init: this.thrownInit(spec, answer.thrown) }
            : this.service === 'outreach'
              ? this.interpretOutreach(spec, answer)
              : this.interpretPhone(spec, answer);
        if (result.ok) {
          outcomes[i] = result;
          continue;
        }
        const init = 'init' in result ? result.init : result.error.toJSON();
        const state = states[i];
        state.lastError = init;
        const delay = this.retryDelay(spec, init, state);
        if (delay !== undefined && Date.now() + delay <= deadline) {
          state.notBefore = Date.now() + delay;
          if (batchThrew) state.solo = true;
          this.log(
            `${this.endpointOf(spec)}: ${init.kind}${init.status ? ` ${init.status}` : ''}${init.code ? ` code ${init.code}` : ''}; retry in ${delay} ms`,
          );
          continue;
        }
        const error = this.error(init);
        outcomes[i] = { ok: false, error };
        if (stopOn?.(error) || error.kind === 'address-not-allowed') stopped = error;
      }
      if (onSettled)
        onSettled(
          batch.filter((i) => outcomes[i] !== undefined),
          outcomes,
        );
      pending = pending.filter((i) => outcomes[i] === undefined);
    }
    return stopped ? { outcomes, stopped } : { outcomes };
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
      return Math.max(delay, init.retryAfterMs ?? 0);
    }
    return undefined;
  }

  private urlOf(spec: RequestSpec<unknown>): string {
    const query = buildQuery(spec.query);
    return `${this.baseUrl}${spec.path}${query ? `?${query}` : ''}`;
  }

  private headers(): Record<string, string> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.service === 'outreach') {
      if (this.attribution) {
        if (!this.attributionMemo) this.attributionMemo = attributionHeaders(this.secrets);
        Object.assign(headers, this.attributionMemo);
      }
      headers.Authorization = `ApiKey ${this.apiKey}`;
    } else {
      headers['x-api-key'] = this.apiKey;
    }
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

  private thrownInit(spec: RequestSpec<unknown>, thrown: unknown): ApiErrorInit {
    // Apps Script's own allowlist refusal: the request never left, so it is neither retried nor unknown.
    if (/has not been whitelisted/.test(String(thrown))) return this.notAllowedInit();
    const endpoint = this.endpointOf(spec);
    const init = networkInit(this.service, endpoint, thrown);
    return spec.unsafe
      ? outcomeUnknownInit(this.service, endpoint, spec.unsafe, `the connection failed (${init.message})`)
      : init;
  }

  private interpretOutreach<T>(
    spec: RequestSpec<T>,
    response: RawResponse,
  ): Outcome<T> | { ok: false; init: ApiErrorInit } {
    const endpoint = this.endpointOf(spec);
    const { status } = response;
    if (status >= 200 && status <= 299)
      return this.probed(spec, status, this.parseSuccess(spec, response.text));
    if (spec.probe && status < 500 && status !== 429 && !isProblemBody(response.text)) {
      const why = `answered ${status} without a problem body`;
      return { ok: false, init: wrongAddressInit('outreach', endpoint, this.baseUrl, status, why) };
    }
    // A quota's Retry-After may be hours away (a daily reset): not capped like a rate limit's.
    const retryAfterMs = parseRetryAfter(
      response.headers['retry-after'],
      Date.now(),
      status === 429 ? DAY_MS : undefined,
    );
    return {
      ok: false,
      init: outreachProblemInit(
        {
          service: 'outreach',
          endpoint,
          baseUrl: this.baseUrl,
          notFound: spec.notFound,
          unsafe: spec.unsafe,
        },
        status,
        response.text,
        retryAfterMs,
      ),
    };
  }

  private interpretPhone<T>(
    spec: RequestSpec<T>,
    response: RawResponse,
  ): Outcome<T> | { ok: false; init: ApiErrorInit } {
    const endpoint = this.endpointOf(spec);
    const { status } = response;
    const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
    const json = parseJson(response.text);
    const envelope = json.ok ? PhoneEnvelopeSchema.safeParse(json.value) : undefined;
    // The service answers every failure with a code and never a 404: a 404, or a 4xx without a code, comes
    // from something else at that address.
    if (status === 404 || (!envelope?.success && status >= 400 && status < 500 && status !== 429)) {
      const why = `answered ${status}${envelope?.success ? ` with code ${envelope.data.code}` : ' without a code'}`;
      return { ok: false, init: wrongAddressInit('phone', endpoint, this.baseUrl, status, why) };
    }
    if (envelope?.success) {
      const { code, message } = envelope.data;
      if (code === 0) return this.probed(spec, status, this.parseSuccess(spec, response.text));
      return { ok: false, init: phoneCodeInit(endpoint, code, message ?? undefined, status, retryAfterMs) };
    }
    // No {code} envelope: fall back on the HTTP status.
    if (status >= 500 || status === 429) {
      return {
        ok: false,
        init: {
          service: 'phone',
          kind: status === 429 ? 'rate-limit' : 'server',
          endpoint,
          status,
          retryAfterMs,
          message: `${endpoint} answered ${status} without a code`,
          userMessage:
            status === 429
              ? 'The phone-check service allows 1000 checks per hour; the limit was reached.'
              : `The phone-check service had a temporary failure (${status}).`,
          action: 'Try again later.',
          retryable: true,
        },
      };
    }
    const what = json.ok ? parseWith(PhoneEnvelopeSchema, json.value) : undefined;
    const detail = what && !what.ok ? `${what.path}: ${what.message}` : 'body is not JSON';
    return this.probed(spec, status, {
      ok: false,
      init: { ...invalidResponseInit('phone', endpoint, detail), status },
    });
  }

  /** A probe's unexpected answer means the address is wrong (see RequestSpec.probe). */
  private probed<T>(
    spec: RequestSpec<T>,
    status: number,
    outcome: Outcome<T> | { ok: false; init: ApiErrorInit },
  ): Outcome<T> | { ok: false; init: ApiErrorInit } {
    if (outcome.ok || !spec.probe || !('init' in outcome) || outcome.init.kind !== 'invalid-response')
      return outcome;
    const why = `unexpected answer (${outcome.init.message})`;
    return {
      ok: false,
      init: wrongAddressInit(this.service, this.endpointOf(spec), this.baseUrl, status, why),
    };
  }

  private parseSuccess<T>(
    spec: RequestSpec<T>,
    text: string,
  ): Outcome<T> | { ok: false; init: ApiErrorInit } {
    const endpoint = this.endpointOf(spec);
    const json = parseJson(text);
    const parsed = json.ok ? parseWith(spec.schema, json.value) : undefined;
    if (parsed?.ok) return parsed;
    const init = invalidResponseInit(
      this.service,
      endpoint,
      parsed ? `${parsed.path}: ${parsed.message}` : 'body is not JSON',
    );
    return {
      ok: false,
      init: spec.unsafe ? outcomeUnknownInit(this.service, endpoint, spec.unsafe, init.message) : init,
    };
  }

  private log(line: string): void {
    try {
      console.log(`[${this.service}] ${line}`.split(this.apiKey || '\u0000').join('[redacted]'));
    } catch {
      // logging is optional
    }
  }
}

function readResponse(response: GoogleAppsScript.URL_Fetch.HTTPResponse): RawResponse {
  const headers: Record<string, string> = {};
  try {
    const raw = response.getHeaders() as Record<string, unknown>;
    for (const [name, value] of Object.entries(raw ?? {})) {
      headers[name.toLowerCase()] = Array.isArray(value) ? String(value[0]) : String(value);
    }
  } catch {
    // headers are optional (Retry-After only)
  }
  return { status: response.getResponseCode(), text: response.getContentText(), headers };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
