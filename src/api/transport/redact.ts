// Redaction: no API key may reach a message, a log line or an error field.
import type { ApiErrorInit } from '../errors';

const REDACTED = '[redacted]';

/** Replaces every occurrence of a secret (API key) in a text. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** Returns a copy of init whose string fields contain no secret. */
export function redactInit(init: ApiErrorInit, secrets: readonly string[]): ApiErrorInit {
  const copy: Record<string, unknown> = { ...init };
  for (const [key, value] of Object.entries(copy)) {
    if (typeof value === 'string') copy[key] = redact(value, secrets);
  }
  return copy as unknown as ApiErrorInit;
}
