'use strict';
const {
  dataset,
  generateDataset,
  companyHashIdFor,
  mailOutcome,
  cleanTaskSubject,
  substituteVariables,
} = require('../../dev/sandbox');

describe('data set', () => {
  const ds = dataset(42);

  test('deterministic from the seed', () => {
    const fresh = JSON.stringify(
      require('../../dev/sandbox/data').generateDataset(42).companies.slice(0, 20),
    );
    expect(fresh).toBe(JSON.stringify(ds.companies.slice(0, 20)));
    const other = generateDataset(7);
    expect(
      other.companies[0].domain === ds.companies[0].domain &&
        other.companies[1].domain === ds.companies[1].domain,
    ).toBe(false);
  });

  test('at least 500 companies over 20+ countries, many industries, types and products', () => {
    expect(ds.companies.length).toBeGreaterThanOrEqual(500);
    expect(new Set(ds.companies.map((c) => c.country_code)).size).toBeGreaterThanOrEqual(20);
    expect(new Set(ds.companies.flatMap((c) => c.industry)).size).toBeGreaterThanOrEqual(15);
    expect(new Set(ds.companies.flatMap((c) => c.company_type)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(ds.companies.flatMap((c) => c.main_products)).size).toBeGreaterThanOrEqual(50);
    expect(new Set(ds.companies.map((c) => c.domain)).size).toBe(ds.companies.length);
    expect(new Set(ds.companies.map((c) => c.id)).size).toBe(ds.companies.length);
  });

  test('companyHashId: opaque, derived from the domain, never the row id', () => {
    for (const c of ds.companies) {
      expect(c.companyHashId).toBe(companyHashIdFor(c.domain));
      expect(c.companyHashId).not.toBe(c.id);
    }
  });

  test('fixtures: formula and HTML names, >250 contacts, no contacts, formula contacts', () => {
    const f = ds.fixtures;
    expect(f.formulaNames.map((r) => r.name[0]).sort()).toEqual(expect.arrayContaining(['+', '-', '=', '@']));
    expect(f.htmlNames.every((r) => /<\w+>/.test(r.name))).toBe(true);
    expect(f.manyContacts.length).toBeGreaterThanOrEqual(2);
    expect(f.manyContacts.every((r) => r.contacts > 250)).toBe(true);
    expect(f.noContacts.length).toBeGreaterThan(5);
    expect(f.noContacts.every((r) => ds.byDomain.get(r.domain).email_count === 0)).toBe(true);
    const contacts = f.formulaContacts.flatMap((r) => ds.byDomain.get(r.domain).contacts);
    expect(contacts.some((c) => c.name.startsWith('='))).toBe(true);
    expect(contacts.some((c) => c.title.startsWith('='))).toBe(true);
    expect(f.nameEqualsDomain.name).toBe(f.nameEqualsDomain.domain);
    const sizes = ds.companies.map((c) => c.contacts.length).sort((a, b) => a - b);
    expect(sizes[Math.floor(sizes.length / 2)]).toBeGreaterThan(0); // most have a few
  });
});

describe('pure rules', () => {
  test('mailOutcome', () => {
    expect(mailOutcome('bounce@example.com').fails).toBe(true);
    expect(mailOutcome('BOUNCE.me@example.com').fails).toBe(true);
    expect(mailOutcome('a@host.invalid').fails).toBe(true);
    expect(mailOutcome('nobounce@example.com')).toEqual({ fails: false, failureReason: null, opens: false });
    expect(mailOutcome('will.Open@example.com').opens).toBe(true);
  });

  test('cleanTaskSubject and substituteVariables', () => {
    expect(cleanTaskSubject('\u00A0\u200B x y \uFEFF\r\n')).toBe('x y');
    expect(substituteVariables('first first_name First', { first: 'A', first_name: 'B' })).toBe('A B First');
    expect(substituteVariables('cost $ amount', { amount: '$&1' })).toBe('cost $ $&1');
  });
});
