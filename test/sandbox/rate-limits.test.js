'use strict';
const { useSandbox, DEMO_KEYS } = require('./helpers');
const { registeredPhoneNumber } = require('../../dev/sandbox');

const t = useSandbox();
const balance = (key) => t.api('GET', '/api/v1/credit/balance', { key });

/** Runs `n` requests, `parallel` at a time. */
async function many(n, fn, parallel = 50) {
  const results = [];
  for (let i = 0; i < n; i += parallel) {
    results.push(
      ...(await Promise.all(Array.from({ length: Math.min(parallel, n - i) }, (_, k) => fn(i + k)))),
    );
  }
  return results;
}

describe('outreach rate limit: 60 requests in any rolling 60 s per key', () => {
  test('the 61st request gets 429 rate-limit with Retry-After; after 60 s it passes', async () => {
    const first = await many(60, () => balance());
    expect(first.every((r) => r.status === 200)).toBe(true);
    expect(first[59].headers.get('x-ratelimit-limit')).toBe('60');
    const limited = await balance();
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({
      type: `${t.sb.outreachUrl}/errors/rate-limit`,
      status: 429,
      instance: '/api/v1/credit/balance',
    });
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    t.clock.advance(59000);
    const stillLimited = await balance();
    expect(stillLimited.status).toBe(429);
    expect(stillLimited.headers.get('retry-after')).toBe('1');
    t.clock.advance(1000);
    expect((await balance()).status).toBe(200);
    const stats = await t.control('GET', '/stats');
    expect(stats.json.rateLimited.outreach).toBe(2);
  });

  test('the window is rolling: slots free one by one as old requests age out', async () => {
    await many(30, () => balance());
    t.clock.advance(30000);
    await many(30, () => balance());
    expect((await balance()).status).toBe(429);
    t.clock.advance(30000); // the first 30 leave the window
    const next = await many(30, () => balance());
    expect(next.every((r) => r.status === 200)).toBe(true);
    const over = await balance();
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('30');
  });

  test('requests that end in 4xx count; rejected 429s do not; keys are separate', async () => {
    await many(30, () => t.api('POST', '/api/v1/companies/search-advanced', { body: {} })); // 400s
    await many(30, () => t.api('GET', '/api/v1/emails/tasks/999999')); // 404s
    expect((await balance()).status).toBe(429);
    expect((await balance(DEMO_KEYS.low)).status).toBe(200);
    // unauthenticated requests are not counted against anyone
    await many(20, () => t.api('GET', '/api/v1/credit/balance', { key: 'nope' }));
    expect((await balance(DEMO_KEYS.low)).status).toBe(200);
    t.clock.advance(60000);
    expect((await balance()).status).toBe(200);
  });
});

describe('phone rate limit: 1000 requests per rolling hour per key', () => {
  test('request 1001 within the hour gets code 1005 (HTTP 429, Retry-After); after an hour it passes', async () => {
    await t.control('POST', '/accounts', { key: DEMO_KEYS.phone, credits: 5000 });
    const checks = await many(500, (i) => t.check(registeredPhoneNumber(i)), 100);
    expect(checks.every((r) => r.json.code === 0)).toBe(true);
    t.clock.advance(30 * 60000);
    const credits = await many(500, () => t.phone('/api/user/credits'), 100);
    expect(credits.every((r) => r.json.code === 0)).toBe(true);
    const limited = await t.check(registeredPhoneNumber(1));
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({ code: 1005, message: 'Rate limit exceeded' });
    expect(limited.headers.get('retry-after')).toBe(String(30 * 60));
    // other phone keys are not affected
    expect((await t.phone('/api/user/credits', { key: DEMO_KEYS.phoneEmpty })).json.code).toBe(0);
    t.clock.advance(30 * 60000); // the first 500 leave the window
    const after = await t.check(registeredPhoneNumber(2));
    expect(after.json).toEqual({ code: 0, result: { exist: true } });
    const stats = await t.control('GET', '/stats', undefined, t.sb.phoneUrl);
    expect(stats.json.rateLimited.phone).toBe(1);
    // the rejected check cost nothing: 500 + 1 charged
    expect(stats.json.charged.phoneCredits[DEMO_KEYS.phone]).toBe(501);
  });
});
