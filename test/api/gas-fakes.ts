// Minimal fakes of the Apps Script services the API layer uses, for unit tests that import src/ directly.
// Time is a fake clock: Date.now() reads it, Utilities.sleep moves it. UrlFetchApp answers through a
// responder function; fetchAll throws for the whole batch when one request throws (as Apps Script does).
import * as crypto from 'node:crypto';
import { forgetExecutionMemory } from '../../src/platform/rate-budget';

export interface FakeRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  payload?: string;
  contentType?: string;
  followRedirects?: boolean;
  muteHttpExceptions?: boolean;
  /** Fake time at which the request was made. */
  at: number;
}

export interface FakeAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Responder = (_request: FakeRequest) => FakeAnswer;

export interface Gas {
  clock: { now: number };
  requests: FakeRequest[];
  sleeps: number[];
  logs: string[];
  userProps: Map<string, string>;
  scriptProps: Map<string, string>;
  cache: Map<string, string>;
  fetchAllCalls: number[];
  respond(_responder: Responder): void;
  /** Requests whose path (no query) ends with the suffix. */
  to(_pathSuffix: string): FakeRequest[];
  uninstall(): void;
  locksUnavailable: boolean;
  cacheUnavailable: boolean;
  lockAcquisitions: number;
  /** Fake time until which another execution holds the lock (tryLock waits for it, up to its timeout). */
  lockBusyUntil: number;
  /** Cache writes made while this execution did not hold the lock (with locks available). */
  unlockedCacheWrites: number;
}

export const START = Date.UTC(2026, 0, 5, 9, 0, 0);

/** A JSON answer. */
export const json = (status: number, body: unknown, headers?: Record<string, string>): FakeAnswer => ({
  status,
  body,
  headers,
});

/** An RFC 7807 problem answer. */
export function problem(
  status: number,
  slug: string,
  detail: string,
  extra: Record<string, unknown> = {},
  headers?: Record<string, string>,
): FakeAnswer {
  return {
    status,
    headers: { 'Content-Type': 'application/problem+json', ...headers },
    body: { type: `https://api.test/errors/${slug}`, title: slug, status, detail, instance: '/x', ...extra },
  };
}

/** The fakes' manifest urlFetchWhitelist: what the build injects as URL_FETCH_ALLOWLIST (url-allowlist.ts). */
export const FAKE_ALLOWLIST = ['https://api.test/', 'https://phone.test/'];

/**
 * Registers the file's hooks: fresh fakes before each test (and the rate budget's memory of this execution
 * forgotten), removed after it. The returned object stands for the current test's fakes.
 */
export function useGas(): Gas {
  let current: Gas | undefined;
  beforeEach(() => {
    current = installGas();
    forgetExecutionMemory();
  });
  afterEach(() => current?.uninstall());
  return new Proxy({} as Gas, {
    get: (_, key) => Reflect.get(current as Gas, key),
    set: (_, key, value) => Reflect.set(current as Gas, key, value),
  });
}

export function installGas(): Gas {
  const g = globalThis as Record<string, unknown>;
  g.URL_FETCH_ALLOWLIST = FAKE_ALLOWLIST;
  const clock = { now: START };
  const state: Gas = {
    clock,
    requests: [],
    sleeps: [],
    logs: [],
    userProps: new Map(),
    scriptProps: new Map(),
    cache: new Map(),
    fetchAllCalls: [],
    locksUnavailable: false,
    cacheUnavailable: false,
    lockAcquisitions: 0,
    lockBusyUntil: 0,
    unlockedCacheWrites: 0,
    respond(r) {
      responder = r;
    },
    to(suffix) {
      return state.requests.filter((r) => r.url.split('?')[0].endsWith(suffix));
    },
    uninstall() {
      nowSpy.mockRestore();
      logSpy.mockRestore();
      for (const name of [
        'UrlFetchApp',
        'Utilities',
        'CacheService',
        'LockService',
        'PropertiesService',
        'URL_FETCH_ALLOWLIST',
      ])
        delete g[name];
    },
  };
  let lockHeld = false;
  let responder: Responder = () => ({ status: 404, body: { error: 'no responder' } });
  const nowSpy = jest.spyOn(Date, 'now').mockImplementation(() => clock.now);
  const logSpy = jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    state.logs.push(args.map(String).join(' '));
  });

  function answer(url: string, options: Record<string, unknown>): unknown {
    const request: FakeRequest = {
      url,
      method: String(options.method ?? 'get'),
      headers: { ...((options.headers as Record<string, string>) ?? {}) },
      payload: options.payload as string | undefined,
      contentType: options.contentType as string | undefined,
      followRedirects: options.followRedirects as boolean | undefined,
      muteHttpExceptions: options.muteHttpExceptions as boolean | undefined,
      at: clock.now,
    };
    state.requests.push(request);
    const a = responder(request);
    const text = typeof a.body === 'string' ? a.body : JSON.stringify(a.body ?? {});
    return {
      getResponseCode: () => a.status,
      getContentText: () => text,
      getHeaders: () => ({ ...(a.headers ?? {}) }),
      getAllHeaders: () => ({ ...(a.headers ?? {}) }),
    };
  }

  g.UrlFetchApp = {
    fetch: (url: string, options: Record<string, unknown> = {}) => answer(url, options),
    fetchAll: (requests: Array<Record<string, unknown>>) => {
      state.fetchAllCalls.push(requests.length);
      const out: unknown[] = [];
      let failure: unknown;
      for (const r of requests) {
        try {
          out.push(answer(String(r.url), r));
        } catch (error) {
          failure = failure ?? error;
        }
      }
      if (failure) throw failure;
      return out;
    },
  };
  g.Utilities = {
    DigestAlgorithm: { SHA_256: 'SHA_256' },
    Charset: { UTF_8: 'UTF_8' },
    computeDigest: (_alg: string, value: string) =>
      Array.from(crypto.createHash('sha256').update(value, 'utf8').digest()).map((b) =>
        b > 127 ? b - 256 : b,
      ),
    getUuid: () => crypto.randomUUID(),
    sleep: (ms: number) => {
      state.sleeps.push(ms);
      clock.now += ms;
    },
  };
  // One fake cache and one fake lock stand for the user's (what the rate budget uses) and the script's.
  const cache = () => {
    if (state.cacheUnavailable) throw new Error('Cache unavailable');
    return {
      get: (key: string) => state.cache.get(key) ?? null,
      put: (key: string, value: string) => {
        if (value.length > 100_000) throw new Error('Argument too large');
        if (!lockHeld && !state.locksUnavailable) state.unlockedCacheWrites++;
        state.cache.set(key, value);
      },
    };
  };
  g.CacheService = { getScriptCache: cache, getUserCache: cache };
  const lock = () => {
    if (state.locksUnavailable) throw new Error('Lock unavailable');
    return {
      tryLock: (timeoutMs: number) => {
        if (clock.now < state.lockBusyUntil) {
          const waited = Math.min(timeoutMs, state.lockBusyUntil - clock.now);
          clock.now += waited;
          if (clock.now < state.lockBusyUntil) return false;
        }
        lockHeld = true;
        state.lockAcquisitions++;
        return true;
      },
      releaseLock: () => {
        lockHeld = false;
      },
      hasLock: () => lockHeld,
    };
  };
  g.LockService = { getScriptLock: lock, getUserLock: lock };
  const store = (map: Map<string, string>) => ({
    getProperty: (key: string) => map.get(key) ?? null,
    setProperty: (key: string, value: string) => {
      map.set(key, String(value));
    },
    getProperties: () => Object.fromEntries(map),
    deleteProperty: (key: string) => {
      map.delete(key);
    },
    setProperties: (values: Record<string, string>) => {
      for (const [k, v] of Object.entries(values)) map.set(k, v);
    },
  });
  g.PropertiesService = {
    getUserProperties: () => store(state.userProps),
    getScriptProperties: () => store(state.scriptProps),
  };
  return state;
}

/** Path of a request without the base URL and query. */
export function pathOf(request: FakeRequest): string {
  return request.url.replace(/^https?:\/\/[^/]+/, '').split('?')[0];
}

/** Query parameters of a request. */
export function queryOf(request: FakeRequest): Record<string, string> {
  const query = request.url.split('?')[1] ?? '';
  const out: Record<string, string> = {};
  for (const part of query.split('&').filter(Boolean)) {
    const [k, v = ''] = part.split('=');
    out[decodeURIComponent(k)] = decodeURIComponent(v);
  }
  return out;
}
