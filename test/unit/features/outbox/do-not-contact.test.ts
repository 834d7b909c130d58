// src/features/outbox/do-not-contact.ts: an address, or any address of a listed domain (its subdomains too),
// is never mailed; matching ignores case and spaces, and the row says why.
import { listedReason, listedStatus } from '../../../../src/features/outbox/do-not-contact';
import { stateText } from '../../../../src/sheets/mail-state';

const list = {
  addresses: new Map([
    ['ann@acme.com', 'asked by phone'],
    ['bob@acme.com', ''],
  ]),
  domains: new Map([
    ['globex.com', 'competitor'],
    ['mail.initech.com', ''],
  ]),
};

describe('listedReason', () => {
  test('a listed address, in any case and with spaces around, gives its reason', () => {
    expect(listedReason(list, ' ANN@Acme.com ')).toBe('asked by phone');
    expect(listedReason(list, 'bob@acme.com')).toBe('');
  });

  test('a listed domain covers its addresses and its subdomains', () => {
    expect(listedReason(list, 'carl@globex.com')).toBe('competitor');
    expect(listedReason(list, 'carl@eu.sales.globex.com')).toBe('competitor');
    expect(listedReason(list, 'dan@mail.initech.com')).toBe('');
  });

  test('a parent domain, a look-alike or another address is not listed', () => {
    expect(listedReason(list, 'dan@initech.com')).toBeNull();
    expect(listedReason(list, 'eve@notglobex.com')).toBeNull();
    expect(listedReason(list, 'carl@acme.com')).toBeNull();
    expect(listedReason(list, '')).toBeNull();
  });
});

describe('listedStatus', () => {
  test('the row is skipped with the code do-not-contact and the reason when there is one', () => {
    expect(listedStatus('competitor')).toMatchObject({ kind: 'skipped', code: 'do-not-contact' });
    expect(stateText(listedStatus('competitor'))).toBe('Skipped: on the do-not-contact list (competitor)');
    expect(stateText(listedStatus(''))).toBe('Skipped: on the do-not-contact list');
  });
});
