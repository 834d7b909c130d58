'use strict';
const { useSandbox, unlock, DEMO_KEYS } = require('./helpers');
const { companyHashIdFor } = require('../../dev/sandbox');

const t = useSandbox();
const DAY = 86400000;
const company = (i) => t.sb.state.companies[i];
const balance = async (key = DEMO_KEYS.paid) => (await t.api('GET', '/api/v1/credit/balance', { key })).json;

describe('unlock', () => {
  test('first unlock costs 1 point from the monthly bucket', async () => {
    const c = company(3);
    const res = await unlock(t, c);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      companyHashId: companyHashIdFor(c.domain),
      companyName: c.company_name,
      charged: true,
      alreadyViewed: false,
    });
    expect(res.json.companyHashId).not.toBe(c.id);
    expect(await balance()).toMatchObject({ monthlyPoints: 99, addonPoints: 400 });
  });

  test('a repeat within 30 days is free; after 30 days it is charged again', async () => {
    const c = company(4);
    await unlock(t, c);
    t.clock.advance(29 * DAY);
    const repeat = await unlock(t, c);
    expect(repeat.json).toMatchObject({ charged: false, alreadyViewed: true });
    // nothing charged (the monthly bucket has expired at day 20; the add-on bucket is untouched)
    expect(await balance()).toMatchObject({ monthlyPoints: 0, addonPoints: 400 });
    t.clock.advance(1 * DAY);
    const again = await unlock(t, c);
    expect(again.json).toMatchObject({ charged: true, alreadyViewed: false });
    // monthly bucket expired at day 20: the second charge comes from the add-on bucket
    expect(await balance()).toMatchObject({ monthlyPoints: 0, addonPoints: 399 });
    const log = await t.control('GET', `/unlocks?key=${DEMO_KEYS.paid}`);
    expect(log.json.unlocks.map((u) => u.charged)).toEqual([true, false, true]);
  });

  test('the window is per account', async () => {
    const c = company(5);
    await unlock(t, c);
    const other = await unlock(t, c, DEMO_KEYS.low);
    expect(other.json).toMatchObject({ charged: true, alreadyViewed: false });
  });

  test('domain and country are matched case-insensitively', async () => {
    const c = company(6);
    const res = await t.api('POST', '/api/v1/companies/unlock', {
      body: { domain: c.domain.toUpperCase(), countryCode: c.country_code.toLowerCase() },
    });
    expect(res.status).toBe(200);
  });

  test('deduction order: monthly first, then add-on, then 402 with nothing deducted', async () => {
    const first = await unlock(t, company(10), DEMO_KEYS.low);
    expect(first.json.charged).toBe(true);
    expect(await balance(DEMO_KEYS.low)).toMatchObject({ monthlyPoints: 0, addonPoints: 1 });
    await unlock(t, company(11), DEMO_KEYS.low);
    expect(await balance(DEMO_KEYS.low)).toMatchObject({ monthlyPoints: 0, addonPoints: 0 });
    const third = await unlock(t, company(12), DEMO_KEYS.low);
    expect(third.status).toBe(402);
    expect(third.json.type).toBe(`${t.sb.outreachUrl}/errors/insufficient-credits`);
    expect(third.json.detail).toMatch(/required 1, available 0/);
    expect(third.json.detail).toContain(`${t.sb.outreachUrl}/pricing`);
    expect(await balance(DEMO_KEYS.low)).toMatchObject({ monthlyPoints: 0, addonPoints: 0 });
    // a repeat unlock inside the window needs no points
    const repeat = await unlock(t, company(10), DEMO_KEYS.low);
    expect(repeat.json).toMatchObject({ charged: false, alreadyViewed: true });
    const log = await t.control('GET', `/unlocks?key=${DEMO_KEYS.low}`);
    expect(log.json.unlocks.map((u) => [u.status, u.charged])).toEqual([
      [200, true],
      [200, true],
      [402, false],
      [200, false],
    ]);
  });

  test('404 when no company matches domain + country; nothing charged', async () => {
    const c = company(7);
    const wrongCountry = c.country_code === 'US' ? 'DE' : 'US';
    const a = await t.api('POST', '/api/v1/companies/unlock', {
      body: { domain: c.domain, countryCode: wrongCountry },
    });
    expect(a.status).toBe(404);
    expect(a.json.type).toBe(`${t.sb.outreachUrl}/errors/not-found`);
    const b = await t.api('POST', '/api/v1/companies/unlock', {
      body: { domain: 'nope.example', countryCode: 'US' },
    });
    expect(b.status).toBe(404);
    expect((await balance()).monthlyPoints).toBe(100);
    const log = await t.control('GET', '/unlocks');
    expect(log.json.unlocks.every((u) => u.status === 404 && u.charged === false)).toBe(true);
  });

  test.each([
    ['missing domain', { countryCode: 'US' }, /domain/],
    ['missing countryCode', { domain: 'a.com' }, /countryCode/],
    ['empty domain', { domain: '', countryCode: 'US' }, /domain/],
    ['bad countryCode', { domain: 'a.com', countryCode: 'ZZ' }, /countryCode/],
    ['array body', [], /JSON object/],
  ])('400: %s', async (_n, body, detail) => {
    const res = await t.api('POST', '/api/v1/companies/unlock', { body });
    expect(res.status).toBe(400);
    expect(res.json.detail).toMatch(detail);
  });

  test('the free plan may unlock', async () => {
    const res = await unlock(t, company(8), DEMO_KEYS.free);
    expect(res.json.charged).toBe(true);
  });
});

describe('profile', () => {
  test('404 before unlock, 200 after, 404 for another account', async () => {
    const c = company(20);
    const id = companyHashIdFor(c.domain);
    const before = await t.api('GET', `/api/v1/companies/${id}/profile`);
    expect(before.status).toBe(404);
    await unlock(t, c);
    const after = await t.api('GET', `/api/v1/companies/${id}/profile`);
    expect(after.status).toBe(200);
    expect(after.json).toMatchObject({
      companyHashId: id,
      name: c.company_name,
      country: expect.any(String),
      industry: c.industry.join(', '),
      website: `https://www.${c.domain}`,
    });
    const other = await t.api('GET', `/api/v1/companies/${id}/profile`, { key: DEMO_KEYS.low });
    expect(other.status).toBe(404);
  });

  test('search row id or domain are not accepted as ids', async () => {
    const c = company(21);
    await unlock(t, c);
    expect((await t.api('GET', `/api/v1/companies/${c.id}/profile`)).status).toBe(404);
    expect((await t.api('GET', `/api/v1/companies/${c.domain}/profile`)).status).toBe(404);
  });

  test('tradeData rows have hsCode, value, date, direction import|export', async () => {
    const c = t.sb.state.companies.find((x) => x.profile.tradeData && x.profile.tradeData.length > 2);
    const { json } = await unlock(t, c);
    const res = await t.api('GET', `/api/v1/companies/${json.companyHashId}/profile`);
    for (const row of res.json.tradeData) {
      expect(row).toEqual({
        hsCode: expect.stringMatching(/^\d{6}$/),
        value: expect.any(Number),
        date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        direction: expect.stringMatching(/^(import|export)$/),
      });
    }
  });

  test('some profiles lack optional fields', async () => {
    const ref = t.sb.state.fixtures.incompleteProfiles[0];
    const { json } = await unlock(t, ref);
    const res = await t.api('GET', `/api/v1/companies/${json.companyHashId}/profile`);
    const keys = Object.keys(res.json);
    expect(keys).toEqual(expect.arrayContaining(['companyHashId', 'name', 'country', 'industry', 'website']));
    expect(['employeeCount', 'description', 'tradeData'].every((k) => keys.includes(k))).toBe(false);
  });

  test('profile and profileEmails are free', async () => {
    const { json } = await unlock(t, company(22));
    await t.api('GET', `/api/v1/companies/${json.companyHashId}/profile`);
    await t.api('GET', `/api/v1/companies/${json.companyHashId}/profileEmails`);
    expect((await balance()).monthlyPoints).toBe(99);
  });
});

describe('profileEmails', () => {
  const emailsPath = (id, query = '') => `/api/v1/companies/${id}/profileEmails${query}`;

  test('404 unless unlocked by the caller', async () => {
    const c = t.sb.state.companies.find((x) => x.contacts.length > 0);
    const id = companyHashIdFor(c.domain);
    expect((await t.api('GET', emailsPath(id))).status).toBe(404);
    await unlock(t, c, DEMO_KEYS.low);
    expect((await t.api('GET', emailsPath(id))).status).toBe(404);
    expect((await t.api('GET', emailsPath(id), { key: DEMO_KEYS.low })).status).toBe(200);
  });

  test('more than 250 contacts: default pageSize 20, paging up to 100 per page', async () => {
    const ref = t.sb.state.fixtures.manyContacts[0];
    expect(ref.contacts).toBeGreaterThan(250);
    const { json } = await unlock(t, ref);
    const first = await t.api('GET', emailsPath(json.companyHashId));
    expect(first.json.total).toBe(ref.contacts);
    expect(first.json.page).toBe(1);
    expect(first.json.emails).toHaveLength(20);
    expect(Object.keys(first.json.emails[0]).sort()).toEqual(['email', 'linkedin', 'name', 'title']);
    const seen = new Set();
    for (let page = 1; ; page++) {
      const res = await t.api('GET', emailsPath(json.companyHashId, `?page=${page}&pageSize=100`));
      expect(res.json.page).toBe(page);
      res.json.emails.forEach((e) => seen.add(e.email));
      if (res.json.emails.length < 100) break;
    }
    expect(seen.size).toBe(ref.contacts);
  });

  test('a company without contacts answers an empty list', async () => {
    const { json } = await unlock(t, t.sb.state.fixtures.noContacts[0]);
    const res = await t.api('GET', emailsPath(json.companyHashId));
    expect(res.json).toEqual({ emails: [], total: 0, page: 1 });
  });

  test('keyword filters name or title case-insensitively', async () => {
    const ref = t.sb.state.fixtures.manyContacts[1];
    const { json } = await unlock(t, ref);
    const all = t.sb.state.byDomain.get(ref.domain).contacts;
    const byTitle = await t.api('GET', emailsPath(json.companyHashId, '?keyword=SALES&pageSize=100'));
    const expected = all.filter((c) => /sales/i.test(c.title) || /sales/i.test(c.name));
    expect(byTitle.json.total).toBe(expected.length);
    expect(byTitle.json.total).toBeGreaterThan(0);
    const name = all[0].name.split(' ')[1].toLowerCase();
    const byName = await t.api('GET', emailsPath(json.companyHashId, `?keyword=${encodeURIComponent(name)}`));
    expect(byName.json.total).toBe(
      all.filter((c) => c.name.toLowerCase().includes(name) || c.title.toLowerCase().includes(name)).length,
    );
  });

  test('contacts whose name or title begins with "=" exist', async () => {
    const { json } = await unlock(t, t.sb.state.fixtures.formulaContacts[0]);
    const res = await t.api('GET', emailsPath(json.companyHashId, '?pageSize=100'));
    expect(res.json.emails.some((e) => e.name.startsWith('=') || e.title.startsWith('='))).toBe(true);
  });

  test.each([
    ['pageSize 101', '?pageSize=101'],
    ['pageSize 0', '?pageSize=0'],
    ['page 0', '?page=0'],
    ['page -1', '?page=-1'],
    ['page abc', '?page=abc'],
  ])('400: %s', async (_n, query) => {
    const { json } = await unlock(t, company(30));
    const res = await t.api('GET', emailsPath(json.companyHashId, query));
    expect(res.status).toBe(400);
    expect(res.json.type).toBe(`${t.sb.outreachUrl}/errors/bad-request`);
  });
});
