'use strict';
const { useSandbox, DEMO_KEYS } = require('./helpers');
const {
  registeredPhoneNumber,
  unregisteredPhoneNumber,
  isRegisteredPhone,
  isValidPhone,
} = require('../../dev/sandbox');

const t = useSandbox();
const credits = async (key = DEMO_KEYS.phone) => (await t.phone('/api/user/credits', { key })).json;

describe('phone check', () => {
  test('registered and unregistered numbers; 1 credit per check', async () => {
    expect(await credits()).toEqual({ code: 0, result: { total: 1000 } });
    const yes = await t.check(registeredPhoneNumber(7));
    expect(yes.status).toBe(200);
    expect(yes.headers.get('content-type')).toMatch(/^application\/json/);
    expect(yes.json).toEqual({ code: 0, result: { exist: true } });
    const no = await t.check(unregisteredPhoneNumber(7));
    expect(no.json).toEqual({ code: 0, result: { exist: false } });
    expect(await credits()).toEqual({ code: 0, result: { total: 998 } });
    const log = await t.control('GET', `/phone-checks?key=${DEMO_KEYS.phone}`, undefined, t.sb.phoneUrl);
    expect(log.json.checks.map((c) => [c.charged, c.exist])).toEqual([
      [true, true],
      [true, false],
    ]);
  });

  test('rule: registered iff the last digit is even; digits-only numbers accepted', async () => {
    expect((await t.check('4915112345678')).json.result.exist).toBe(true);
    expect((await t.check('4915112345679')).json.result.exist).toBe(false);
    expect(isRegisteredPhone('4915112345678')).toBe(true);
    expect(registeredPhoneNumber(3)).toMatch(/^\+\d{8,15}$/);
    expect(isRegisteredPhone(registeredPhoneNumber(3))).toBe(true);
    expect(isRegisteredPhone(unregisteredPhoneNumber(3))).toBe(false);
  });

  test.each([
    ['missing phone', ''],
    ['too short', '?phone=1234567'],
    ['too long', '?phone=1234567890123456'],
    ['E.164 starting with 0', `?phone=${encodeURIComponent('+0123456789')}`],
    ['spaces', `?phone=${encodeURIComponent('+49 151 1234567')}`],
    ['dashes', '?phone=202-555-0123'],
    ['letters', '?phone=12345abc90'],
    ['unencoded plus (arrives as a space)', '?phone=+12025550123'],
  ])('1002 (HTTP 400) for %s; no charge', async (_n, query) => {
    const res = await t.phone(`/api/wa/check${query}`);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ code: 1002, message: 'Invalid phone parameter' });
    expect((await credits()).result.total).toBe(1000);
  });

  test('validation helper', () => {
    expect(isValidPhone('+12025550123')).toBe(true);
    expect(isValidPhone('12345678')).toBe(true);
    expect(isValidPhone('+1234567')).toBe(false);
  });

  test('missing key: 1001 (HTTP 401); invalid key: 1003 (HTTP 401); outreach key is invalid here', async () => {
    const missing = await t.phone('/api/user/credits', { key: null });
    expect(missing.status).toBe(401);
    expect(missing.json).toEqual({ code: 1001, message: 'Missing API key' });
    const invalid = await t.check(registeredPhoneNumber(1), 'nope');
    expect(invalid.status).toBe(401);
    expect(invalid.json).toEqual({ code: 1003, message: 'Invalid API key' });
    expect((await t.phone('/api/user/credits', { key: DEMO_KEYS.paid })).json.code).toBe(1003);
  });

  test('no credits: 1004 (HTTP 402), nothing charged', async () => {
    expect(await credits(DEMO_KEYS.phoneEmpty)).toEqual({ code: 0, result: { total: 0 } });
    const res = await t.check(registeredPhoneNumber(1), DEMO_KEYS.phoneEmpty);
    expect(res.status).toBe(402);
    expect(res.json).toEqual({ code: 1004, message: 'Insufficient credits' });
    // an invalid number is reported before the credit check
    expect((await t.phone('/api/wa/check?phone=x', { key: DEMO_KEYS.phoneEmpty })).json.code).toBe(1002);
  });

  test('running out: the last credit is used, then 1004', async () => {
    await t.control('POST', '/accounts', { key: DEMO_KEYS.phone, credits: 1 }, t.sb.phoneUrl);
    expect((await t.check(registeredPhoneNumber(1))).json.code).toBe(0);
    expect((await t.check(registeredPhoneNumber(2))).json.code).toBe(1004);
    expect((await credits()).result.total).toBe(0);
  });

  test('unknown path 404, wrong method 405', async () => {
    expect((await t.phone('/api/wa/nothing')).status).toBe(404);
    const res = await fetch(`${t.sb.phoneUrl}/api/wa/check`, {
      method: 'POST',
      headers: { 'x-api-key': 'sandbox-phone' },
    });
    expect(res.status).toBe(405);
  });
});
