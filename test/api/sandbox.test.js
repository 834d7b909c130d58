'use strict';
// The API clients as Apps Script runs them: test/api/harness.ts bundled with the production plugins
// (test-output/api-harness/Code.js), executed in the Apps Script emulator, talking HTTP to the service
// sandbox, all on one virtual clock. Covers every retry rule with injected faults, the typed errors, the
// checks made before sending, the shared rate budget, fetchAll batching, and what headers, URLs, logs and
// errors may carry.
const path = require('node:path');
const { Clock } = require('../../dev/clock');
const { startSandboxInWorker, DEMO_KEYS, dataset } = require('../../dev/sandbox');
const { AppsScriptEmulator } = require('../emulator');
const { buildHarness, control: sandboxControl } = require('../support/harness');

const ROOT = path.join(__dirname, '..', '..');
const HARNESS_DIR = path.join(ROOT, 'test-output', 'api-harness');
const ALL_KEYS = Object.values(DEMO_KEYS);

let clock;
let sandbox;
let emu;
let data;

// A connection of its own per call (one kept idle while an execution ran may be closed).
const control = (method, route, body, base = sandbox.outreachUrl) =>
  sandboxControl(base, method, route, body);
const fault = (spec, base) => control('POST', '/faults', spec, base);

function conn(overrides = {}) {
  return {
    outreachApiKey: DEMO_KEYS.paid,
    outreachBaseUrl: sandbox.outreachUrl,
    phoneApiKey: DEMO_KEYS.phone,
    phoneBaseUrl: sandbox.phoneUrl,
    ...overrides,
  };
}

/** One execution of a harness function, as google.script.run would make it. */
const call = (name, ...args) => emu.run(name, args, { kind: 'webapp' });

const outreachFetches = () => emu.fetchLog.filter((f) => f.url.startsWith(sandbox.outreachUrl));
const phoneFetches = () => emu.fetchLog.filter((f) => f.url.startsWith(sandbox.phoneUrl));
const company = (i) => data.companies[i];

beforeAll(async () => {
  buildHarness('test/api/rollup.api-harness.mjs');
  clock = Clock.virtual();
  sandbox = await startSandboxInWorker({ clock });
  data = dataset();
});

afterAll(async () => {
  if (emu) emu.dispose();
  if (sandbox) await sandbox.stop();
});

beforeEach(async () => {
  await control('POST', '/reset');
  if (emu) emu.dispose();
  emu = new AppsScriptEmulator({ codePath: path.join(HARNESS_DIR, 'Code.js'), htmlDir: HARNESS_DIR, clock });
});

describe('answers and headers', () => {
  test('balance: Authorization ApiKey, attribution headers, typed answer', () => {
    const out = call('apiBalance', conn());
    expect(out.ok).toBe(true);
    expect(out.value).toMatchObject({ userId: 'usr_sandbox_paid', monthlyPoints: 100, addonPoints: 400 });
    const [request] = outreachFetches();
    expect(request.headers.Authorization).toBe('ApiKey sandbox-paid');
    expect(request.headers['X-Svc-Install-Id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(request.headers['X-Svc-Skill-Version']).toBe('1.0.0');
    expect(request.headers['X-Svc-Skill-Runtime']).toBe('google-apps-script');
    expect(request.headers['X-Svc-Source-Type']).toBeUndefined();
    expect(emu.properties.user.getProperty('attribution.installId')).toBe(
      request.headers['X-Svc-Install-Id'],
    );
  });

  test('search, unlock, profile, every contact page, and the settings factories', () => {
    expect(
      call('apiSaveSettings', { outreachApiKey: DEMO_KEYS.paid, outreachBaseUrl: sandbox.outreachUrl }).ok,
    ).toBe(true);
    const search = call('apiSearch', { fromSettings: true }, { productKeywords: ['a'], size: 3 });
    expect(search.ok).toBe(true);
    expect(search.value.list.length).toBeLessThanOrEqual(3);
    const many = data.fixtures.manyContacts[0];
    const unlocked = call('apiUnlock', conn(), many.domain, many.countryCode.toLowerCase());
    expect(unlocked.value).toMatchObject({ charged: true, alreadyViewed: false });
    const id = unlocked.value.companyHashId;
    expect(call('apiProfile', conn(), id).value.companyHashId).toBe(id);
    const [company] = call('apiProfilesWithEmails', conn(), [id]).value;
    expect(company.ok).toBe(true);
    expect(company.emails).toHaveLength(many.contacts);
  });

  test('missing key from settings: kind missing-key, no request', () => {
    const out = call('apiBalance', { fromSettings: true });
    expect(out.error).toMatchObject({ kind: 'missing-key' });
    expect(emu.fetchLog).toHaveLength(0);
  });
});

describe('typed errors', () => {
  test('401 revoked key → auth', () => {
    const out = call('apiBalance', conn({ outreachApiKey: DEMO_KEYS.revoked }));
    expect(out.error).toMatchObject({ kind: 'auth', status: 401, slug: 'unauthorized' });
    expect(out.error.action).toBe('Check the API key in Extensions › Outreach › Settings.');
  });

  test('402 → funds with required and available amounts, nothing charged', () => {
    const low = conn({ outreachApiKey: DEMO_KEYS.low });
    expect(call('apiUnlock', low, company(0).domain, company(0).country_code).ok).toBe(true);
    expect(call('apiUnlock', low, company(1).domain, company(1).country_code).ok).toBe(true);
    const out = call('apiUnlock', low, company(2).domain, company(2).country_code);
    expect(out.error).toMatchObject({
      kind: 'funds',
      status: 402,
      required: 1,
      available: 0,
      unit: 'points',
    });
    expect(out.error.action).toContain(`${sandbox.outreachUrl}/pricing`);
    const emails = Array.from({ length: 100 }, (_, i) => ({
      email: `r${i}@example.com`,
      subject: 'Hi',
      content: 'Hi',
      body_format: 'text',
    }));
    expect(call('apiSendPersonalized', low, { emails }).ok).toBe(true);
    const edm = call('apiSendPersonalized', low, { emails: emails.slice(0, 3) });
    expect(edm.error).toMatchObject({ kind: 'funds', required: 3, available: 0, unit: 'edm' });
  });

  test('403 free plan → plan', () => {
    const out = call('apiSendPersonalized', conn({ outreachApiKey: DEMO_KEYS.free }), {
      emails: [{ email: 'a@example.com', subject: 'Hi', content: 'Hi', body_format: 'text' }],
    });
    expect(out.error).toMatchObject({ kind: 'plan', status: 403 });
    expect(`${out.error.userMessage} ${out.error.action}`).toMatch(
      /^Your plan has no permission to send e-mail\. Upgrade the plan \(http:\/\/127\.0\.0\.1:\d+\/pricing\)\.$/,
    );
  });

  test('404: profile and contacts of a company not unlocked → Unlock the company first', () => {
    const id = company(5).companyHashId;
    expect(call('apiProfile', conn(), id).error).toMatchObject({
      kind: 'not-found',
      action: 'Unlock the company first.',
    });
    expect(call('apiProfileEmails', conn(), id, {}).error).toMatchObject({ kind: 'not-found' });
    expect(call('apiGetMail', conn(), 999999).error).toMatchObject({ kind: 'not-found' });
  });

  test('429 quota-exceeded → quota, never retried', () => {
    const out = call('apiSearch', conn({ outreachApiKey: DEMO_KEYS.quota }), { productKeywords: ['a'] });
    expect(out.error).toMatchObject({ kind: 'quota', status: 429, slug: 'quota-exceeded' });
    expect(outreachFetches()).toHaveLength(1);
  });
});

describe('retry rules with injected faults', () => {
  test('429 rate-limit waits Retry-After and succeeds', async () => {
    await fault({ path: '/api/v1/credit/balance', kind: 'status', status: 429, retryAfter: 5, count: 1 });
    const before = clock.now();
    expect(call('apiBalance', conn()).ok).toBe(true);
    const fetches = outreachFetches();
    expect(fetches.map((f) => f.status)).toEqual([429, 200]);
    expect(fetches[1].virtualMs - fetches[0].virtualMs).toBeGreaterThanOrEqual(5000);
    expect(clock.now() - before).toBeLessThan(8000);
  });

  test('502 on a GET is retried with back-off', async () => {
    await fault({ path: '/api/v1/emails/tasks', method: 'GET', kind: 'status', status: 502, count: 2 });
    expect(call('apiListTasks', conn(), { page_size: 5 }).ok).toBe(true);
    expect(outreachFetches().map((f) => f.status)).toEqual([502, 502, 200]);
  });

  test('dropped connection on a read is retried', async () => {
    await fault({ path: '/api/v1/companies/search-advanced', kind: 'drop', count: 1 });
    expect(call('apiSearch', conn(), { industryKeywords: ['a'] }).ok).toBe(true);
    expect(outreachFetches()).toHaveLength(2);
  });

  test.each(['drop', 'lost-response'])(
    '%s on unlock → outcome-unknown, one request; a repeat unlock is free',
    async (kind) => {
      await fault({ path: '/api/v1/companies/unlock', kind, count: 1 });
      const c = company(7);
      const out = call('apiUnlock', conn(), c.domain, c.country_code);
      expect(out.error).toMatchObject({ kind: 'outcome-unknown' });
      expect(outreachFetches()).toHaveLength(1);
      const unlocks = (await control('GET', `/unlocks?key=${DEMO_KEYS.paid}`)).unlocks;
      expect(unlocks).toHaveLength(kind === 'drop' ? 0 : 1);
      const again = call('apiUnlock', conn(), c.domain, c.country_code);
      expect(again.value).toMatchObject(
        kind === 'drop' ? { charged: true } : { charged: false, alreadyViewed: true },
      );
    },
  );

  test('lost response on a send → outcome-unknown, sent once, never retried', async () => {
    await fault({ path: '/api/v1/emails/send/personalized', kind: 'lost-response', count: 1 });
    const out = call('apiSendPersonalized', conn(), {
      emails: [{ email: 'once@example.com', subject: 'Once', content: 'Hello there', body_format: 'text' }],
    });
    expect(out.error).toMatchObject({ kind: 'outcome-unknown' });
    expect(outreachFetches()).toHaveLength(1);
    expect((await control('GET', `/mails?key=${DEMO_KEYS.paid}`)).mails).toHaveLength(1);
  });

  test('502 upstream-error on a send: refunded, kind server, not retried', async () => {
    await fault({ path: '/api/v1/emails/send/personalized', kind: 'status', status: 502, count: 1 });
    const out = call('apiSendPersonalized', conn(), {
      emails: [{ email: 'p@example.com', subject: 'S', content: 'C', body_format: 'html' }],
    });
    expect(out.error).toMatchObject({ kind: 'server', slug: 'upstream-error', retryable: true });
    expect(outreachFetches()).toHaveLength(1);
  });

  test('malformed body → invalid-response naming the endpoint', async () => {
    await fault({ path: '/api/v1/emails/tasks', method: 'GET', kind: 'malformed', count: 1 });
    const out = call('apiListTasks', conn(), { page_size: 5 });
    expect(out.error.kind).toBe('invalid-response');
    expect(out.error.message).toMatch(/^Unexpected answer from GET \/api\/v1\/emails\/tasks: /);
    expect(outreachFetches()).toHaveLength(1);
  });

  test('a balance answer the add-on cannot read means a wrong service address (balance shows the address works)', async () => {
    await fault({ path: '/api/v1/credit/balance', kind: 'malformed', count: 1 });
    const out = call('apiBalance', conn());
    expect(out.error.kind).toBe('address');
    expect(out.error.message).toMatch(
      /^GET \/api\/v1\/credit\/balance at http:\/\/127\.0\.0\.1:\d+: unexpected answer/,
    );
    expect(outreachFetches()).toHaveLength(1);
  });
});

describe('checks before sending', () => {
  test('invalid requests make no request', () => {
    const c = conn();
    expect(call('apiSearch', c, { productKeywords: ['x'], size: 80 }).error).toMatchObject({
      kind: 'bad-request',
      field: 'size',
    });
    expect(call('apiSearch', c, { includeCountry: ['DE'] }).error.message).toBe(
      'Enter at least one product, industry or company-type keyword',
    );
    expect(call('apiSearch', c, { productKeywords: ['x'], employees: '10-50' }).error.field).toBe('body');
    expect(call('apiUnlock', c, 'acme.com', '').error.field).toBe('countryCode');
    const send = call('apiSendPersonalized', c, {
      emails: ['a@example.com', 'b@example.com', 'bob@@x'].map((email) => ({
        email,
        subject: 's',
        content: 'x',
        body_format: 'text',
      })),
    });
    expect(send.error.message).toBe('E-mail 3 (bob@@x): e-mail address is not valid');
    expect(call('apiListMails', c, { page_size: 101 }).error.field).toBe('page_size');
    expect(call('apiProfileEmails', c, 'h', { page: 0 }).error.field).toBe('page');
    expect(emu.fetchLog).toHaveLength(0);
  });
});

describe("the manifest's URL allowlist", () => {
  test('an address outside it is refused before anything is sent, naming the allowed prefixes', () => {
    const outside = 'https://api.elsewhere.example.net';
    for (const out of [
      call('apiBalance', conn({ outreachBaseUrl: outside })),
      call('apiUnlock', conn({ outreachBaseUrl: outside }), 'acme.com', 'de'),
      call('phoneCheckMany', conn({ phoneBaseUrl: outside }), ['+14155550100']),
    ]) {
      expect(out.error).toMatchObject({ kind: 'address-not-allowed', retryable: false });
      expect(out.error.userMessage).toContain(`address ${outside} is not allowed`);
      expect(out.error.userMessage).toContain(emu.urlFetchAllowlist.prefixes[0]); // the outreach service's
    }
    expect(emu.callCount('UrlFetchApp.fetch') + emu.callCount('UrlFetchApp.fetchAll')).toBe(0);
  });

  test("Apps Script's own refusal is final: one attempt, no retry, and an unlock is not 'outcome unknown'", () => {
    // The client lets the sandbox through (its allowlist has loopback), the manifest in force does not.
    emu.dispose();
    const manifestPath = path.join(ROOT, 'appsscript.json');
    emu = new AppsScriptEmulator({ codePath: path.join(HARNESS_DIR, 'Code.js'), manifestPath, clock });
    const started = clock.now();
    const unlock = call('apiUnlock', conn(), company(0).domain, company(0).country_code);
    expect(unlock.error).toMatchObject({ kind: 'address-not-allowed', retryable: false });
    const read = call('apiBalance', conn());
    expect(read.error.kind).toBe('address-not-allowed');
    const many = call('phoneCheckMany', conn(), ['+14155550100', '+14155550101']);
    expect(many.error || many.value.stopped).toMatchObject({ kind: 'address-not-allowed' });
    expect(emu.callCount('UrlFetchApp.fetch') + emu.callCount('UrlFetchApp.fetchAll')).toBe(3);
    expect(clock.now() - started).toBeLessThan(1000); // no back-off sleep
  });
});

describe('rate budget shared across executions', () => {
  test('130 calls in three executions: no 429, time close to the 60-per-minute floor', async () => {
    const start = clock.now();
    const runs = [50, 50, 30].map((n) => call('apiBalanceMany', conn(), n));
    expect(runs.map((r) => r.ok)).toEqual([50, 50, 30]);
    expect(runs.flatMap((r) => r.errors)).toEqual([]);
    const stats = await control('GET', '/stats');
    expect(stats.rateLimited.outreach).toBe(0);
    const elapsed = clock.now() - start;
    expect(elapsed).toBeGreaterThanOrEqual(120_000);
    expect(elapsed).toBeLessThan(135_000);
  });

  test('a deadline shorter than the wait stops with rate-budget (continue later)', () => {
    const first = call('apiBalanceMany', conn(), 60);
    expect(first.ok).toBe(60);
    const second = call('apiBalanceMany', conn({ deadlineInMs: 20_000 }), 5);
    expect(second.ok).toBe(0);
    expect(second.errors[0]).toMatchObject({
      kind: 'rate-budget',
      action: 'Continue later: the work done so far is kept.',
    });
    expect(outreachFetches()).toHaveLength(60);
  });
});

describe('fetchAll batching', () => {
  test('profilesWithEmails: one fetchAll for profiles and first pages, 404 isolated', () => {
    const ids = [0, 1, 2].map((i) => {
      const c = company(i);
      return call('apiUnlock', conn(), c.domain, c.country_code).value.companyHashId;
    });
    const many = data.fixtures.manyContacts[1];
    ids.push(call('apiUnlock', conn(), many.domain, many.countryCode).value.companyHashId);
    ids.splice(1, 0, company(9).companyHashId); // not unlocked
    emu.resetStats();
    const before = emu.fetchLog.length;
    const out = call('apiProfilesWithEmails', conn(), ids).value;
    expect(out.map((r) => r.ok)).toEqual([true, false, true, true, true]);
    expect(out[1].error).toMatchObject({ kind: 'not-found', action: 'Unlock the company first.' });
    expect(out[4].emails).toHaveLength(many.contacts);
    const pages = Math.ceil(many.contacts / 100);
    expect(emu.stats.urlFetch.calls).toBe(2);
    expect(emu.stats.urlFetch.requests).toBe(10 + pages - 1);
    expect(emu.fetchLog.length - before).toBe(10 + pages - 1);
  });
});

describe('phone checks', () => {
  test('checkMany: registered, not registered, invalid (locally and 1002), one fetchAll', () => {
    const out = call('phoneCheckMany', conn(), [
      '+1 202 555 000012',
      12025550000011,
      'not a number',
      '+1234567',
      '+1202555000012',
    ]);
    expect(out.value.results.map((r) => r.status)).toEqual([
      'registered',
      'not-registered',
      'invalid',
      'invalid',
      'registered',
    ]);
    expect(out.value.stopped).toBeUndefined();
    expect(phoneFetches()).toHaveLength(3);
    expect(emu.stats.urlFetch.calls).toBe(1);
    for (const f of phoneFetches()) {
      expect(f.headers['x-api-key']).toBe(DEMO_KEYS.phone);
      expect(Object.keys(f.headers).filter((h) => /^x-svc-/i.test(h))).toEqual([]);
    }
  });

  test('1004: stops cleanly with the rest unchecked', () => {
    const out = call('phoneCheckMany', conn({ phoneApiKey: DEMO_KEYS.phoneEmpty }), [
      '+12025550000012',
      '+12025550000022',
    ]);
    expect(out.value.stopped).toMatchObject({ kind: 'funds', code: 1004 });
    expect(out.value.results).toEqual([]);
    expect(out.value.unchecked).toEqual([0, 1]);
  });

  test('1005 waits and retries; 1000 retried', async () => {
    await fault(
      { path: '/api/wa/check', kind: 'status', status: 429, retryAfter: 2, count: 1 },
      sandbox.phoneUrl,
    );
    await fault({ path: '/api/wa/check', kind: 'phone-code', code: 1000, count: 1 }, sandbox.phoneUrl);
    const out = call('phoneCheck', conn(), '+12025550000012');
    expect(out).toEqual({ ok: true, value: true });
    expect(phoneFetches().map((f) => f.status)).toEqual([429, 500, 200]);
  });

  test('1003 invalid key → auth; credits', () => {
    expect(call('phoneCredits', conn()).value).toBe(1000);
    expect(call('phoneCredits', conn({ phoneApiKey: 'wrong-key' })).error).toMatchObject({
      kind: 'auth',
      code: 1003,
    });
  });
});

describe('what requests, logs and errors carry', () => {
  test('keys only in Authorization / x-api-key; no key, address or mail content in headers, URLs, logs, errors', async () => {
    const content = 'Secret offer body 4711';
    const address = 'carol.reader@example.com';
    await fault({ path: '/api/v1/emails/tasks', kind: 'status', status: 503, count: 1 });
    const results = [
      call('apiBalance', conn()),
      call('apiSendPersonalized', conn(), {
        emails: [{ email: address, subject: 'Offer', content, body_format: 'text' }],
      }),
      call('apiListTasks', conn(), { page_size: 5 }),
      call('apiSendPersonalized', conn({ outreachApiKey: DEMO_KEYS.free }), {
        emails: [{ email: address, subject: 'Offer', content, body_format: 'text' }],
      }),
      call('apiBalance', conn({ outreachApiKey: DEMO_KEYS.revoked })),
      call('phoneCheckMany', conn(), ['+12025550000012']),
      call('phoneCredits', conn({ phoneApiKey: 'wrong-key-123' })),
    ];
    const keys = [...ALL_KEYS, 'wrong-key-123'];
    for (const f of emu.fetchLog) {
      for (const [name, value] of Object.entries(f.headers)) {
        const allowed = name === 'Authorization' || name.toLowerCase() === 'x-api-key';
        for (const key of keys) if (!allowed) expect(value).not.toContain(key);
        expect(value).not.toContain(address);
        expect(value).not.toContain(content);
      }
      for (const key of keys) expect(f.url).not.toContain(key);
      expect(f.url).not.toContain(address);
      expect(f.url).not.toContain('Secret');
    }
    const logs = JSON.stringify(emu.logs);
    const errors = JSON.stringify(results.filter((r) => !r.ok).map((r) => r.error));
    for (const text of [logs, errors]) {
      for (const key of keys) expect(text).not.toContain(key);
      expect(text).not.toContain(address);
      expect(text).not.toContain(content);
    }
    expect((await control('GET', '/stats')).attributionViolations).toBe(0);
  });

  test('damaged install id → no attribution headers at all; the request still goes', () => {
    emu.properties.user.setProperty('attribution.installId', 'not-a-uuid');
    expect(call('apiBalance', conn()).ok).toBe(true);
    const [request] = outreachFetches();
    expect(Object.keys(request.headers).filter((h) => /^x-svc-/i.test(h))).toEqual([]);
  });

  test('channel headers only when configured; damaged channel JSON drops them', () => {
    emu.properties.script.setProperty(
      'attribution.channel',
      JSON.stringify({
        sourceType: 'wrapper',
        sourcePackage: 'sheets-pack',
        channelCode: 'c-1',
        campaignId: 'q1',
      }),
    );
    call('apiBalance', conn());
    emu.properties.script.setProperty('attribution.channel', '{"sourceType":');
    call('apiBalance', conn());
    const [configured, damaged] = outreachFetches();
    expect(configured.headers).toMatchObject({
      'X-Svc-Source-Type': 'wrapper',
      'X-Svc-Source-Package': 'sheets-pack',
      'X-Svc-Channel-Code': 'c-1',
      'X-Svc-Campaign-Id': 'q1',
    });
    expect(damaged.headers['X-Svc-Install-Id']).toBe(configured.headers['X-Svc-Install-Id']);
    expect(Object.keys(damaged.headers).filter((h) => /^X-Svc-(Source|Channel|Campaign)/.test(h))).toEqual(
      [],
    );
  });
});
