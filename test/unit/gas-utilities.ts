// The few Apps Script Utilities the pure modules call (a weekday in a time zone, a keyed hash), for unit
// tests that import src/ directly: formatDate is the emulator's Java SimpleDateFormat, the HMAC is Node's,
// and both answer with Apps Script's types (signed bytes). useUtilities() installs them for a test file.
import * as crypto from 'node:crypto';
const { formatSimpleDate } = require('../emulator/timezone.js');

const signed = (bytes: Buffer) => Array.from(bytes, (b) => (b > 127 ? b - 256 : b));
const unsigned = (bytes: number[]) => Buffer.from(bytes.map((b) => b & 0xff));

export const fakeUtilities = {
  Charset: { UTF_8: 'UTF_8', US_ASCII: 'US_ASCII' },
  formatDate: (date: Date, zone: string, pattern: string): string =>
    formatSimpleDate(date.getTime(), zone, pattern),
  computeHmacSha256Signature: (value: string, key: string): number[] =>
    signed(crypto.createHmac('sha256', Buffer.from(key, 'utf8')).update(value, 'utf8').digest()),
  base64Encode: (bytes: number[]): string => unsigned(bytes).toString('base64'),
};

/** Installs the fake Utilities for the file's tests (and removes it after them). */
export function useUtilities(): void {
  const g = globalThis as Record<string, unknown>;
  beforeAll(() => {
    g.Utilities = fakeUtilities;
  });
  afterAll(() => {
    delete g.Utilities;
  });
}
