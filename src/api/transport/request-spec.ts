// What the clients ask the transport for: one request as data (method, path, query, body, the schema of a
// good answer, what a 404 means, whether it is a paid call), and what comes back.
import type * as z from 'zod/mini';
import type { ApiError } from '../errors';
import type { UnsafeOperation } from '../error-texts';

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
  notFound?: 'company' | 'unlock' | 'mail';
  /**
   * The call that shows whether the address speaks this API (balance, credits): an answer of another shape
   * means a wrong address, not an unexpected answer or a refused key.
   */
  probe?: boolean;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ApiError };

/** `METHOD /path` (no query string: it may hold a phone number or an e-mail filter). */
export function endpointOf(spec: { method: string; path: string }): string {
  return `${spec.method.toUpperCase()} ${spec.path}`;
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
