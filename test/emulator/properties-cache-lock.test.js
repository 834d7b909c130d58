'use strict';
// PropertiesService, CacheService and LockService: stores kept across executions, string values, size
// limits with Apps Script's messages, virtual-time expiry, eviction, lock waits on the virtual clock.
const { AppsScriptEmulator } = require('.');

const make = (code, opts) => new AppsScriptEmulator({ code, ...opts });

describe('PropertiesService', () => {
  const code = `
    function save(k, v) { PropertiesService.getUserProperties().setProperty(k, v); }
    function load(k) { return PropertiesService.getUserProperties().getProperty(k); }
    function doc(obj, all) { var p = PropertiesService.getDocumentProperties(); p.setProperties(obj, all); return [p.getKeys().sort(), p.getProperties()]; }
    function big(n) { PropertiesService.getScriptProperties().setProperty('k', new Array(n + 1).join('x')); }
    function fill() { var p = PropertiesService.getScriptProperties(); for (var i = 0; i < 60; i++) p.setProperty('k' + i, new Array(9000).join('y')); }
    function del() { var p = PropertiesService.getDocumentProperties(); p.deleteProperty('a'); var k1 = p.getKeys(); p.deleteAllProperties(); return [k1, p.getKeys()]; }`;

  test('user properties are per user and survive executions; values become strings', () => {
    const emu = make(code, { users: { owner: 'owner@example.com', active: 'ann@example.com' } });
    emu.run('save', ['n', 42]);
    expect(emu.run('load', ['n'])).toBe('42');
    expect(emu.run('load', ['missing'])).toBeNull();
    expect(emu.properties.user.getProperties()).toEqual({ n: '42' });
    expect(emu.properties.owner.getProperties()).toEqual({});
    emu.setActiveUser('bob@example.com');
    expect(emu.run('load', ['n'])).toBeNull();
  });

  test("a custom function reads the owner's user properties and may not change them", () => {
    const emu = make(
      `${code}
      function READ(k) { return PropertiesService.getUserProperties().getProperty(k); }
      function WRITE(k) { PropertiesService.getUserProperties().setProperty(k, 'x'); }
      function DOCWRITE(k) { PropertiesService.getDocumentProperties().setProperty(k, 'x'); return 'ok'; }`,
      { users: { owner: 'owner@example.com', active: 'ann@example.com' } },
    );
    emu.properties.owner.setProperty('k', 'owner value');
    emu.run('save', ['k', 'ann value']);
    expect(emu.runCustomFunction('READ', ['k'])).toBe('owner value');
    expect(() => emu.runCustomFunction('WRITE', ['k'])).toThrow(
      'You do not have permission to call Properties.setProperty',
    );
    expect(emu.properties.owner.getProperty('k')).toBe('owner value');
    expect(emu.runCustomFunction('DOCWRITE', ['d'])).toBe('ok');
  });

  test('setProperties with and without deleteAllOthers, getKeys, deleteProperty, deleteAllProperties', () => {
    const emu = make(code);
    expect(emu.run('doc', [{ a: '1', b: '2' }])).toEqual([['a', 'b'], { a: '1', b: '2' }]);
    expect(emu.run('doc', [{ c: '3' }, true])).toEqual([['c'], { c: '3' }]);
    emu.run('doc', [{ a: '1' }]);
    expect(emu.run('del')).toEqual([['c'], []]);
  });

  test('9 KB per value (key + value bytes) and 500 KB per store', () => {
    const emu = make(code);
    expect(() => emu.run('big', [9215])).not.toThrow();
    expect(() => emu.run('big', [9216])).toThrow('Argument too large: value');
    expect(() => emu.run('fill')).toThrow(
      'You have exceeded the property storage quota. Please remove some properties and try again.',
    );
    expect(emu.properties.script.bytes).toBeLessThanOrEqual(500 * 1024);
  });

  test('the document store holds 500 KB counted in UTF-8 bytes (a Chinese character is 3); past it nothing is written', () => {
    const emu = make(`${code}
      function cjk(prefix, n, chars) { var p = PropertiesService.getDocumentProperties();
        for (var i = 0; i < n; i++) p.setProperty(prefix + i, new Array(chars + 1).join('中')); }`);
    emu.run('cjk', ['a', 56, 3000]); // 56 × (3 + 9,000 bytes) = 504,168 bytes: fits under 512,000
    const before = emu.properties.document.bytes;
    expect(before).toBeGreaterThan(480 * 1024);
    expect(before).toBeLessThanOrEqual(500 * 1024);
    expect(() => emu.run('cjk', ['b', 1, 3000])).toThrow(
      'You have exceeded the property storage quota. Please remove some properties and try again.',
    );
    expect(emu.properties.document.bytes).toBe(before);
    expect(emu.properties.document.getProperty('b0')).toBeNull();
    expect(() => emu.run('cjk', ['c', 1, 3072])).toThrow('Argument too large: value'); // 9,216 bytes + key
  });
});

describe('CacheService', () => {
  const code = `
    function put(k, v, ttl) { CacheService.getScriptCache().put(k, v, ttl); }
    function get(k) { return CacheService.getScriptCache().get(k); }
    function many() { var c = CacheService.getUserCache(); c.putAll({ a: '1', b: '2', c: '3' }); c.removeAll(['b']); c.remove('c'); return c.getAll(['a', 'b', 'c', 'd']); }
    function big(n) { CacheService.getDocumentCache().put('k', new Array(n + 1).join('x')); }
    function longKey(n) { CacheService.getScriptCache().put(new Array(n + 1).join('k'), 'v'); }`;

  test('entries expire on the virtual clock (default 10 minutes, at most 6 hours)', () => {
    const emu = make(code);
    emu.run('put', ['k', 'v']);
    emu.clock.advance(599000);
    expect(emu.run('get', ['k'])).toBe('v');
    emu.clock.advance(2000);
    expect(emu.run('get', ['k'])).toBeNull();
    emu.run('put', ['k', 'v', 21600]);
    emu.clock.advance(21599000);
    expect(emu.run('get', ['k'])).toBe('v');
    expect(() => emu.run('put', ['k', 'v', 21601])).toThrow('Invalid argument: expirationInSeconds');
  });

  test('getAll/putAll/removeAll; 100 KB values and 250-character keys', () => {
    const emu = make(code);
    expect(emu.run('many')).toEqual({ a: '1' });
    expect(() => emu.run('big', [100 * 1024])).not.toThrow();
    expect(() => emu.run('big', [100 * 1024 + 1])).toThrow('Argument too large: value');
    expect(() => emu.run('longKey', [250])).not.toThrow();
    expect(() => emu.run('longKey', [251])).toThrow('Argument too large: key');
  });

  test('entries may vanish: evictAll, or a random eviction rate', () => {
    const emu = make(code);
    emu.run('put', ['k', 'v']);
    emu.cache.evictAll();
    expect(emu.run('get', ['k'])).toBeNull();
    const lossy = make(code, { cacheEvictionRate: 0.5, seed: 7 });
    let lost = 0;
    for (let i = 0; i < 40; i++) {
      lossy.run('put', ['k', 'v']);
      if (lossy.run('get', ['k']) === null) lost++;
    }
    expect(lost).toBeGreaterThan(5);
    expect(lost).toBeLessThan(35);
  });
});

describe('LockService', () => {
  const code = `
    function take(ms) { var l = LockService.getDocumentLock(); var ok = l.tryLock(ms); return [ok, l.hasLock()]; }
    function wait(ms) { var l = LockService.getScriptLock(); l.waitLock(ms); var had = l.hasLock(); l.releaseLock(); return [had, l.hasLock()]; }`;

  test('tryLock succeeds at once when nobody holds the lock; locks end with the execution', () => {
    const emu = make(code);
    const t0 = emu.clock.now();
    expect(emu.run('take', [10000])).toEqual([true, true]);
    expect(emu.run('take', [0])).toEqual([true, true]);
    expect(emu.clock.now()).toBe(t0);
  });

  test('another execution holding the lock: tryLock waits the virtual timeout and returns false', () => {
    const emu = make(code);
    emu.locks.holdByOther('document', 60000);
    const t0 = emu.clock.now();
    expect(emu.run('take', [10000])).toEqual([false, false]);
    expect(emu.clock.now() - t0).toBe(10000);
    expect(emu.run('take', [60000])).toEqual([true, true]);
    expect(emu.clock.now() - t0).toBe(60000);
  });

  test('waitLock throws on timeout', () => {
    const emu = make(code);
    emu.locks.holdByOther('script');
    expect(() => emu.run('wait', [5000])).toThrow(
      'Lock timeout: another process was holding the lock for too long.',
    );
    emu.locks.releaseOther('script');
    expect(emu.run('wait', [5000])).toEqual([true, false]);
  });
});
