'use strict';
const { useSandbox, DEMO_KEYS } = require('./helpers');

const t = useSandbox();
const PATH = '/api/v1/companies/search-advanced';
const search = (body, key) => t.api('POST', PATH, { body, key });
const lower = (list) => list.map((s) => s.toLowerCase());
const has = (list, kw) => lower(list).some((v) => v.includes(kw));

describe('search-advanced', () => {
  test('happy path: default size 10 from 0, every search-row field', async () => {
    const res = await search({ industryKeywords: ['furniture'] });
    expect(res.status).toBe(200);
    expect(res.json.total).toBeGreaterThan(10);
    expect(res.json.list).toHaveLength(10);
    const row = res.json.list[0];
    expect(Object.keys(row).sort()).toEqual(
      [
        'id',
        'company_name',
        'company_type',
        'industry',
        'main_products',
        'country_code',
        'founding_time',
        'employees_count',
        'email_count',
        'whatsapp_count',
        'company_profile',
        'domain',
      ].sort(),
    );
    expect(typeof row.id).toBe('string');
    expect(typeof row.email_count).toBe('number');
    for (const r of res.json.list) expect(has(r.industry, 'furniture')).toBe(true);
  });

  test('search row id is not the companyHashId', async () => {
    const res = await search({ industryKeywords: ['furniture'], size: 1 });
    const row = res.json.list[0];
    const company = t.sb.state.byDomain.get(row.domain);
    expect(row.id).not.toBe(company.companyHashId);
  });

  test('keywords are case-insensitive substrings; several in one field are ORed', async () => {
    const a = await search({ productKeywords: ['SOFA'], size: 50 });
    const b = await search({ productKeywords: ['tires'], size: 50 });
    const both = await search({ productKeywords: ['SOFA', 'tires'], size: 50 });
    expect(a.json.total).toBeGreaterThan(0);
    expect(b.json.total).toBeGreaterThan(0);
    const expected = t.sb.state.companies.filter(
      (c) => has(c.main_products, 'sofa') || has(c.main_products, 'tires'),
    ).length;
    expect(both.json.total).toBe(expected);
    expect(both.json.total).toBeGreaterThanOrEqual(Math.max(a.json.total, b.json.total));
  });

  test('crossFieldOperator AND (default) vs OR', async () => {
    const body = { companyTypeKeywords: ['manufacturer'], industryKeywords: ['chemicals'] };
    const and = await search(body);
    const explicitAnd = await search({ ...body, crossFieldOperator: 'AND' });
    const or = await search({ ...body, crossFieldOperator: 'OR' });
    const cs = t.sb.state.companies;
    const m = (c) => has(c.company_type, 'manufacturer');
    const i = (c) => has(c.industry, 'chemicals');
    expect(and.json.total).toBe(cs.filter((c) => m(c) && i(c)).length);
    expect(explicitAnd.json.total).toBe(and.json.total);
    expect(or.json.total).toBe(cs.filter((c) => m(c) || i(c)).length);
    expect(or.json.total).toBeGreaterThan(and.json.total);
  });

  test('includeCountry and excludeCountry filter', async () => {
    const inc = await search({ industryKeywords: ['a'], includeCountry: ['de', 'FR'], size: 50 });
    expect(inc.json.total).toBeGreaterThan(0);
    for (const r of inc.json.list) expect(['DE', 'FR']).toContain(r.country_code);
    const all = await search({ industryKeywords: ['a'] });
    const exc = await search({ industryKeywords: ['a'], excludeCountry: ['US'], size: 50 });
    const us = t.sb.state.companies.filter((c) => c.country_code === 'US' && has(c.industry, 'a')).length;
    expect(us).toBeGreaterThan(0);
    expect(exc.json.total).toBe(all.json.total - us);
    for (const r of exc.json.list) expect(r.country_code).not.toBe('US');
  });

  test('withEmails 1 returns only companies with emails', async () => {
    const all = await search({ industryKeywords: ['e'], size: 50 });
    const withEmails = await search({ industryKeywords: ['e'], withEmails: 1, size: 50 });
    expect(withEmails.json.total).toBeLessThan(all.json.total);
    for (const r of withEmails.json.list) expect(r.email_count).toBeGreaterThan(0);
    const zero = await search({ industryKeywords: ['e'], withEmails: 0 });
    expect(zero.json.total).toBe(all.json.total);
  });

  test('from and size page through the results', async () => {
    const all = await search({ industryKeywords: ['s'], size: 50 });
    const page2 = await search({ industryKeywords: ['s'], from: 5, size: 5 });
    expect(page2.json.list.map((r) => r.id)).toEqual(all.json.list.slice(5, 10).map((r) => r.id));
    expect(page2.json.total).toBe(all.json.total);
    const beyond = await search({ industryKeywords: ['s'], from: 100000 });
    expect(beyond.json).toEqual({ total: all.json.total, list: [] });
  });

  test('the free plan may search', async () => {
    const res = await search({ industryKeywords: ['toys'] }, DEMO_KEYS.free);
    expect(res.status).toBe(200);
  });

  test('search is free', async () => {
    await search({ industryKeywords: ['toys'] });
    const bal = await t.api('GET', '/api/v1/credit/balance');
    expect(bal.json.monthlyPoints).toBe(100);
  });

  test.each([
    ['no keyword arrays', {}, /At least one/],
    ['only countries', { includeCountry: ['US'] }, /At least one/],
    ['empty keyword arrays', { productKeywords: [], industryKeywords: ['  '] }, /At least one/],
    ['unsupported field employeeRange', { industryKeywords: ['a'], employeeRange: '11-50' }, /employeeRange/],
    ['unsupported field website', { industryKeywords: ['a'], website: 'x.com' }, /website/],
    ['unsupported field limit', { industryKeywords: ['a'], limit: 5 }, /limit/],
    ['size 51', { industryKeywords: ['a'], size: 51 }, /size/],
    ['size 0', { industryKeywords: ['a'], size: 0 }, /size/],
    ['size as string', { industryKeywords: ['a'], size: '10' }, /size/],
    ['negative from', { industryKeywords: ['a'], from: -1 }, /from/],
    ['bad country code', { industryKeywords: ['a'], includeCountry: ['XX'] }, /includeCountry\[0\]/],
    ['bad exclude code', { industryKeywords: ['a'], excludeCountry: ['USA'] }, /excludeCountry/],
    ['withEmails 2', { industryKeywords: ['a'], withEmails: 2 }, /withEmails/],
    ['bad operator', { industryKeywords: ['a'], crossFieldOperator: 'XOR' }, /crossFieldOperator/],
    ['keywords not an array', { industryKeywords: 'furniture' }, /industryKeywords/],
  ])('400 bad-request: %s', async (_name, body, detail) => {
    const res = await search(body);
    expect(res.status).toBe(400);
    expect(res.json.type).toBe(`${t.sb.outreachUrl}/errors/bad-request`);
    expect(res.json.detail).toMatch(detail);
    expect(res.json.instance).toBe(PATH);
  });
});
