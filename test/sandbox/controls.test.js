'use strict';
const { useSandbox, unlock, recipients, DEMO_KEYS } = require('./helpers');
const { isLoopback } = require('../../dev/sandbox/server');

const t = useSandbox();

describe('/__sandbox controls', () => {
  test('clock: GET, advanceMs, nowMs, on both ports', async () => {
    const now = t.clock.now();
    expect((await t.control('GET', '/clock')).json).toMatchObject({ now, virtual: true });
    const adv = await t.control('POST', '/clock', { advanceMs: 5000 });
    expect(adv.json.now).toBe(now + 5000);
    expect(t.clock.now()).toBe(now + 5000);
    const set = await t.control('POST', '/clock', { nowMs: now + 60000 }, t.sb.phoneUrl);
    expect(set.json.now).toBe(now + 60000);
    expect((await t.control('GET', '/clock', undefined, t.sb.phoneUrl)).json.now).toBe(now + 60000);
    expect((await t.control('POST', '/clock', {})).status).toBe(400);
    expect((await t.control('POST', '/clock', { advanceMs: -1 })).status).toBe(400);
  });

  test('reset: initial balances, no tasks, no unlocks, no rate history, no faults, no stats', async () => {
    await unlock(t, t.sb.state.companies[0]);
    await t.api('POST', '/api/v1/emails/send/batch', {
      body: { content: 'x', body_format: 'text', recipients: recipients(2) },
    });
    await t.check('+12025550000012');
    await t.control('POST', '/faults', { path: '/nothing', kind: 'drop' });
    for (let i = 0; i < 60; i++) await t.api('GET', '/api/v1/emails/tasks');
    expect((await t.api('GET', '/api/v1/credit/balance')).status).toBe(429);

    const res = await t.control('POST', '/reset', undefined, t.sb.phoneUrl);
    expect(res.json.ok).toBe(true);
    const bal = await t.api('GET', '/api/v1/credit/balance');
    expect(bal.status).toBe(200);
    expect(bal.json).toMatchObject({ monthlyPoints: 100, monthlyEdm: 1000 });
    expect((await t.api('GET', '/api/v1/emails/tasks')).json.total).toBe(0);
    expect((await t.control('GET', '/mails')).json.mails).toEqual([]);
    expect((await t.control('GET', '/unlocks')).json.unlocks).toEqual([]);
    expect((await t.control('GET', '/faults')).json.faults).toEqual([]);
    expect((await t.phone('/api/user/credits')).json.result.total).toBe(1000);
    const c = t.sb.state.companies[0];
    const hash = t.sb.state.byDomain.get(c.domain).companyHashId;
    expect((await t.api('GET', `/api/v1/companies/${hash}/profile`)).status).toBe(404);
  });

  test('stats: requests per key and path, charged totals', async () => {
    await t.api('GET', '/api/v1/credit/balance');
    await t.api('GET', '/api/v1/credit/balance');
    await t.api('GET', '/api/v1/credit/balance', { key: null });
    await unlock(t, t.sb.state.companies[1]);
    await t.check('+12025550000012');
    const s = (await t.control('GET', '/stats')).json;
    expect(s.requests[DEMO_KEYS.paid]['/api/v1/credit/balance']).toBe(2);
    expect(s.requests['(none)']['/api/v1/credit/balance']).toBe(1);
    expect(s.requests[DEMO_KEYS.phone]['/api/wa/check']).toBe(1);
    expect(s.total).toBe(5);
    expect(s.charged).toEqual({
      points: { [DEMO_KEYS.paid]: 1 },
      edm: {},
      phoneCredits: { [DEMO_KEYS.phone]: 1 },
    });
    expect(s.rateLimited).toEqual({ outreach: 0, phone: 0 });
  });

  test('accounts: view and patch', async () => {
    const view = (await t.control('GET', '/accounts')).json;
    expect(view.outreach[DEMO_KEYS.paid]).toMatchObject({
      monthlyPoints: 100,
      addonPoints: 400,
      plan: 'paid',
    });
    expect(view.outreach[DEMO_KEYS.free].plan).toBe('free');
    expect(view.outreach[DEMO_KEYS.revoked].revoked).toBe(true);
    expect(view.outreach[DEMO_KEYS.quota].dailyQuotaExhausted).toBe(true);
    expect(view.phone).toEqual({
      [DEMO_KEYS.phone]: { credits: 1000 },
      [DEMO_KEYS.phoneEmpty]: { credits: 0 },
    });
    await t.control('POST', '/accounts', { key: DEMO_KEYS.paid, addonPoints: 3 });
    expect((await t.api('GET', '/api/v1/credit/balance')).json.addonPoints).toBe(3);
    // a new key can be created (e.g. a second paid account)
    await t.control('POST', '/accounts', { key: 'sandbox-extra', monthlyEdm: 5 });
    expect((await t.api('GET', '/api/v1/credit/balance', { key: 'sandbox-extra' })).json.monthlyEdm).toBe(5);
    expect((await t.control('POST', '/accounts', { key: DEMO_KEYS.paid, addonPoints: -1 })).status).toBe(400);
  });

  test('mails: every accepted mail for a key; unlocks: every unlock call', async () => {
    await t.api('POST', '/api/v1/emails/send/batch', {
      body: { content: 'x', body_format: 'text', recipients: recipients(2) },
    });
    const m = (await t.control('GET', `/mails?key=${DEMO_KEYS.paid}`)).json.mails;
    expect(m.map((x) => x.recipientEmail)).toEqual(['user0@example.com', 'user1@example.com']);
    expect(m[0]).toMatchObject({ key: DEMO_KEYS.paid, status: 'pending', content: 'x' });
    expect((await t.control('GET', `/mails?key=${DEMO_KEYS.low}`)).json.mails).toEqual([]);
    await unlock(t, t.sb.state.companies[2], DEMO_KEYS.low);
    const u = (await t.control('GET', `/unlocks?key=${DEMO_KEYS.low}`)).json.unlocks;
    expect(u).toEqual([expect.objectContaining({ key: DEMO_KEYS.low, charged: true, status: 200 })]);
  });

  test('fixtures and unknown controls', async () => {
    const f = (await t.control('GET', '/fixtures')).json;
    expect(f.companyCount).toBe(t.sb.state.companies.length);
    expect(f.fixtures.manyContacts.length).toBeGreaterThan(0);
    expect((await t.control('GET', '/nothing')).status).toBe(404);
  });

  test('requests: log with status, fault and X-Svc-* attribution headers; violations are flagged', async () => {
    await t.api('GET', '/api/v1/credit/balance', {
      headers: { 'X-Svc-Install-Id': 'inst-1', 'X-Svc-Skill-Version': '1.0.0' },
    });
    await t.api('GET', '/api/v1/emails/tasks?page=2', {
      headers: { 'X-Svc-Agent': `agent ${DEMO_KEYS.paid}` },
    });
    await t.api('GET', '/api/v1/emails/tasks', { headers: { 'X-Svc-Campaign-Id': 'bob@example.com' } });
    await t.control('POST', '/faults', { path: '/api/wa/check', kind: 'drop' });
    await expect(t.check('+12025550000012')).rejects.toThrow();
    const log = (await t.control('GET', '/requests')).json.requests;
    expect(log[0]).toMatchObject({
      service: 'outreach',
      method: 'GET',
      path: '/api/v1/credit/balance',
      key: DEMO_KEYS.paid,
      status: 200,
      attribution: { 'x-svc-install-id': 'inst-1', 'x-svc-skill-version': '1.0.0' },
    });
    expect(log[0].attributionViolation).toBeUndefined();
    expect(log[1]).toMatchObject({
      search: '?page=2',
      attributionViolation: expect.stringMatching(/API key/),
    });
    expect(log[2].attributionViolation).toMatch(/email/);
    expect(log[3]).toMatchObject({ service: 'phone', fault: 'drop', outcome: 'dropped' });
    expect((await t.control('GET', '/stats')).json.attributionViolations).toBe(2);
    const phoneOnly = (await t.control('GET', '/requests?service=phone')).json.requests;
    expect(phoneOnly).toHaveLength(1);
  });

  test('controls are loopback only', () => {
    expect(isLoopback('127.0.0.1')).toBe(true);
    expect(isLoopback('::1')).toBe(true);
    expect(isLoopback('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopback('192.168.1.5')).toBe(false);
    expect(isLoopback('::ffff:10.0.0.1')).toBe(false);
  });
});
