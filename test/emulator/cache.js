'use strict';
// CacheService: script, user and document caches kept across executions. Expiry reads the virtual clock;
// 100 KB per value, 250-character keys, 6 h maximum; entries may vanish (evictAll(), or an eviction rate).
const { AppsScriptError, permissionError } = require('./errors');
const { instrument } = require('./execution');

const MAX_VALUE_BYTES = 100 * 1024;
const MAX_KEY_LENGTH = 250;
const MAX_TTL_SECONDS = 21600;
const DEFAULT_TTL_SECONDS = 600;

class CacheStore {
  constructor(name, clock, random) {
    this.name = name;
    this._clock = clock;
    this._random = random;
    this.data = new Map(); // key -> { value, expiresAt }
    this.evictionRate = 0;
  }
  _live(key) {
    const e = this.data.get(key);
    if (!e) return null;
    if (e.expiresAt <= this._clock.now() || (this.evictionRate > 0 && this._random() < this.evictionRate)) {
      this.data.delete(key);
      return null;
    }
    return e;
  }
  _checkKey(key) {
    if (key === null || key === undefined) throw new AppsScriptError('Invalid argument: key');
    const k = String(key);
    if (k.length > MAX_KEY_LENGTH) throw new AppsScriptError(`Argument too large: key`);
    return k;
  }
  get(key) {
    const e = this._live(this._checkKey(key));
    return e ? e.value : null;
  }
  getAll(keys) {
    const out = {};
    for (const k of keys) {
      const e = this._live(this._checkKey(k));
      if (e) out[k] = e.value;
    }
    return out;
  }
  _ttl(expirationInSeconds) {
    const ttl = expirationInSeconds === undefined ? DEFAULT_TTL_SECONDS : Number(expirationInSeconds);
    if (!(ttl >= 1) || ttl > MAX_TTL_SECONDS)
      throw new AppsScriptError('Invalid argument: expirationInSeconds');
    return ttl;
  }
  _entry(value, ttl) {
    const v = value === null || value === undefined ? '' : String(value);
    if (Buffer.byteLength(v, 'utf8') > MAX_VALUE_BYTES)
      throw new AppsScriptError('Argument too large: value');
    return { value: v, expiresAt: this._clock.now() + ttl * 1000 };
  }
  put(key, value, expirationInSeconds) {
    const k = this._checkKey(key);
    this.data.set(k, this._entry(value, this._ttl(expirationInSeconds)));
  }
  putAll(values, expirationInSeconds) {
    const ttl = this._ttl(expirationInSeconds);
    const entries = Object.entries(values || {}).map(([k, v]) => [this._checkKey(k), this._entry(v, ttl)]);
    for (const [k, e] of entries) this.data.set(k, e);
  }
  remove(key) {
    this.data.delete(this._checkKey(key));
  }
  removeAll(keys) {
    for (const k of keys) this.data.delete(this._checkKey(k));
  }
  /** Test helper: every entry vanishes (as Apps Script may do at any time). */
  evictAll() {
    this.data.clear();
  }
}

class Cache {
  constructor(env, store) {
    this._env = env;
    this._store = store;
  }
  get(key) {
    return this._store.get(key);
  }
  getAll(keys) {
    return this._store.getAll(keys);
  }
  put(key, value, expirationInSeconds) {
    this._store.put(key, value, expirationInSeconds);
  }
  putAll(values, expirationInSeconds) {
    this._store.putAll(values, expirationInSeconds);
  }
  remove(key) {
    this._store.remove(key);
  }
  removeAll(keys) {
    this._store.removeAll(keys);
  }
}

class CacheServiceImpl {
  constructor(env) {
    this._env = env;
  }
  getScriptCache() {
    return new Cache(this._env, this._env.emu.cache.script);
  }
  getUserCache() {
    const { emu, exec } = this._env;
    return new Cache(this._env, emu.cache.user(exec ? exec.effectiveUser : emu.users.active));
  }
  getDocumentCache() {
    return new Cache(this._env, this._env.emu.cache.document);
  }
}

/** emu.cache: the stores, evictAll() over all of them, and the eviction rate. */
class CacheStores {
  constructor(clock, random) {
    this._clock = clock;
    this._random = random;
    this.script = new CacheStore('script', clock, random);
    this.document = new CacheStore('document', clock, random);
    this.users = new Map();
    this._rate = 0;
  }
  user(email) {
    if (!this.users.has(email)) {
      const s = new CacheStore(`user:${email}`, this._clock, this._random);
      s.evictionRate = this._rate;
      this.users.set(email, s);
    }
    return this.users.get(email);
  }
  _all() {
    return [this.script, this.document, ...this.users.values()];
  }
  evictAll() {
    for (const s of this._all()) s.evictAll();
  }
  /** Each read of a live entry loses it with this probability (seeded, deterministic per emulator). */
  setEvictionRate(rate) {
    this._rate = rate;
    for (const s of this._all()) s.evictionRate = rate;
  }
}

function guard(exec, name, kind, self) {
  if (exec.authMode === 'NONE') {
    throw permissionError(self instanceof CacheServiceImpl ? `CacheService.${name}` : `Cache.${name}`);
  }
}
const classify = (name) => (/^get/.test(name) ? 'read' : 'write');
instrument(CacheServiceImpl, { label: 'CacheService', group: 'cache', classify: () => 'other', guard });
instrument(Cache, { label: 'Cache', group: 'cache', classify, guard });

module.exports = { CacheStores, CacheServiceImpl, MAX_VALUE_BYTES, MAX_KEY_LENGTH, MAX_TTL_SECONDS };
