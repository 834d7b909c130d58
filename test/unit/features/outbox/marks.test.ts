// src/features/outbox/marks.ts: the keyed marks the ledger keeps instead of addresses and mails. A
// mark changes with anything that decides what is sent, and only the payer's secret makes it.
import * as crypto from 'node:crypto';
import {
  ADDRESS_CHARS,
  addressMark,
  boundFields,
  type ConfirmedMail,
  CONTENT_CHARS,
  contentMark,
  decodeNumber,
  encodeNumber,
  hash32,
  hmac64,
  mailMark,
} from '../../../../src/features/outbox/marks';
import type { ListRow } from '../../../../src/sheets/mailing-list';
import { useUtilities } from '../../gas-utilities';

useUtilities();

const SECRET = 'payer-secret';
const mail: ConfirmedMail = {
  campaign: 'Spring',
  subject: 'Hi {{First name}}',
  body: 'We ship to {{Company}}. {{Unsubscribe}}',
  bodyFormat: 'text',
  followUps: [
    {
      afterDays: 3,
      subject: '',
      body: 'News, {{Title|friend}}?',
      workingDaysOnly: false,
      unopenedOnly: false,
    },
  ],
};
const row = (display: Record<string, string>, key = 'ann@acme.com', nickname = 'Ann') =>
  ({ key, nickname, display: new Map(Object.entries(display)) }) as ListRow;

describe('hmac64', () => {
  test('the first 64 bits of HMAC-SHA256 keyed with the secret, in 11 base-64 characters', () => {
    const expected = crypto
      .createHmac('sha256', SECRET)
      .update('text')
      .digest()
      .subarray(0, 8)
      .toString('base64');
    expect(hmac64(SECRET, 'text')).toBe(expected.slice(0, CONTENT_CHARS));
    expect(hmac64(SECRET, 'text')).toHaveLength(CONTENT_CHARS);
    expect(hmac64('another secret', 'text')).not.toBe(hmac64(SECRET, 'text'));
  });
});

describe('mailMark', () => {
  test('the same mail gives the same mark', () => {
    expect(mailMark(SECRET, { ...mail })).toBe(mailMark(SECRET, mail));
  });

  test('any change of campaign, subject, body, format or a step changes it', () => {
    const base = mailMark(SECRET, mail);
    const step = mail.followUps![0];
    const changed: ConfirmedMail[] = [
      { ...mail, campaign: 'Spring 2' },
      { ...mail, subject: 'Hello {{First name}}' },
      { ...mail, body: `${mail.body} ` },
      { ...mail, bodyFormat: 'html' },
      { ...mail, followUps: [] },
      { ...mail, followUps: [{ ...step, afterDays: 4 }] },
      { ...mail, followUps: [{ ...step, workingDaysOnly: true }] },
      { ...mail, followUps: [{ ...step, unopenedOnly: true }] },
      { ...mail, followUps: [{ ...step, subject: 'Again' }] },
    ];
    for (const other of changed) expect(mailMark(SECRET, other)).not.toBe(base);
  });
});

describe('boundFields', () => {
  test('the columns the first mail and the steps insert, the name columns always, sorted, {{Unsubscribe}} not', () => {
    expect(boundFields(mail)).toEqual(['company', 'first name', 'last name', 'name', 'nickname', 'title']);
  });
});

describe('contentMark', () => {
  const fields = boundFields(mail);
  const ann = row({ 'first name': 'Ann', company: 'Acme', title: 'CEO', notes: 'met at a fair' });

  test('a change of a column the mail inserts, of the address or of the salutation changes it', () => {
    const base = contentMark(SECRET, fields, ann);
    expect(
      contentMark(SECRET, fields, row({ ...Object.fromEntries(ann.display), company: 'Acme GmbH' })),
    ).not.toBe(base);
    expect(contentMark(SECRET, fields, row(Object.fromEntries(ann.display), 'bob@acme.com'))).not.toBe(base);
    expect(
      contentMark(SECRET, fields, row(Object.fromEntries(ann.display), 'ann@acme.com', 'Annie')),
    ).not.toBe(base);
  });

  test('a column the mail does not insert may change freely', () => {
    const base = contentMark(SECRET, fields, ann);
    expect(
      contentMark(SECRET, fields, row({ ...Object.fromEntries(ann.display), notes: 'called back' })),
    ).toBe(base);
  });
});

describe('addressMark and hash32', () => {
  test('8 characters, the same for the same address and secret, another for another secret', () => {
    const mark = addressMark(SECRET, 'ann@acme.com');
    expect(mark).toHaveLength(ADDRESS_CHARS);
    expect(addressMark(SECRET, 'ann@acme.com')).toBe(mark);
    expect(addressMark('other', 'ann@acme.com')).not.toBe(mark);
    expect(addressMark(SECRET, 'bob@acme.com')).not.toBe(mark);
  });

  test('hash32 is an unsigned 32-bit number keyed by the secret (secret and text do not run together)', () => {
    const h = hash32('ab', 'c');
    expect(Number.isInteger(h) && h >= 0 && h < 2 ** 32).toBe(true);
    expect(hash32('a', 'bc')).not.toBe(h);
  });
});

describe('encodeNumber and decodeNumber', () => {
  test('a number in a fixed count of base-64 characters and back', () => {
    for (const n of [0, 1, 63, 64, 4095, 1_767_600_000, 2 ** 36 - 1])
      expect(decodeNumber(encodeNumber(n, 6))).toBe(n);
    expect(encodeNumber(0, 3)).toBe('AAA');
    expect(encodeNumber(65, 2)).toBe('BB');
  });

  test('a negative number or a fraction is stored as its whole part from zero', () => {
    expect(decodeNumber(encodeNumber(-5, 2))).toBe(0);
    expect(decodeNumber(encodeNumber(12.9, 2))).toBe(12);
  });
});
