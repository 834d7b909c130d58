// src/features/outbox/quota-wait.ts: mail that meets a used-up sending quota waits, and gives up after 7 days.
import { QUOTA_WAIT_DAYS, quotaWait } from '../../../../src/features/outbox/quota-wait';

const DAY = 24 * 3600 * 1000;
const NOW = Date.UTC(2026, 0, 10);

describe('quotaWait', () => {
  test('a wait starts now when it had not started', () => {
    expect(quotaWait(undefined, NOW)).toEqual({ since: NOW, gaveUp: false });
    expect(quotaWait(0, NOW)).toEqual({ since: NOW, gaveUp: false });
  });

  test('it goes on from when it started, and gives up once 7 days have passed', () => {
    expect(QUOTA_WAIT_DAYS).toBe(7);
    expect(quotaWait(NOW - 7 * DAY + 1, NOW)).toEqual({ since: NOW - 7 * DAY + 1, gaveUp: false });
    expect(quotaWait(NOW - 7 * DAY, NOW)).toEqual({ since: NOW - 7 * DAY, gaveUp: true });
  });
});
