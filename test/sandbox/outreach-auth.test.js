'use strict';
const { useSandbox, DEMO_KEYS } = require('./helpers');
const { MONTHLY_VALIDITY_MS } = require('../../dev/sandbox');

const t = useSandbox();
const DAY = 86400000;

describe('authentication', () => {
  test.each([
    ['missing header', null, {}],
    ['unknown key', 'nope', {}],
    ['revoked key', DEMO_KEYS.revoked, {}],
    ['phone key', DEMO_KEYS.phone, {}],
    ['Bearer scheme', null, { Authorization: 'Bearer sandbox-paid' }],
  ])('%s gives a 401 problem', async (_name, key, headers) => {
    const res = await t.api('GET', '/api/v1/credit/balance', { key, headers });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.json).toEqual({
      type: `${t.sb.outreachUrl}/errors/unauthorized`,
      title: 'Unauthorized',
      status: 401,
      detail: expect.any(String),
      instance: '/api/v1/credit/balance',
    });
  });

  test('revoked key gets 401 on every endpoint', async () => {
    for (const [method, path] of [
      ['POST', '/api/v1/companies/search-advanced'],
      ['POST', '/api/v1/companies/unlock'],
      ['POST', '/api/v1/emails/send/batch'],
      ['GET', '/api/v1/emails/tasks'],
      ['GET', '/api/v1/emails/mails/1'],
    ]) {
      const res = await t.api(method, path, {
        key: DEMO_KEYS.revoked,
        body: method === 'POST' ? {} : undefined,
      });
      expect(res.status).toBe(401);
    }
  });

  test('the ApiKey scheme is case-insensitive', async () => {
    const res = await t.api('GET', '/api/v1/credit/balance', {
      key: null,
      headers: { Authorization: 'apikey sandbox-paid' },
    });
    expect(res.status).toBe(200);
  });
});

describe('balance', () => {
  test('paid account: both buckets, monthly expiring 20 days after start', async () => {
    const res = await t.api('GET', '/api/v1/credit/balance');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      userId: 'usr_sandbox_paid',
      monthlyPoints: 100,
      monthlyEdm: 1000,
      monthlyExpiresAt: new Date(t.clock.now() + MONTHLY_VALIDITY_MS).toISOString(),
      addonPoints: 400,
      addonEdm: 2000,
    });
  });

  test('free and low accounts', async () => {
    const free = await t.api('GET', '/api/v1/credit/balance', { key: DEMO_KEYS.free });
    expect(free.json).toMatchObject({ monthlyPoints: 20, addonPoints: 0, monthlyEdm: 0, addonEdm: 0 });
    const low = await t.api('GET', '/api/v1/credit/balance', { key: DEMO_KEYS.low });
    expect(low.json).toMatchObject({ monthlyPoints: 1, addonPoints: 1, monthlyEdm: 60, addonEdm: 40 });
  });

  test('monthly buckets read 0 once the clock passes monthlyExpiresAt; add-on stays', async () => {
    t.clock.advance(20 * DAY);
    const res = await t.api('GET', '/api/v1/credit/balance');
    expect(res.json).toMatchObject({ monthlyPoints: 0, monthlyEdm: 0, addonPoints: 400, addonEdm: 2000 });
  });

  test('after expiry, charges come from the add-on bucket', async () => {
    t.clock.advance(21 * DAY);
    const company = t.sb.state.companies[0];
    const res = await t.api('POST', '/api/v1/companies/unlock', {
      body: { domain: company.domain, countryCode: company.country_code },
    });
    expect(res.json.charged).toBe(true);
    const bal = await t.api('GET', '/api/v1/credit/balance');
    expect(bal.json).toMatchObject({ monthlyPoints: 0, addonPoints: 399 });
  });
});

describe('quota-exceeded key', () => {
  test('every endpoint except balance answers 429 quota-exceeded', async () => {
    const bal = await t.api('GET', '/api/v1/credit/balance', { key: DEMO_KEYS.quota });
    expect(bal.status).toBe(200);
    for (const [method, path] of [
      ['POST', '/api/v1/companies/search-advanced'],
      ['POST', '/api/v1/companies/unlock'],
      ['POST', '/api/v1/emails/send/batch'],
      ['GET', '/api/v1/emails/tasks'],
    ]) {
      const res = await t.api(method, path, {
        key: DEMO_KEYS.quota,
        body: method === 'POST' ? {} : undefined,
      });
      expect(res.status).toBe(429);
      expect(res.json.type).toBe(`${t.sb.outreachUrl}/errors/quota-exceeded`);
      expect(res.json.instance).toBe(path);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const stats = await t.control('GET', '/stats');
    expect(stats.json.quotaExceeded).toBe(4);
  });
});

describe('retired contact search', () => {
  test.each([
    ['paid key', DEMO_KEYS.paid],
    ['no key', null],
    ['revoked key', DEMO_KEYS.revoked],
  ])('answers 410 with code and replacement (%s)', async (_n, key) => {
    const res = await t.api('POST', '/api/v1/contacts/search', { key, body: { keyword: 'ceo' } });
    expect(res.status).toBe(410);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.json).toEqual({
      type: 'https://www.rfc-editor.org/rfc/rfc9110#status.410',
      title: 'Gone',
      status: 410,
      detail: expect.any(String),
      instance: '/api/v1/contacts/search',
      code: 'contact_search_retired',
      replacement: '/api/v1/companies/{companyHashId}/profileEmails',
    });
  });

  test('is neither charged nor counted in the rate window', async () => {
    for (let i = 0; i < 65; i++) await t.api('POST', '/api/v1/contacts/search', { body: {} });
    const res = await t.api('GET', '/api/v1/credit/balance');
    expect(res.status).toBe(200);
    expect(res.json.monthlyPoints).toBe(100);
  });
});

describe('routing', () => {
  test('unknown API path: 404 problem', async () => {
    const res = await t.api('GET', '/api/v1/nothing');
    expect(res.status).toBe(404);
    expect(res.json.type).toBe(`${t.sb.outreachUrl}/errors/not-found`);
  });

  test('wrong method: 405 with Allow', async () => {
    const res = await t.api('GET', '/api/v1/companies/unlock');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  test('invalid JSON body: 400', async () => {
    const res = await t.api('POST', '/api/v1/companies/unlock', { body: '{"domain":' });
    expect(res.status).toBe(400);
    expect(res.json.type).toBe(`${t.sb.outreachUrl}/errors/bad-request`);
    expect(res.json.detail).toMatch(/JSON/);
  });

  test('pricing and error pages exist', async () => {
    expect((await fetch(`${t.sb.outreachUrl}/pricing`)).status).toBe(200);
    expect((await fetch(`${t.sb.outreachUrl}/errors/rate-limit`)).status).toBe(200);
  });
});
