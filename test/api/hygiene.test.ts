// The two hygiene functions of the API layer: redact() (no fragment of a key in any text of an answer) and
// cleanLine / cleanNickname (no control character in a one-line text of a request), and the send schemas
// that apply them (cleaned, never refused).
import { KEY_HIDDEN, redact } from '../../src/api/transport/redact';
import { cleanLine, cleanNickname, cutChars, NICKNAME_MAX } from '../../src/api/outreach/schema-parts';
import { checkRequest } from '../../src/api/transport/requests';
import { SendPersonalizedRequestSchema } from '../../src/api/outreach/email-schemas';

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

describe('cleanLine and cleanNickname', () => {
  test('line breaks and tabs become one space; other control and format characters go; ends trimmed', () => {
    expect(cleanLine('Ann\r\nBcc: evil@x.com')).toBe('Ann Bcc: evil@x.com');
    expect(cleanLine(' a \t b\u2028c\u2029\n d ')).toBe('a b c d');
    expect(cleanLine('\u200BSpr\u0000ing\u0007 of\u200Dfer\uFEFF\u202E')).toBe('Spring offer');
    expect(cleanLine('x\u0085y\u000Bz')).toBe('xyz');
    expect(cleanLine('Grüße 😀 Ünïcode')).toBe('Grüße 😀 Ünïcode');
  });

  test('a nickname is cut at 200 characters, never inside a surrogate pair', () => {
    expect(cleanNickname(`Ann\r\nBcc: x${'y'.repeat(20000)}`)).toHaveLength(NICKNAME_MAX);
    const emoji = '😀'.repeat(300);
    const cut = cleanNickname(emoji);
    expect([...cut]).toHaveLength(NICKNAME_MAX);
    expect(cut).toBe('😀'.repeat(NICKNAME_MAX));
    expect(cutChars(`${'a'.repeat(199)}😀b`, 200)).toBe(`${'a'.repeat(199)}😀`);
    expect(cleanNickname(`${'a'.repeat(199)} \n b`)).toBe('a'.repeat(199));
  });
});

describe('send schemas clean instead of refusing', () => {
  test('personalized: subject, nickname and task_subject cleaned; content keeps its line breaks', () => {
    const body = checkRequest('outreach', 'POST /x', SendPersonalizedRequestSchema(), {
      task_subject: 'Spring\r\noffer\u200B · T1',
      emails: [
        {
          email: 'ann@example.com',
          subject: 'Hi\nthere\u0000',
          nickname: `Ann\r\nBcc: evil@x.com${'z'.repeat(500)}`,
          content: 'Line 1\nLine 2',
          body_format: 'text',
        },
        {
          email: 'bob@example.com',
          subject: 'Hi',
          nickname: '\u200B\r\n',
          content: 'x',
          body_format: 'text',
        },
      ],
    });
    expect(body.task_subject).toBe('Spring offer · T1');
    expect(body.emails[0].subject).toBe('Hi there');
    expect(body.emails[0].nickname).toHaveLength(200);
    expect(body.emails[0].nickname?.startsWith('Ann Bcc: evil@x.com')).toBe(true);
    expect(body.emails[0].content).toBe('Line 1\nLine 2');
    expect(body.emails[1].nickname).toBeUndefined(); // nothing left: not sent
    expect(JSON.stringify(body.emails[1])).not.toContain('nickname');
  });
});
