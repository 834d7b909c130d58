'use strict';
const { useSandbox, DEMO_KEYS, recipients } = require('./helpers');
const { registeredPhoneNumber } = require('../../dev/sandbox');

const t = useSandbox();
const fault = (spec, base) => t.control('POST', '/faults', spec, base);
const balance = async () => (await t.api('GET', '/api/v1/credit/balance')).json;
const sendOne = () =>
  t.api('POST', '/api/v1/emails/send/batch', {
    body: { content: 'x', body_format: 'text', recipients: recipients(1) },
  });
const mailCount = async () => (await t.control('GET', `/mails?key=${DEMO_KEYS.paid}`)).json.mails.length;

describe('fault injection (outreach)', () => {
  test.each([
    [429, 'rate-limit', '3'],
    [500, 'internal-error', null],
    [502, 'upstream-error', null],
    [503, 'service-unavailable', '3'],
  ])('status %i answers an RFC 7807 %s problem, request not processed', async (status, slug, retryAfter) => {
    const added = await fault({ path: '/api/v1/emails/send/batch', kind: 'status', status, retryAfter: 3 });
    expect(added.status).toBe(201);
    const res = await sendOne();
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.json).toMatchObject({
      type: `${t.sb.outreachUrl}/errors/${slug}`,
      status,
      instance: '/api/v1/emails/send/batch',
    });
    expect(res.headers.get('retry-after')).toBe(retryAfter);
    expect(await mailCount()).toBe(0);
    expect((await balance()).monthlyEdm).toBe(1000);
    // the fault was used up: the next request is normal
    expect((await sendOne()).status).toBe(201);
  });

  test('a status fault may carry another slug (429 quota-exceeded)', async () => {
    await fault({ path: '/api/v1/credit/balance', kind: 'status', status: 429, slug: 'quota-exceeded' });
    const res = await t.api('GET', '/api/v1/credit/balance');
    expect(res.json.type).toBe(`${t.sb.outreachUrl}/errors/quota-exceeded`);
  });

  test('count: the next N matching requests; prefix paths; method filter', async () => {
    await fault({ path: '/api/v1/companies', method: 'post', kind: 'status', status: 502, count: 2 });
    expect((await t.api('GET', '/api/v1/companies/x/profile')).status).toBe(404); // GET: not matched
    const a = await t.api('POST', '/api/v1/companies/unlock', { body: {} });
    const b = await t.api('POST', '/api/v1/companies/search-advanced', { body: {} });
    const c = await t.api('POST', '/api/v1/companies/unlock', { body: {} });
    expect([a.status, b.status, c.status]).toEqual([502, 502, 400]);
    expect((await t.control('GET', '/faults')).json.faults).toEqual([]);
  });

  test('drop: socket destroyed without an answer, request NOT processed', async () => {
    await fault({ path: '/api/v1/emails/send/batch', kind: 'drop' });
    await expect(sendOne()).rejects.toThrow();
    expect(await mailCount()).toBe(0);
    expect((await balance()).monthlyEdm).toBe(1000);
    const stats = await t.control('GET', '/stats');
    expect(stats.json.requests[DEMO_KEYS.paid]['/api/v1/emails/send/batch']).toBe(1);
    expect(stats.json.faultsInjected).toBe(1);
  });

  test('lost-response: request IS processed (charged, mail accepted), then the socket is destroyed', async () => {
    await fault({ path: '/api/v1/emails/send/batch', kind: 'lost-response' });
    await expect(sendOne()).rejects.toThrow();
    expect(await mailCount()).toBe(1);
    expect((await balance()).monthlyEdm).toBe(999);
  });

  test('lost-response on unlock: charged although the client saw no answer', async () => {
    await fault({ path: '/api/v1/companies/unlock', kind: 'lost-response' });
    const c = t.sb.state.companies[0];
    const body = { domain: c.domain, countryCode: c.country_code };
    await expect(t.api('POST', '/api/v1/companies/unlock', { body })).rejects.toThrow();
    const retry = await t.api('POST', '/api/v1/companies/unlock', { body });
    expect(retry.json).toMatchObject({ charged: false, alreadyViewed: true });
    const log = await t.control('GET', '/unlocks');
    expect(log.json.unlocks.map((u) => u.charged)).toEqual([true, false]);
  });

  test('malformed: 200 with invalid JSON, not processed by default', async () => {
    await fault({ path: '/api/v1/emails/send/batch', kind: 'malformed' });
    const res = await sendOne();
    expect(res.status).toBe(200);
    expect(res.json).toBeUndefined();
    expect(() => JSON.parse(res.text)).toThrow();
    expect(await mailCount()).toBe(0);
  });

  test('malformed with processed: true: processed, the real answer truncated', async () => {
    await fault({ path: '/api/v1/emails/send/batch', kind: 'malformed', processed: true });
    const res = await sendOne();
    expect(res.status).toBe(200);
    expect(() => JSON.parse(res.text)).toThrow();
    expect(res.text.startsWith('{"task_id":')).toBe(true);
    expect(await mailCount()).toBe(1);
  });

  test('delay: answered normally after delayMs real milliseconds', async () => {
    await fault({ path: '/api/v1/credit/balance', kind: 'delay', delayMs: 150 });
    const start = Date.now();
    const res = await t.api('GET', '/api/v1/credit/balance');
    expect(Date.now() - start).toBeGreaterThanOrEqual(140);
    expect(res.status).toBe(200);
  });

  test('DELETE /faults clears; reset clears; bad specs are refused', async () => {
    await fault({ path: '/api/v1', kind: 'drop', count: 5 });
    const cleared = await t.control('DELETE', '/faults');
    expect(cleared.json).toEqual({ ok: true, cleared: 1 });
    expect((await t.api('GET', '/api/v1/credit/balance')).status).toBe(200);
    await fault({ path: '/api/v1', kind: 'drop' });
    await t.control('POST', '/reset');
    expect((await t.api('GET', '/api/v1/credit/balance')).status).toBe(200);
    expect((await fault({ path: '/x', kind: 'explode' })).status).toBe(400);
    expect((await fault({ path: 'x', kind: 'drop' })).status).toBe(400);
    expect((await fault({ path: '/x', kind: 'status', status: 200 })).status).toBe(400);
    expect((await fault({ path: '/x', kind: 'phone-code', code: 42 })).status).toBe(400);
    expect((await fault({ path: '/x', kind: 'delay' })).status).toBe(400);
    expect((await fault({ path: '/x', kind: 'drop', count: 0 })).status).toBe(400);
  });
});

describe('fault injection (phone)', () => {
  test.each([
    [1000, 500],
    [1006, 502],
    [1007, 500],
    [1005, 429],
  ])('phone-code %i answers HTTP %i and charges nothing', async (code, status) => {
    await fault({ path: '/api/wa/check', kind: 'phone-code', code }, t.sb.phoneUrl);
    const res = await t.check(registeredPhoneNumber(1));
    expect(res.status).toBe(status);
    expect(res.json).toEqual({ code, message: expect.any(String) });
    expect((await t.phone('/api/user/credits')).json.result.total).toBe(1000);
  });

  test.each([
    [429, 1005],
    [500, 1000],
    [502, 1006],
    [503, 1000],
  ])('status %i answers the phone body code %i', async (status, code) => {
    await fault({ path: '/api/wa/check', kind: 'status', status });
    const res = await t.check(registeredPhoneNumber(1));
    expect(res.status).toBe(status);
    expect(res.json.code).toBe(code);
  });

  test('drop, lost-response, malformed and delay on the phone port', async () => {
    await fault({ path: '/api/wa/check', kind: 'drop' });
    await expect(t.check(registeredPhoneNumber(1))).rejects.toThrow();
    expect((await t.phone('/api/user/credits')).json.result.total).toBe(1000);
    await fault({ path: '/api/wa/check', kind: 'lost-response' });
    await expect(t.check(registeredPhoneNumber(1))).rejects.toThrow();
    expect((await t.phone('/api/user/credits')).json.result.total).toBe(999);
    await fault({ path: '/api/wa/check', kind: 'malformed' });
    const bad = await t.check(registeredPhoneNumber(1));
    expect(bad.status).toBe(200);
    expect(bad.json).toBeUndefined();
    await fault({ path: '/api/wa/check', kind: 'delay', delayMs: 50 });
    expect((await t.check(registeredPhoneNumber(1))).json).toEqual({ code: 0, result: { exist: true } });
  });

  test('echoKey: the outreach detail and the phone message repeat the key lower-cased and a 20-character fragment', async () => {
    const key = 'SbxEchoKey-AbCdEfGhIjKlMnOp-0123';
    await t.control('POST', '/accounts', { key, monthlyEdm: 10 });
    await fault({ path: '/api/v1/credit/balance', kind: 'status', status: 401, echoKey: true });
    const res = await t.api('GET', '/api/v1/credit/balance', { key });
    expect(res.json.detail).toContain(key.toLowerCase());
    expect(res.json.detail).toContain(`...${key.slice(2, 22)}...`);
    await fault({ path: '/api/user/credits', kind: 'status', status: 500, echoKey: true });
    const phone = await t.phone('/api/user/credits');
    expect(phone.json.message).toContain(DEMO_KEYS.phone); // shorter than 22: all but its ends as well
    expect(phone.json.message).toContain(`...${DEMO_KEYS.phone.slice(1, -1)}...`);
  });

  test('the service filter keeps a "/" fault on one port', async () => {
    await fault({ path: '/', service: 'phone', kind: 'status', status: 500 });
    expect((await t.api('GET', '/api/v1/credit/balance')).status).toBe(200);
    expect((await t.phone('/api/user/credits')).status).toBe(500);
  });
});
