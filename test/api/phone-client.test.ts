// src/api/phone/phone-client.ts over faked Apps Script services: results, the body codes, retries, stops
// and batches within the deadline.
import { START, json, queryOf, useGas } from './gas-fakes';
import { phone, caught, sequence } from './clients-setup';

const gas = useGas();

/** The phone budget's slot times as the user cache holds them (`v1:<first>:<gaps>`, base 36). */
function slotTimes(): number[] {
  const [key] = [...gas.cache.keys()].filter((k) => k.startsWith('rate.phone.'));
  const [, first, gaps] = String(gas.cache.get(key)).split(':');
  const times = [parseInt(first, 36)];
  for (const gap of gaps ? gaps.split(',') : []) times.push(times[times.length - 1] + parseInt(gap, 36));
  return times;
}

describe('phone checks', () => {
  const registered = (p: string) => Number(p[p.length - 1]) % 2 === 0;

  test('check: registered or not', () => {
    gas.respond((request) => json(200, { code: 0, result: { exist: registered(queryOf(request).phone) } }));
    expect(phone().check('+1 202 555 0002')).toBe(true);
    expect(phone().check(12025550001)).toBe(false);
    expect(gas.requests[0].url).toBe('https://phone.test/api/wa/check?phone=%2B12025550002');
  });

  test('code 1002 → invalid; the body code wins over the HTTP status', () => {
    gas.respond((request) =>
      queryOf(request).phone.endsWith('9')
        ? json(200, { code: 1002, message: 'Invalid phone parameter' })
        : json(200, { code: 0, result: { exist: true } }),
    );
    const out = phone().checkMany(['+12025550009', '+12025550002', 'abc', '+12025550002']);
    expect(out.results.map((r) => [r.index, r.status])).toEqual([
      [0, 'invalid'],
      [1, 'registered'],
      [2, 'invalid'],
      [3, 'registered'],
    ]);
    expect(out.unchecked).toEqual([]);
    expect(gas.requests).toHaveLength(2); // the repeated number is checked once, 'abc' never
  });

  test('1004 stops the run: done results kept, the rest unchecked', () => {
    let n = 0;
    gas.respond(() =>
      ++n <= 3
        ? json(200, { code: 0, result: { exist: false } })
        : json(402, { code: 1004, message: 'Insufficient credits' }),
    );
    const numbers = Array.from({ length: 10 }, (_, i) => `+1202555000${i}1`);
    const out = phone({ maxBatchSize: 4 }).checkMany(numbers);
    expect(out.stopped?.kind).toBe('funds');
    expect(out.results.map((r) => r.index)).toEqual([0, 1, 2]);
    expect(out.unchecked).toEqual([3, 4, 5, 6, 7, 8, 9]);
    expect(gas.requests).toHaveLength(4);
    expect(gas.fetchAllCalls).toEqual([4]);
  });

  test('1001/1003 stop with the Settings action', () => {
    gas.respond(() => json(401, { code: 1003, message: 'Invalid API key' }));
    const out = phone().checkMany(['+12025550002', '+12025550004']);
    expect(out.stopped).toMatchObject({ kind: 'auth', code: 1003 });
    expect(out.stopped?.action).toBe('Check the API key in Extensions › Outreach › Settings.');
    expect(out.results).toEqual([]);
  });

  test('1005 waits and retries; 1000/1006/1007 retried a bounded number of times', () => {
    gas.respond(
      sequence(
        [
          () => json(429, { code: 1005, message: 'Rate limit exceeded' }, { 'Retry-After': '2' }),
          () => json(500, { code: 1000, message: 'Internal error' }),
          () => json(502, { code: 1006, message: 'Upstream service error' }),
          () => json(500, { code: 1007, message: 'Failed to deduct credit' }),
        ],
        () => json(200, { code: 0, result: { exist: true } }),
      ),
    );
    expect(phone().check('+12025550002')).toBe(true);
    expect(gas.requests).toHaveLength(5);
    gas.respond(() => json(500, { code: 1000, message: 'Internal error' }));
    const out = phone().checkMany(['+12025550002']);
    expect(out.results[0]).toMatchObject({ status: 'error' });
    expect(out.results[0].error?.code).toBe(1000);
  });

  test('1005 that outlasts the deadline stops the run as rate-limit', () => {
    gas.respond(() => json(429, { code: 1005, message: 'Rate limit exceeded' }, { 'Retry-After': '600' }));
    const out = phone({ deadlineMs: START + 60_000 }).checkMany(['+12025550002', '+12025550004']);
    expect(out.stopped?.kind).toBe('rate-limit');
    expect(out.unchecked).toEqual([0, 1]);
  });

  test('each batch is reported as soon as it is answered, before the next batch is sent', () => {
    gas.respond((request) => json(200, { code: 0, result: { exist: registered(queryOf(request).phone) } }));
    const numbers = Array.from({ length: 6 }, (_, i) => `+1202555000${i}`);
    const heard: Array<[number[], number]> = [];
    const out = phone({ maxBatchSize: 4 }).checkMany(numbers, (results) =>
      heard.push([results.map((r) => r.index), gas.requests.length]),
    );
    expect(heard).toEqual([
      [[0, 1, 2, 3], 4],
      [[4, 5], 6],
    ]);
    expect(out.results).toHaveLength(6);
  });

  test("a run sent a few a fetch takes its rate slots at once, and each ends stamped with its request's time", () => {
    gas.respond((request) => {
      gas.clock.now += 500; // each check takes 0.5 s: a fetch of four, 2 s
      return json(200, { code: 0, result: { exist: registered(queryOf(request).phone) } });
    });
    const numbers = Array.from({ length: 10 }, (_, i) => `+1202555000${i}`);
    const out = phone({ maxBatchSize: 4 }).checkMany(numbers);
    expect(out.results).toHaveLength(10);
    expect(gas.fetchAllCalls).toEqual([4, 4, 2]);
    expect(gas.lockAcquisitions).toBe(2); // one reservation for the ten, one to stamp them again
    // The slots hold each fetch's start (the stamp a reservation right before it would have given).
    const starts = [0, 4, 8].map((i) => gas.requests[i].at);
    const expected = [...Array(4).fill(starts[0]), ...Array(4).fill(starts[1]), ...Array(2).fill(starts[2])];
    expect(slotTimes()).toEqual(expected);
    expect(starts[2] - starts[0]).toBe(4000);
  });

  test('a batch starts only when one as long as the longest so far ends before the deadline', () => {
    let first = true;
    gas.respond((request) => {
      if (gas.requests.length === 1) gas.clock.now += 15_000; // a slow service: the batch takes 15 s
      if (first && queryOf(request).phone.endsWith('0')) {
        first = false;
        return json(502, { code: 1006, message: 'Upstream service error' });
      }
      return json(200, { code: 0, result: { exist: true } });
    });
    const out = phone({ deadlineMs: START + 22_000 }).checkMany(['+12025550010', '+12025550011']);
    // The retry of the first number would start at 16 s and end at 31 s: it is not sent.
    expect(gas.requests).toHaveLength(2);
    expect(out.stopped?.kind).toBe('time-up');
    expect(out.results.map((r) => r.index)).toEqual([1]);
    expect(out.unchecked).toEqual([0]);
  });

  test('a body without a code is an unexpected answer (from credits: a wrong address)', () => {
    gas.respond(() => json(200, { ok: true }));
    expect(caught(() => phone().check('+14155550123'))).toMatchObject({ kind: 'invalid-response' });
    expect(caught(() => phone().credits())).toMatchObject({ kind: 'address' });
  });
});
