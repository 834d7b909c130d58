// Reading an answer: the status, body and headers UrlFetchApp returned become the validated value or the
// ApiErrorInit of the failure; what each service's failures look like is read by its client's Interpreter.
// A paid call (unlock, sends) whose answer cannot be read has an unknown outcome.
import { type ApiErrorInit, type ApiService } from '../errors';
import { invalidResponseInit, networkInit, outcomeUnknownInit } from '../error-texts';
import { endpointOf, type RequestSpec } from './request-spec';
import { parseWith } from './schema-util';
import { wrongAddressInit } from './wrong-address';
import { HOUR_MS } from '../../platform';

export interface RawResponse {
  status: number;
  text: string;
  headers: Record<string, string>;
}

/** The value, or what went wrong (redacted by the transport before it becomes an ApiError). */
export type Interpreted<T> = { ok: true; value: T } | { ok: false; init: ApiErrorInit };

/** How one service's answers are read (each client gives its own: outreach-answers.ts, phone-answers.ts). */
export type Interpreter = <T>(spec: RequestSpec<T>, response: RawResponse, baseUrl: string) => Interpreted<T>;

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

/** A probe's unexpected answer means the address is wrong (see RequestSpec.probe). */
export function probed<T>(
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

export function parseSuccess<T>(service: ApiService, spec: RequestSpec<T>, text: string): Interpreted<T> {
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

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
