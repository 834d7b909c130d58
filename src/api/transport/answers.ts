// Reading an answer: the status, body and headers UrlFetchApp returned become the validated value or the
// ApiErrorInit of the failure (outreach: the HTTP status and the RFC 7807 body; phone: the {code} envelope).
// A paid call (unlock, sends) whose answer cannot be read has an unknown outcome.
import { type ApiErrorInit, type ApiService } from '../errors';
import { invalidResponseInit, networkInit, outcomeUnknownInit } from '../error-texts';
import { phoneCodeInit } from '../phone/phone-codes';
import { PhoneEnvelopeSchema } from '../phone/phone-schemas';
import { outreachProblemInit } from '../outreach/problem';
import { endpointOf, type RequestSpec } from './request-spec';
import { parseWith } from './schema-util';
import { isProblemBody, wrongAddressInit } from './wrong-address';
import { HOUR_MS, DAY_MS } from '../../platform/time';

export interface RawResponse {
  status: number;
  text: string;
  headers: Record<string, string>;
}

/** The value, or what went wrong (redacted by the transport before it becomes an ApiError). */
export type Interpreted<T> = { ok: true; value: T } | { ok: false; init: ApiErrorInit };

export function readResponse(response: GoogleAppsScript.URL_Fetch.HTTPResponse): RawResponse {
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

/** UrlFetchApp threw (no answer): a network failure, or an unknown outcome for a paid call. */
export function thrownInit(service: ApiService, spec: RequestSpec<unknown>, thrown: unknown): ApiErrorInit {
  const endpoint = endpointOf(spec);
  const init = networkInit(service, endpoint, thrown);
  return spec.unsafe
    ? outcomeUnknownInit(service, endpoint, spec.unsafe, `the connection failed (${init.message})`)
    : init;
}

export function interpretOutreach<T>(
  spec: RequestSpec<T>,
  response: RawResponse,
  baseUrl: string,
): Interpreted<T> {
  const { status } = response;
  if (status >= 200 && status <= 299) {
    return probed('outreach', spec, baseUrl, status, parseSuccess('outreach', spec, response.text));
  }
  if (spec.probe && status < 500 && status !== 429 && !isProblemBody(response.text)) {
    const why = `answered ${status} without a problem body`;
    return { ok: false, init: wrongAddressInit('outreach', endpointOf(spec), baseUrl, status, why) };
  }
  const ctx = {
    service: 'outreach' as const,
    endpoint: endpointOf(spec),
    baseUrl,
    notFound: spec.notFound,
    unsafe: spec.unsafe,
  };
  // A quota's Retry-After may be hours away (a daily reset): not capped like a rate limit's.
  const retryAfterMs = parseRetryAfter(
    response.headers['retry-after'],
    Date.now(),
    status === 429 ? DAY_MS : undefined,
  );
  return { ok: false, init: outreachProblemInit(ctx, status, response.text, retryAfterMs) };
}

/** The body's {code, message} decides, whatever the HTTP status; without it, the status does. */
export function interpretPhone<T>(
  spec: RequestSpec<T>,
  response: RawResponse,
  baseUrl: string,
): Interpreted<T> {
  const endpoint = endpointOf(spec);
  const { status } = response;
  const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
  const json = parseJson(response.text);
  const envelope = json.ok ? PhoneEnvelopeSchema().safeParse(json.value) : undefined;
  // The service answers every failure with a code and never a 404: a 404, or a 4xx without a code, comes
  // from something else at that address.
  if (status === 404 || (!envelope?.success && status >= 400 && status < 500 && status !== 429)) {
    const why = `answered ${status}${envelope?.success ? ` with code ${envelope.data.code}` : ' without a code'}`;
    return { ok: false, init: wrongAddressInit('phone', endpoint, baseUrl, status, why) };
  }
  if (envelope?.success) {
    const { code, message } = envelope.data;
    if (code === 0) return probed('phone', spec, baseUrl, status, parseSuccess('phone', spec, response.text));
    return { ok: false, init: phoneCodeInit(endpoint, code, message ?? undefined, status, retryAfterMs) };
  }
  if (status >= 500 || status === 429) {
    return { ok: false, init: phoneStatusInit(endpoint, status, retryAfterMs) };
  }
  const what = json.ok ? parseWith(PhoneEnvelopeSchema(), json.value) : undefined;
  const detail = what && !what.ok ? `${what.path}: ${what.message}` : 'body is not JSON';
  return probed('phone', spec, baseUrl, status, {
    ok: false,
    init: { ...invalidResponseInit('phone', endpoint, detail), status },
  });
}

/** A probe's unexpected answer means the address is wrong (see RequestSpec.probe). */
function probed<T>(
  service: ApiService,
  spec: RequestSpec<T>,
  baseUrl: string,
  status: number,
  outcome: Interpreted<T>,
): Interpreted<T> {
  if (outcome.ok || !spec.probe || outcome.init.kind !== 'invalid-response') return outcome;
  const why = `unexpected answer (${outcome.init.message})`;
  return { ok: false, init: wrongAddressInit(service, endpointOf(spec), baseUrl, status, why) };
}

/** A 429 or 5xx of the phone service without a {code} envelope. */
function phoneStatusInit(endpoint: string, status: number, retryAfterMs?: number): ApiErrorInit {
  return {
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
  };
}

function parseSuccess<T>(service: ApiService, spec: RequestSpec<T>, text: string): Interpreted<T> {
  const endpoint = endpointOf(spec);
  const json = parseJson(text);
  const parsed = json.ok ? parseWith(spec.schema, json.value) : undefined;
  if (parsed?.ok) return parsed;
  const init = invalidResponseInit(
    service,
    endpoint,
    parsed ? `${parsed.path}: ${parsed.message}` : 'body is not JSON',
  );
  return {
    ok: false,
    init: spec.unsafe ? outcomeUnknownInit(service, endpoint, spec.unsafe, init.message) : init,
  };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
