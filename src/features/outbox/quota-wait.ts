// The one policy for mail that meets a used-up sending quota (a 429 quota-exceeded, or Google's daily fetch
// limit): nothing more is posted now, the hourly run tries again, and after 7 days of waiting it gives up.
import { DAY_MS } from '../../platform';
export const QUOTA_WAIT_DAYS = 7;
const WAIT_MS = QUOTA_WAIT_DAYS * DAY_MS;

/** Where a wait stands, given since when it waits (undefined: it starts now). */
export function quotaWait(since: number | undefined, now = Date.now()): { since: number; gaveUp: boolean } {
  const start = since || now;
  return { since: start, gaveUp: now - start >= WAIT_MS };
}
