// src/features/outbox/posted-mails.ts: the mails the payer's runs posted come back exactly as they went in, a
// chunk of 100 consecutive mails in a few characters, whatever mix of tasks the service made.
import { decodePosted, encodePosted, type PostedPairs } from '../../../../src/features/outbox/posted-mails';

const { mulberry32 } = require('../../../emulator');

function chunk(firstMail: number, firstTask: number, n: number, taskPerMail: boolean): PostedPairs {
  const pairs: PostedPairs = new Map();
  for (let i = 0; i < n; i++) pairs.set(firstMail + i, taskPerMail ? firstTask + i : firstTask);
  return pairs;
}

describe('posted mails', () => {
  test('an empty day is an empty text', () => {
    expect(encodePosted(new Map())).toBe('');
    expect(decodePosted('')).toEqual(new Map());
  });

  test('a chunk of 100 consecutive mails takes a few characters, with one task or one task per mail', () => {
    for (const taskPerMail of [false, true]) {
      const pairs = chunk(1_234_567, 98_765, 100, taskPerMail);
      const text = encodePosted(pairs);
      expect(text.length).toBeLessThanOrEqual(12);
      expect(decodePosted(text)).toEqual(pairs);
    }
  });

  test('1,000 chunks of a day with other users mails between them stay under 10 characters a chunk', () => {
    const pairs: PostedPairs = new Map();
    let mail = 5_000_000;
    let task = 700_000;
    for (let c = 0; c < 1000; c++) {
      for (const [m, t] of chunk(mail, task, 100, c % 2 === 0)) pairs.set(m, t);
      mail += 100 + 37 * (c % 5);
      task += 100 + (c % 3);
    }
    const text = encodePosted(pairs);
    expect(text.length).toBeLessThan(10_000);
    expect(decodePosted(text)).toEqual(pairs);
  });

  test('any mix of mail ids and tasks comes back exactly (seeded)', () => {
    const random = mulberry32(20261202);
    for (let round = 0; round < 200; round++) {
      const pairs: PostedPairs = new Map();
      let mail = Math.floor(random() * 1e9);
      let task = Math.floor(random() * 1e7);
      const n = 1 + Math.floor(random() * 300);
      for (let i = 0; i < n; i++) {
        mail += 1 + (random() < 0.3 ? Math.floor(random() * 5000) : 0);
        const r = random();
        task = r < 0.4 ? task : r < 0.7 ? task + 1 : Math.max(1, task + Math.floor(random() * 2000) - 1000);
        pairs.set(mail, task);
      }
      expect(decodePosted(encodePosted(pairs))).toEqual(pairs);
    }
  });
});
