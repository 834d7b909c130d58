// The few Apps Script services the pure modules touch (a weekday in a time zone, a keyed hash, a digest, and
// an empty store to start the ledger from), for unit tests that import src/ directly: formatDate is
// the emulator's Java SimpleDateFormat, the hashes are Node's, and all answer with Apps Script's types
// (signed bytes). useUtilities() installs them for a test file.
import * as crypto from 'node:crypto';
const { formatSimpleDate } = require('../emulator/timezone.js');

const signed = (bytes: Buffer) => Array.from(bytes, (b) => (b > 127 ? b - 256 : b));
const unsigned = (bytes: number[]) => Buffer.from(bytes.map((b) => b & 0xff));

export const fakeUtilities = {
  Charset: { UTF_8: 'UTF_8', US_ASCII: 'US_ASCII' },
  DigestAlgorithm: { SHA_256: 'SHA_256' },
  formatDate: (date: Date, zone: string, pattern: string): string =>
    formatSimpleDate(date.getTime(), zone, pattern),
  computeHmacSha256Signature: (value: string, key: string): number[] =>
    signed(crypto.createHmac('sha256', Buffer.from(key, 'utf8')).update(value, 'utf8').digest()),
  computeDigest: (_algorithm: string, value: string): number[] =>
    signed(crypto.createHash('sha256').update(value, 'utf8').digest()),
  base64Encode: (bytes: number[]): string => unsigned(bytes).toString('base64'),
  base64EncodeWebSafe: (bytes: number[]): string => unsigned(bytes).toString('base64url'),
  base64DecodeWebSafe: (text: string): number[] => signed(Buffer.from(text, 'base64url')),
  newBlob: (bytes: number[]) => ({ getDataAsString: () => unsigned(bytes).toString('utf8') }),
  getUuid: (): string => crypto.randomUUID(),
};

/** An empty user store and an open document: enough for Ledger.read() to start a fresh record. */
const fakeServices = {
  PropertiesService: { getUserProperties: () => ({ getProperties: () => ({}) }) },
  SpreadsheetApp: { getActiveSpreadsheet: () => ({ getId: () => 'unit-test-document' }) },
};

/** Installs the fakes for the file's tests (and removes them after them). */
export function useUtilities(): void {
  const g = globalThis as Record<string, unknown>;
  beforeAll(() => {
    Object.assign(g, { Utilities: fakeUtilities, ...fakeServices });
  });
  afterAll(() => {
    for (const name of ['Utilities', ...Object.keys(fakeServices)]) delete g[name];
  });
}
