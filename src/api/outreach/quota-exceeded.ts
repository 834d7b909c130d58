// 429 quota-exceeded: the service says which quota and when it resets ("Daily quota exceeded; it resets at
// 00:00 UTC"). The error repeats that and the earliest time a retry can succeed, instead of a fixed guess.
import type { ApiErrorInit } from '../errors';
import { DAY_MS } from '../../platform';

/** When the service says nothing about the reset. */
const QUOTA_ACTION =
  'The quota waits for the monthly reset or an add-on pack (400 search points + 2,000 e-mail credits).';

/** The quota error; `common` carries the endpoint, status and problem fields. */
export function quotaExceededInit(
  common: Omit<ApiErrorInit, 'kind' | 'userMessage' | 'action' | 'retryable'>,
  detail: string | undefined,
  retryAfterMs: number | undefined,
  now: number = Date.now(),
): ApiErrorInit {
  const retryAt = resetTime(detail, now) ?? (retryAfterMs ? now + retryAfterMs : undefined);
  const said = detail ? `: ${detail.trim().replace(/\.$/, '')}` : '';
  return {
    ...common,
    kind: 'quota',
    retryAfterMs: retryAt === undefined ? undefined : retryAt - now,
    userMessage: `The Outreach service's quota is used up${said}.`,
    action: retryAt === undefined ? QUOTA_ACTION : `Try again after ${utcText(retryAt)}.`,
    retryable: false,
  };
}

/** The next "HH:MM UTC" the detail names (the daily reset), as a time after now. */
function resetTime(detail: string | undefined, now: number): number | undefined {
  const match = detail ? /\b([01]?\d|2[0-3]):([0-5]\d)\s*(UTC|GMT|Z)\b/i.exec(detail) : null;
  if (!match) return undefined;
  const today = new Date(now);
  const at = Date.UTC(
    today.getUTCFullYear(),
    today.getUTCMonth(),
    today.getUTCDate(),
    Number(match[1]),
    Number(match[2]),
  );
  return at > now ? at : at + DAY_MS;
}

/** "2026-01-06 00:00 UTC" */
function utcText(time: number): string {
  return `${new Date(time).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
