// Rate budget, attribution headers and the version constant.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  ATTRIBUTION_HEADERS,
  CHANNEL_PROPERTY,
  INSTALL_ID_PROPERTY,
  attributionHeaders,
  parseChannel,
} from '../../src/platform/attribution';
import {
  RateBudget,
  RateDeadlineError,
  decodeLog,
  encodeLog,
  forgetExecutionMemory,
  hashKey,
} from '../../src/platform/rate-budget';
import { ADDON_VERSION } from '../../src/platform/version';
import { type Gas, START, installGas } from './gas-fakes';

let gas: Gas;
beforeEach(() => {
  gas = installGas();
  forgetExecutionMemory();
});
afterEach(() => gas.uninstall());

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
    expect(Date.now() - START).toBe(61_000);
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
    expect((error as RateDeadlineError).waitMs).toBe(61_000);
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
    expect(budget.waitFor(1)).toBe(START + 3_601_000 - Date.now());
  });

  test('best-effort without locks or cache (custom functions)', () => {
    gas.locksUnavailable = true;
    gas.cacheUnavailable = true;
    const budget = new RateBudget({ service: 'outreach', apiKey: 'k' });
    budget.reserve(60);
    expect(budget.available()).toBe(0);
    budget.reserve(1);
    expect(Date.now() - START).toBe(61_000);
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

describe('attribution headers', () => {
  const KEYS = ['outreach-key-123456', 'phone-key-654321'];

  test('install id made once and kept; version and runtime sent', () => {
    const first = attributionHeaders(KEYS);
    const id = gas.userProps.get(INSTALL_ID_PROPERTY);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(first).toEqual({
      'X-Svc-Install-Id': id,
      'X-Svc-Skill-Version': ADDON_VERSION,
      'X-Svc-Skill-Runtime': 'google-apps-script',
    });
    expect(attributionHeaders(KEYS)['X-Svc-Install-Id']).toBe(id);
  });

  test('a damaged install id: no attribution headers at all, nothing overwritten', () => {
    gas.userProps.set(INSTALL_ID_PROPERTY, 'not-a-uuid');
    expect(attributionHeaders(KEYS)).toEqual({});
    expect(gas.userProps.get(INSTALL_ID_PROPERTY)).toBe('not-a-uuid');
  });

  test('channel headers only when a channel is configured', () => {
    gas.scriptProps.set(
      CHANNEL_PROPERTY,
      JSON.stringify({
        sourceType: 'wrapper',
        sourcePackage: 'sheets-pack',
        channelCode: 'ch-7',
        campaignId: 'spring',
      }),
    );
    const headers = attributionHeaders(KEYS);
    expect(headers[ATTRIBUTION_HEADERS.sourceType]).toBe('wrapper');
    expect(headers[ATTRIBUTION_HEADERS.sourcePackage]).toBe('sheets-pack');
    expect(headers[ATTRIBUTION_HEADERS.channelCode]).toBe('ch-7');
    expect(headers[ATTRIBUTION_HEADERS.campaignId]).toBe('spring');
  });

  test.each([
    ['damaged JSON', '{"sourceType": "wrap'],
    ['not an object', '["a"]'],
    ['an e-mail address', JSON.stringify({ sourceType: 'wrapper', channelCode: 'me@example.com' })],
    ['an API key', JSON.stringify({ sourceType: 'wrapper', campaignId: 'outreach-key-123456' })],
    ['a non-text value', JSON.stringify({ sourceType: 7 })],
    ['control characters', JSON.stringify({ sourceType: 'a\nb' })],
  ])('%s → no X-Svc-Source-* headers, the request still goes', (_, raw) => {
    gas.scriptProps.set(CHANNEL_PROPERTY, raw);
    const headers = attributionHeaders(KEYS);
    expect(Object.keys(headers).sort()).toEqual([
      'X-Svc-Install-Id',
      'X-Svc-Skill-Runtime',
      'X-Svc-Skill-Version',
    ]);
  });

  test('parseChannel keeps only present fields', () => {
    expect(parseChannel(JSON.stringify({ channelCode: 'c1', campaignId: '' }), [])).toEqual({
      channelCode: 'c1',
    });
    expect(parseChannel('{}', [])).toBeUndefined();
    expect(parseChannel(null, [])).toBeUndefined();
  });

  test('no properties service: no headers, no throw', () => {
    delete (globalThis as Record<string, unknown>).PropertiesService;
    expect(attributionHeaders(KEYS)).toEqual({});
  });
});

test('ADDON_VERSION equals package.json version', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
  expect(ADDON_VERSION).toBe(pkg.version);
});
