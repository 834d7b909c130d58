'use strict';
// Shared setup for the sandbox tests: a sandbox on free ports with a virtual clock, and small fetch wrappers.

const { startSandbox, Clock, DEMO_KEYS } = require('../../dev/sandbox');

async function parse(res) {
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

function clientFor(sb) {
  /** Outreach request: `key` null sends no Authorization header. */
  async function api(method, path, { key = DEMO_KEYS.paid, body, headers = {} } = {}) {
    const h = { ...headers };
    if (key) h.Authorization = `ApiKey ${key}`;
    if (body !== undefined) h['Content-Type'] = 'application/json';
    const res = await fetch(sb.outreachUrl + path, {
      method,
      headers: h,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return parse(res);
  }
  /** Phone request: `key` null sends no x-api-key header. */
  async function phone(path, { key = DEMO_KEYS.phone } = {}) {
    const res = await fetch(sb.phoneUrl + path, { headers: key ? { 'x-api-key': key } : {} });
    return parse(res);
  }
  /** Control request on the outreach port (or `base`). */
  async function control(method, path, body, base = sb.outreachUrl) {
    const res = await fetch(`${base}/__sandbox${path}`, {
      method,
      headers: body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    return parse(res);
  }
  const check = (number, key) => phone(`/api/wa/check?phone=${encodeURIComponent(number)}`, { key });
  return { api, phone, control, check };
}

/** Starts a sandbox with a virtual clock for a test file; resets it before each test. */
function useSandbox({ seed = 42 } = {}) {
  const ctx = {};
  beforeAll(async () => {
    ctx.clock = Clock.virtual();
    ctx.sb = await startSandbox({ clock: ctx.clock, seed });
    Object.assign(ctx, clientFor(ctx.sb));
  });
  beforeEach(() => ctx.sb.state.reset());
  afterAll(() => ctx.sb && ctx.sb.close());
  return ctx;
}

/** Unlocks a company and returns the JSON answer. */
async function unlock(t, company, key = DEMO_KEYS.paid) {
  const res = await t.api('POST', '/api/v1/companies/unlock', {
    key,
    body: { domain: company.domain, countryCode: company.countryCode || company.country_code },
  });
  return res;
}

const recipients = (n, make = (i) => `user${i}@example.com`) =>
  Array.from({ length: n }, (_, i) => ({ email: make(i), subject: `Hello ${i}` }));

module.exports = { useSandbox, clientFor, parse, unlock, recipients, DEMO_KEYS };
