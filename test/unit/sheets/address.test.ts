// src/sheets/address.ts: one mailbox is one person, however its address is spelled.
import { addressKey } from '../../../src/sheets/address';

describe('addressKey', () => {
  test('case and surrounding spaces never make two people', () => {
    expect(addressKey('  Ann.Smith@Acme.COM ')).toBe('ann.smith@acme.com');
  });

  test('at Gmail, dots and a +tag are the same mailbox, and googlemail.com is gmail.com', () => {
    const key = addressKey('ann@gmail.com');
    for (const spelling of ['a.nn@gmail.com', 'ann+promo@gmail.com', 'A.N.N+x+y@GoogleMail.com'])
      expect(addressKey(spelling)).toBe(key);
  });

  test('a +tag at the large providers that deliver it to the same mailbox is dropped', () => {
    expect(addressKey('bob+news@outlook.com')).toBe('bob@outlook.com');
    expect(addressKey('bob+news@icloud.com')).toBe('bob@icloud.com');
    expect(addressKey('bob+news@fastmail.com')).toBe('bob@fastmail.com');
  });

  test("elsewhere the local part is the server's: dots and +tags are kept", () => {
    expect(addressKey('a.nn@acme.com')).not.toBe(addressKey('ann@acme.com'));
    expect(addressKey('ann+sales@acme.com')).toBe('ann+sales@acme.com');
  });

  test('what is not an address stays as written (lower case), so the row check can say why', () => {
    expect(addressKey('')).toBe('');
    expect(addressKey('not an address')).toBe('not an address');
    expect(addressKey('@gmail.com')).toBe('@gmail.com');
    expect(addressKey('+tag@gmail.com')).toBe('+tag@gmail.com');
  });
});
