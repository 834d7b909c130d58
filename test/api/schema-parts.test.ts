// src/api/outreach/schema-parts.ts: cleanLine / cleanNickname leave no control character in a one-line text
// of a request.
import { cleanLine, cleanNickname, cutChars, NICKNAME_MAX } from '../../src/api/outreach/schema-parts';

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
