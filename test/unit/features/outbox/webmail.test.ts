// src/features/outbox/webmail.ts: an address at a public webmail service says nothing about its company.
import { companyDomain, domainOf, isSharedDomain, isWebmail } from '../../../../src/features/outbox/webmail';

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

  test('shared domains: webmail, internet providers, the reserved example domains, universities', () => {
    for (const domain of [
      'gmail.com',
      'verizon.net',
      'example.com',
      'example.net',
      'mail.example.com',
      'mit.edu',
      'ac.jp',
    ])
      expect(isSharedDomain(domain)).toBe(true);
    for (const domain of ['acme.com', 'edu.com', 'example.co']) expect(isSharedDomain(domain)).toBe(false);
  });

  test("companyDomain: the address's domain when it names a company, else ''", () => {
    expect(companyDomain('ann@acme.com')).toBe('acme.com');
    expect(companyDomain('ann@gmail.com')).toBe('');
    expect(companyDomain('ann@sub.example.org')).toBe('');
    expect(companyDomain('ann@comcast.net')).toBe('');
    expect(companyDomain('ann@cs.stanford.edu')).toBe('');
    expect(companyDomain('ann@ox.ac.uk')).toBe('');
    expect(companyDomain('ann@unsw.edu.au')).toBe('');
    expect(companyDomain('ann@acme.example')).toBe('acme.example'); // a made-up company's, as in the docs
    expect(companyDomain('ann@myexample.com')).toBe('myexample.com');
    expect(companyDomain('ann@education.com')).toBe('education.com');
    expect(companyDomain('')).toBe('');
  });
});
