'use strict';
// Utilities, Session, Logger and console.
const crypto = require('node:crypto');
const { AppsScriptEmulator } = require('.');

const make = (code, opts) => new AppsScriptEmulator({ code, ...opts });

test('formatDate with Java SimpleDateFormat patterns and time zones', () => {
  const emu = make(
    `function f(tz, p) { return Utilities.formatDate(new Date(Date.UTC(2026, 0, 5, 9, 3, 7, 45)), tz, p); }`,
  );
  const f = (tz, p) => emu.run('f', [tz, p]);
  expect(f('Etc/UTC', "yyyy-MM-dd'T'HH:mm:ss.SSSXXX")).toBe('2026-01-05T09:03:07.045Z');
  expect(f('America/New_York', "yyyy-MM-dd'T'HH:mm:ssXXX")).toBe('2026-01-05T04:03:07-05:00');
  expect(f('Asia/Kolkata', 'dd/MM/yy HH:mm Z')).toBe('05/01/26 14:33 +0530');
  expect(f('GMT+2', 'EEE, d MMM yyyy h:mm a')).toBe('Mon, 5 Jan 2026 11:03 AM');
  expect(f('Etc/UTC', "'at' HH 'o''clock'")).toBe("at 09 o'clock");
  expect(() => f('Mars/Olympus', 'yyyy')).toThrow('Invalid argument: timeZone');
});

test("formatDate's zone name is the formatted date's (winter or summer time), not today's", () => {
  const emu = make(
    `function z(ms) { return Utilities.formatDate(new Date(ms), 'America/New_York', 'HH:mm z'); }`,
  );
  expect(emu.run('z', [Date.UTC(2026, 0, 5, 14)])).toBe('09:00 EST');
  expect(emu.run('z', [Date.UTC(2026, 6, 6, 13)])).toBe('09:00 EDT');
});

test('base64 and digests use signed byte arrays', () => {
  const emu = make(`function b() {
    var bytes = Utilities.base64Decode('/+8A');
    var web = Utilities.base64EncodeWebSafe([-1, -17, 0, 62, 63]);
    return [bytes, Utilities.base64Encode('héllo'), Utilities.base64Encode(bytes), web, Utilities.base64DecodeWebSafe(web),
      Utilities.newBlob(Utilities.base64Decode(Utilities.base64Encode('héllo'))).getDataAsString()];
  }
  function d(alg, s) { return Utilities.computeDigest(Utilities.DigestAlgorithm[alg], s); }
  function hmac(s, k) { return Utilities.computeHmacSha256Signature(s, k); }`);
  expect(emu.run('b')).toEqual([[-1, -17, 0], 'aMOpbGxv', '/+8A', '_-8APj8=', [-1, -17, 0, 62, 63], 'héllo']);
  const signed = (buf) => Array.from(buf, (x) => (x > 127 ? x - 256 : x));
  expect(emu.run('d', ['SHA_256', 'abc'])).toEqual(
    signed(crypto.createHash('sha256').update('abc').digest()),
  );
  expect(emu.run('d', ['MD5', 'abc'])).toEqual(signed(crypto.createHash('md5').update('abc').digest()));
  expect(emu.run('hmac', ['msg', 'key'])).toEqual(
    signed(crypto.createHmac('sha256', 'key').update('msg').digest()),
  );
});

test('getUuid, newBlob, parseCsv, formatString', () => {
  const emu = make(`function u() {
    var blob = Utilities.newBlob('a,b\\n"c,1",2', 'text/csv', 'x.csv');
    return [Utilities.getUuid(), blob.getContentType(), blob.getName(), Utilities.parseCsv(blob.getDataAsString()),
      Utilities.formatString('%s has %d rows (%.1f%%)', 'Sheet', 12.7, 50)];
  }`);
  const [uuid, type, name, csv, fmt] = emu.run('u');
  expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect([type, name]).toEqual(['text/csv', 'x.csv']);
  expect(csv).toEqual([
    ['a', 'b'],
    ['c,1', '2'],
  ]);
  expect(fmt).toBe('Sheet has 12 rows (50.0%)');
});

test('Session: active and effective user, time zone, temporary key', () => {
  const emu = make(
    `function s() { return [Session.getActiveUser().getEmail(), Session.getEffectiveUser().getEmail(), Session.getScriptTimeZone(), Session.getTemporaryActiveUserKey()]; }`,
    { users: { owner: 'boss@example.com', active: 'ann@example.com' }, timeZone: 'Europe/Paris' },
  );
  const [active, effective, tz, key] = emu.run('s');
  expect([active, effective, tz]).toEqual(['ann@example.com', 'ann@example.com', 'Europe/Paris']);
  expect(key).toHaveLength(40);
  expect(emu.run('s')[3]).toBe(key);
  expect(emu.run('s', [], { kind: 'simple', authMode: 'NONE' }).slice(0, 2)).toEqual(['', '']);
});

test('Logger and console land in emu.logs', () => {
  const emu = make(`function l() {
    Logger.log('sent %s of %s', 3, 10);
    Logger.log({ a: 1 });
    console.log('plain', [1, 2]);
    console.warn('careful');
    console.error(new Error('bad'));
    return Logger.getLog();
  }`);
  expect(emu.run('l')).toBe('sent 3 of 10\n{"a":1}');
  expect(emu.logs.map((l) => [l.source, l.level, l.message.split('\n')[0]])).toEqual([
    ['Logger', 'info', 'sent 3 of 10'],
    ['Logger', 'info', '{"a":1}'],
    ['console', 'log', 'plain [1,2]'],
    ['console', 'warn', 'careful'],
    ['console', 'error', 'Error: bad'],
  ]);
  expect(emu.logs.every((l) => l.executionId === 1)).toBe(true);
});

test('gzip and ungzip round-trip a blob (UTF-8 text included); ungzip of anything else throws', () => {
  const emu = make(`function z(text) {
    var packed = Utilities.gzip(Utilities.newBlob(text, 'text/plain', 'a.txt'));
    var b64 = Utilities.base64Encode(packed.getBytes());
    var back = Utilities.ungzip(Utilities.newBlob(Utilities.base64Decode(b64), 'application/x-gzip'));
    return [packed.getContentType(), packed.getName(), b64.length, back.getDataAsString()];
  }
  function bad() { return Utilities.ungzip(Utilities.newBlob('not gzip')); }`);
  const text = `Весна 春天 ${'abc'.repeat(1000)}`;
  const [type, name, size, back] = emu.run('z', [text]);
  expect([type, name, back]).toEqual(['application/x-gzip', 'a.txt.gz', text]);
  expect(size).toBeLessThan(text.length / 10);
  expect(() => emu.run('bad')).toThrow('Could not decompress gzip.');
});
