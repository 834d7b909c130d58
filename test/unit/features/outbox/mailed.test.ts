// src/features/outbox/mailed.ts: who got a campaign's first mail, exact while the store has room, compact when it
// runs short, and in both forms an error only one way: a stranger may be left out, a recipient is never forgotten.
import { useUtilities } from '../../gas-utilities';
import {
  codedChars,
  compactBits,
  cutMailed,
  decodeMailed,
  encodeMailed,
  fingerprint,
  newMailedSet,
} from '../../../../src/features/outbox/mailed';

useUtilities();

const SECRET = 'a-secret-of-the-payer';
const CAMPAIGN = 'Cmark123';
const addresses = (n: number, prefix = 'p') =>
  Array.from({ length: n }, (_, i) => `${prefix}${i}@example.com`);

function setOf(keys: string[]) {
  const set = newMailedSet(0);
  for (const key of keys) set.fingerprints.add(fingerprint(SECRET, CAMPAIGN, key, set.bits));
  return set;
}
const has = (set: ReturnType<typeof setOf>, key: string) =>
  set.fingerprints.has(fingerprint(SECRET, CAMPAIGN, key, set.bits));
const strangers = (set: ReturnType<typeof setOf>, n: number) =>
  addresses(n, 'stranger').filter((key) => has(set, key)).length;

describe('the campaign set', () => {
  test('every recipient is found again after the set is stored and read back', () => {
    const keys = addresses(10_000);
    const set = setOf(keys);
    const read = { ...set, fingerprints: decodeMailed(encodeMailed(set), set.bits, set.fingerprints.size) };
    expect(read.fingerprints).toEqual(set.fingerprints);
    expect(keys.filter((key) => !has(read, key))).toEqual([]);
  });

  test('exact: 100,000 recipients match no stranger in 100,000 looks, at about 4 characters each', () => {
    const set = setOf(addresses(100_000));
    expect(strangers(set, 100_000)).toBe(0);
    const chars = encodeMailed(set).length;
    expect(chars / 100_000).toBeLessThan(4.4);
    expect(codedChars(100_000, set.bits)).toBeGreaterThanOrEqual(chars);
  });

  test('compact: cut when the store runs short, every recipient still matches, at about 2 characters each', () => {
    const keys = addresses(100_000);
    const set = setOf(keys);
    cutMailed(set, compactBits(set));
    expect(set.bits).toBe(28);
    expect(keys.filter((key) => !has(set, key))).toEqual([]);
    expect(encodeMailed(set).length / 100_000).toBeLessThan(2.3);
    expect(strangers(set, 100_000) / 100_000).toBeLessThan(1 / 1000); // each one left out, never one mailed twice
  });

  test("another payer's secret or another campaign gives other fingerprints (nobody can aim at a mark)", () => {
    const mine = fingerprint(SECRET, CAMPAIGN, 'ann@example.com', 40);
    expect(fingerprint('another-secret', CAMPAIGN, 'ann@example.com', 40)).not.toBe(mine);
    expect(fingerprint(SECRET, 'Other123', 'ann@example.com', 40)).not.toBe(mine);
    expect(fingerprint(SECRET, CAMPAIGN, 'ann@example.com', 28)).toBe(Math.floor(mine / 2 ** 12));
  });
});
