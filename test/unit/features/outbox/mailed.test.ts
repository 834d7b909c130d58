// src/features/outbox/mailed.ts: who got a campaign's first mail, as a compact set whose only error is to
// leave a stranger out, never to forget a recipient.
import { useUtilities } from '../../gas-utilities';
import {
  decodeMailed,
  encodeMailed,
  fingerprint,
  newMailedSet,
} from '../../../../src/features/outbox/mailed';

beforeAll(() => useUtilities());

const SECRET = 'a-secret-of-the-payer';
const CAMPAIGN = 'Cmark123';

function setOf(planned: number, keys: string[]) {
  const set = newMailedSet(planned, 0);
  for (const key of keys) set.fingerprints.add(fingerprint(SECRET, CAMPAIGN, key, set.bits));
  return set;
}

describe('the campaign set', () => {
  test('every recipient is found again after the set is stored and read back', () => {
    const keys = Array.from({ length: 10_000 }, (_, i) => `person${i}@example.com`);
    const set = setOf(10_000, keys);
    const read = decodeMailed(encodeMailed(set), set.bits, set.fingerprints.size);
    expect(read).toEqual(set.fingerprints);
    for (const key of keys) expect(read.has(fingerprint(SECRET, CAMPAIGN, key, set.bits))).toBe(true);
  });

  test('100,000 recipients (ten sends of 10,000) take about 2 characters each, and strangers rarely match', () => {
    let chars = 0;
    let strangers = 0;
    for (let send = 0; send < 10; send++) {
      const keys = Array.from({ length: 10_000 }, (_, i) => `s${send}p${i}@example.com`);
      const set = setOf(10_000, keys);
      chars += encodeMailed(set).length;
      for (let i = 0; i < 10_000; i++)
        if (set.fingerprints.has(fingerprint(SECRET, CAMPAIGN, `new${send}x${i}@example.com`, set.bits)))
          strangers++;
    }
    expect(chars / 100_000).toBeLessThan(2.3);
    expect(strangers / 100_000).toBeLessThan(1 / 2000); // each one left out, never one mailed twice
  });

  test('a campaign that grows to four times its first send keeps strangers below 1 in 500', () => {
    const set = setOf(
      2_500,
      Array.from({ length: 10_000 }, (_, i) => `p${i}@example.com`),
    );
    let strangers = 0;
    for (let i = 0; i < 20_000; i++)
      if (set.fingerprints.has(fingerprint(SECRET, CAMPAIGN, `q${i}@example.com`, set.bits))) strangers++;
    expect(strangers / 20_000).toBeLessThan(1 / 500);
  });

  test("another payer's secret or another campaign gives other fingerprints (nobody can aim at a mark)", () => {
    const bits = newMailedSet(100, 0).bits;
    const mine = fingerprint(SECRET, CAMPAIGN, 'ann@example.com', bits);
    expect(fingerprint('another-secret', CAMPAIGN, 'ann@example.com', bits)).not.toBe(mine);
    expect(fingerprint(SECRET, 'Other123', 'ann@example.com', bits)).not.toBe(mine);
  });
});
