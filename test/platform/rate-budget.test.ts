// src/platform/rate-budget.ts: the shared request budget per key, its log in the cache, locks and deadlines.
import {
  RateBudget,
  RateDeadlineError,
  decodeLog,
  encodeLog,
  forgetExecutionMemory,
  hashKey,
} from '../../src/platform/rate-budget';
import { START, useGas } from '../api/gas-fakes';

const gas = useGas();

describe('rate budget', () => {
  test('log encoding is compact and round-trips; damage reads as empty', () => {
    const times = Array.from({ length: 1000 }, (_, i) => START + i * 3500 + (i % 7));
    const encoded = encodeLog(times);
    expect(decodeLog(encoded)).toEqual(times);
    expect(encoded.length).toBeLessThan(6000);
    expect(decodeLog('garbage')).toEqual([]);
    expect(decodeLog('v1:zz:1,-5')).toEqual([]);
    expect(decodeLog(null)).toEqual([]);
  });

  test('a schedule takes each slot at the time it frees, none after the deadline; restamp puts the real times', () => {
    const budget = new RateBudget({ service: 'outreach', apiKey: 'k' });
    for (let i = 0; i < 60; i++) {
      budget.reserve(1); // one a second: the window is full after a minute
      gas.clock.now += i < 59 ? 1000 : 0;
    }
    const times = budget.reserveSchedule(10, START + 60_500 + 4_000);
    // Free as the first slots age out (window + guard after each), up to the deadline: five of the ten.
    expect(times).toEqual([0, 1, 2, 3, 4].map((i) => START + i * 1000 + 60_500));
    expect(gas.sleeps).toEqual([]);
    expect(budget.available(START + 64_500)).toBe(0); // the scheduled slots count as taken
    // Sent 200 ms late each, the last two never: the log holds the real times, the unused slots given back.
    const sent = times.slice(0, 3).map((t) => t + 200);
    budget.restamp(times, sent);
    gas.clock.now = START + 70_000;
    expect(budget.available()).toBe(60 - (60 - 10) - 3); // 50 of the first minute still live, and the 3 sent
    expect(() => budget.reserveSchedule(1, Date.now())).not.toThrow();
  });

  test('the cache key is a SHA-256 of the key, never the key', () => {
    const budget = new RateBudget({ service: 'outreach', apiKey: 'secret-key-1234' });
    budget.reserve(1);
    const [key] = [...gas.cache.keys()];
    expect(key).toBe(`rate.outreach.${hashKey('secret-key-1234').slice(0, 40)}`);
    expect(key).not.toContain('secret');
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  test('60 per rolling minute: the 61st waits for the first slot plus the guard', () => {
    const budget = new RateBudget({ service: 'outreach', apiKey: 'k' });
    for (let i = 0; i < 60; i++) budget.reserve(1);
    expect(gas.lockAcquisitions).toBe(60);
    expect(budget.available()).toBe(0);
    expect(gas.sleeps).toEqual([]);
    budget.reserve(1);
    expect(Date.now() - START).toBe(60_500);
  });

  test('shared across executions through the cache', () => {
    const first = new RateBudget({ service: 'outreach', apiKey: 'k' });
    first.reserve(50);
    forgetExecutionMemory(); // a new execution
    const second = new RateBudget({ service: 'outreach', apiKey: 'k' });
    expect(second.available()).toBe(10);
    expect(second.reserveUpTo(30)).toBe(10);
    expect(new RateBudget({ service: 'outreach', apiKey: 'other' }).available()).toBe(60);
  });

  test('never sleeps past the deadline: throws RateDeadlineError at once', () => {
    const budget = new RateBudget({ service: 'outreach', apiKey: 'k' });
    budget.reserve(60);
    let error: unknown;
    try {
      budget.reserve(1, START + 30_000);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RateDeadlineError);
    expect((error as RateDeadlineError).waitMs).toBe(60_500);
    expect((error as RateDeadlineError).limitText).toMatch(/60 requests/);
    expect(gas.sleeps).toEqual([]);
  });

  test('phone: 1000 per hour, stored within the cache value limit', () => {
    const budget = new RateBudget({ service: 'phone', apiKey: 'p' });
    for (let i = 0; i < 1000; i++) {
      budget.reserve(1);
      gas.clock.now += 1500;
    }
    const value = [...gas.cache.values()][0];
    expect(value.length).toBeLessThan(100_000);
    expect(budget.available()).toBe(0);
    expect(budget.waitFor(1)).toBe(START + 3_600_500 - Date.now());
  });

  test('best-effort without locks or cache (custom functions)', () => {
    gas.locksUnavailable = true;
    gas.cacheUnavailable = true;
    const budget = new RateBudget({ service: 'outreach', apiKey: 'k' });
    budget.reserve(60);
    expect(budget.available()).toBe(0);
    budget.reserve(1);
    expect(Date.now() - START).toBe(60_500);
  });

  test('a lock held by another execution is waited for, never bypassed (a lost update lets a 429 through)', () => {
    const budget = new RateBudget({ service: 'outreach', apiKey: 'k' });
    budget.reserve(59);
    forgetExecutionMemory(); // the other slots belong to other executions
    gas.lockBusyUntil = START + 5000; // another execution is between its read and its write
    new RateBudget({ service: 'outreach', apiKey: 'k' }).reserve(1, START + 30_000);
    expect(gas.unlockedCacheWrites).toBe(0);
    expect(Date.now()).toBeGreaterThanOrEqual(START + 5000);
    expect(budget.available()).toBe(0);
  });

  test('a lock busy until after the deadline: no slot before the deadline, nothing taken', () => {
    gas.lockBusyUntil = START + 60_000;
    const budget = new RateBudget({ service: 'outreach', apiKey: 'k' });
    let error: unknown;
    try {
      budget.reserveUpTo(10, START + 10_000);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RateDeadlineError);
    expect(gas.unlockedCacheWrites).toBe(0);
    expect(gas.cache.size).toBe(0);
    expect(Date.now()).toBeLessThanOrEqual(START + 12_000);
  });

  test("a vanished cache entry is covered by this execution's memory", () => {
    const budget = new RateBudget({ service: 'outreach', apiKey: 'k' });
    budget.reserve(40);
    gas.cache.clear();
    expect(budget.available()).toBe(20);
  });
});
