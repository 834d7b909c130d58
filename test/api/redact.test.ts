// src/api/transport/redact.ts: redact() leaves no fragment of a key in any text of an answer.
import { KEY_HIDDEN, redact } from '../../src/api/transport/redact';

const KEY = 'OutrKey-AbCdEfGh0123456789-XyZ';
const PHONE = 'PhoneKey_9876543210_QwErTy';

describe('redact', () => {
  test('a text with no key is returned unchanged', () => {
    const text = 'The Outreach service rejected the request: subject is empty (POST /api/v1/emails).';
    expect(redact(text, [KEY, PHONE])).toBe(text);
    expect(redact('', [KEY])).toBe('');
    expect(redact(text, [])).toBe(text);
  });

  test('the whole key, in any letter case, anywhere', () => {
    expect(redact(`bad key ${KEY}`, [KEY])).toBe(`bad key ${KEY_HIDDEN}`);
    expect(redact(`bad key ${KEY.toLowerCase()}.`, [KEY])).toBe(`bad key ${KEY_HIDDEN}.`);
    expect(redact(`${KEY.toUpperCase()} is revoked`, [KEY])).toBe(`${KEY_HIDDEN} is revoked`);
  });

  test('fragments of 8 characters or more at the start, middle and end of a key, and of the text', () => {
    const start = KEY.slice(0, 8);
    const middle = KEY.slice(9, 29).toLowerCase();
    const end = KEY.slice(-10);
    expect(redact(`${start} refused`, [KEY])).toBe(`${KEY_HIDDEN} refused`);
    expect(redact(`seen: ...${middle}... here`, [KEY])).toBe(`seen: ...${KEY_HIDDEN}... here`);
    expect(redact(`key ends ${end}`, [KEY])).toBe(`key ends ${KEY_HIDDEN}`);
    const out = redact(`a ${start} b ${middle} c ${end}`, [KEY]);
    expect(out).toBe(`a ${KEY_HIDDEN} b ${KEY_HIDDEN} c ${KEY_HIDDEN}`);
  });

  test('a piece shorter than 8 characters is kept (it cannot be told from ordinary words)', () => {
    const seven = KEY.slice(8, 15);
    expect(redact(`code ${seven} given`, [KEY])).toBe(`code ${seven} given`);
  });

  test('several keys at once; both hidden, the rest of the text kept', () => {
    const text = `outreach ${KEY.toLowerCase()}, phone ${PHONE.slice(3, 15)} and ${PHONE.toUpperCase()}`;
    const out = redact(text, [KEY, PHONE]);
    expect(out).toBe(`outreach ${KEY_HIDDEN}, phone ${KEY_HIDDEN} and ${KEY_HIDDEN}`);
    for (const key of [KEY, PHONE]) {
      for (let i = 0; i + 8 <= key.length; i++) {
        expect(out.toLowerCase()).not.toContain(key.slice(i, i + 8).toLowerCase());
      }
    }
  });

  test('a short key (4 to 7 characters) is hidden whole; empty and tiny keys are ignored', () => {
    expect(redact('key Ab12x refused', ['ab12X'])).toBe(`key ${KEY_HIDDEN} refused`);
    expect(redact('abc', ['', 'ab'])).toBe('abc');
  });

  test('a character whose lower case is longer does not shift what is hidden', () => {
    const text = `İstanbul ${KEY.toLowerCase()} ok`;
    expect(redact(text, [KEY])).toBe(`İstanbul ${KEY_HIDDEN} ok`);
  });
});
