// src/features/outbox/mailed.ts: who got a campaign's first mail, exact while the store has room, compact when it
// runs short, and in both forms an error only one way: a stranger may be left out, a recipient is never forgotten.
import { useUtilities } from '../../gas-utilities';
import {
  addFingerprint,
  codedMailed,
  COMPACT_SPARE_BITS,
  codedChars,
  compactBits,
  cutMailed,
  decodeMailed,
  encodeMailed,
  fingerprint,
  newMailedSet,
  readMailed,
} from '../../../../src/features/outbox/mailed';

useUtilities();
const { mulberry32 } = require('../../../emulator');

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

// At 100,000 people, seeded uniform 40-bit values stand for the keyed hashes (a narrower fingerprint is the top
// bits of the widest: the last test), so that the sizes and the strangers' rate are measured without 200,000 HMACs.
function widest(n: number, seed: number): number[] {
  const random = mulberry32(seed);
  return Array.from(
    { length: n },
    () => Math.floor(random() * 2 ** 20) * 2 ** 20 + Math.floor(random() * 2 ** 20),
  );
}
const at = (value: number, bits: number) => Math.floor(value / 2 ** (40 - bits));
function setOfWidest(values: number[]) {
  const set = newMailedSet(0);
  for (const v of values) set.fingerprints.add(v);
  return set;
}
const matched = (set: ReturnType<typeof setOf>, values: number[]) =>
  values.filter((v) => set.fingerprints.has(at(v, set.bits))).length;
const PEOPLE = widest(100_000, 1);
const STRANGERS = widest(100_000, 2);

describe('the campaign set', () => {
  test('every recipient is found again after the set is stored and read back', () => {
    const keys = addresses(10_000);
    const set = setOf(keys);
    const read = { ...set, fingerprints: decodeMailed(encodeMailed(set), set.bits, set.fingerprints.size) };
    expect(read.fingerprints).toEqual(set.fingerprints);
    expect(keys.filter((key) => !has(read, key))).toEqual([]);
    expect(addresses(10_000, 'stranger').filter((key) => has(read, key))).toEqual([]);
  });

  test('exact: 100,000 recipients match no stranger in 100,000 looks, at about 4 characters each', () => {
    const set = setOfWidest(PEOPLE);
    expect(matched(set, STRANGERS)).toBe(0);
    const chars = encodeMailed(set).length;
    expect(chars / 100_000).toBeLessThan(4.4);
    expect(codedChars(100_000, set.bits)).toBeGreaterThanOrEqual(chars);
    expect(decodeMailed(encodeMailed(set), set.bits, set.fingerprints.size)).toEqual(set.fingerprints);
  });

  test('compact: cut when the store runs short, every recipient still matches, at about 2 characters each', () => {
    const set = setOfWidest(PEOPLE);
    cutMailed(set, compactBits(set));
    expect(set.bits).toBe(28);
    expect(matched(set, PEOPLE)).toBe(100_000);
    expect(encodeMailed(set).length / 100_000).toBeLessThan(2.3);
    expect(matched(set, STRANGERS) / 100_000).toBeLessThan(1 / 1000); // each one left out, never one mailed twice
  });

  test('narrowest: cut again when the store is still short, every recipient matches, at about 1.4 characters each', () => {
    const set = setOfWidest(PEOPLE);
    cutMailed(set, compactBits(set));
    cutMailed(set, compactBits(set, COMPACT_SPARE_BITS[1]));
    expect(set.bits).toBe(23);
    expect(matched(set, PEOPLE)).toBe(100_000);
    expect(encodeMailed(set).length / 100_000).toBeLessThan(1.45);
    expect(matched(set, STRANGERS) / 100_000).toBeLessThan(1 / 40); // left out, saying so
  });

  test('a set read from the record is stored again as it was, decoded only when looked into or added to', () => {
    const set = setOfWidest(PEOPLE.slice(0, 1000));
    const stored = { c: 'C', b: set.bits, f: 0, l: 0, n: 1000, s: encodeMailed(set) };
    const read = readMailed(stored, (seconds) => seconds * 1000);
    expect(codedMailed(read)).toEqual({ text: stored.s, n: 1000 });
    expect(read.fingerprints).toEqual(set.fingerprints);
    addFingerprint(read, STRANGERS[0]);
    const again = codedMailed(read);
    expect(again.n).toBe(1001);
    expect(decodeMailed(again.text, read.bits, again.n).has(STRANGERS[0])).toBe(true);
  });

  test("another payer's secret or another campaign gives other fingerprints (nobody can aim at a mark)", () => {
    const mine = fingerprint(SECRET, CAMPAIGN, 'ann@example.com', 40);
    expect(fingerprint('another-secret', CAMPAIGN, 'ann@example.com', 40)).not.toBe(mine);
    expect(fingerprint(SECRET, 'Other123', 'ann@example.com', 40)).not.toBe(mine);
    expect(fingerprint(SECRET, CAMPAIGN, 'ann@example.com', 28)).toBe(Math.floor(mine / 2 ** 12));
  });
});
