// src/features/outbox/webmail.ts: an address at a public webmail service says nothing about its company.
import { companyDomain, domainOf, isWebmail } from '../../../../src/features/outbox/webmail';

describe('webmail', () => {
  test('domainOf: the domain after the last @, in lower case', () => {
    expect(domainOf('Ann@Acme.COM ')).toBe('acme.com');
    expect(domainOf('"a@b"@acme.com')).toBe('acme.com');
    expect(domainOf('no address')).toBe('');
  });

  test('public webmail services, their country domains included, are webmail', () => {
    for (const domain of [
      'gmail.com',
      'googlemail.com',
      'yahoo.co.uk',
      'hotmail.fr',
      'outlook.de',
      'gmx.net',
      '163.com',
    ])
      expect(isWebmail(domain)).toBe(true);
    for (const domain of ['acme.com', 'gmail.acme.com', 'myyahoo.com']) expect(isWebmail(domain)).toBe(false);
  });

  test("companyDomain: the address's domain when it names a company, else ''", () => {
    expect(companyDomain('ann@acme.com')).toBe('acme.com');
    expect(companyDomain('ann@gmail.com')).toBe('');
    expect(companyDomain('')).toBe('');
  });
});
