'use strict';
// The sharded document-property store and the document lock, built with the production plugins
// (test/platform/harness.ts) and run in the Apps Script emulator: what survives between executions, how
// many property calls it takes, what happens when it is full, when entries expire, and when two executions
// write at once. The company index and the phone results use the same store (test/features).
const path = require('node:path');
const { AppsScriptEmulator } = require('../emulator');
const { buildHarness, ROOT } = require('../support/harness');

const HARNESS_DIR = path.join(ROOT, 'test-output', 'platform-harness');
const DAY = 24 * 3600 * 1000;

let emu;
const call = (name, ...args) => emu.run(name, args, { kind: 'webapp' });
const props = () => emu.properties.document.getProperties();
const shardsOf = (prefix) =>
  Object.entries(props())
    .filter(([key]) => key.startsWith(prefix))
    .map(([, text]) => text);

beforeAll(() => buildHarness('test/platform/rollup.platform-harness.mjs'));

beforeEach(() => {
  emu = new AppsScriptEmulator({ codePath: path.join(HARNESS_DIR, 'Code.js'), htmlDir: HARNESS_DIR });
});
afterEach(() => emu.dispose());

const STORE = { prefix: 'journal.', shards: 8 };
const pairs = (n, value = (i) => ({ row: i, sent: true })) =>
  Array.from({ length: n }, (_, i) => [`mail-${String(i).padStart(4, '0')}`, value(i)]);

describe('a value per key, kept between executions', () => {
  test('set, get, delete and entries across executions, any JSON value', () => {
    const values = [
      ['a', 1],
      ['b', 'text'],
      ['c', { nested: [1, 2] }],
      ['__proto__', true],
    ];
    expect(call('storeWrite', STORE, values)).toEqual({ saved: true });
    expect(call('storeRead', STORE, ['a', 'c', '__proto__', 'missing']).values).toEqual([
      1,
      { nested: [1, 2] },
      true,
      null,
    ]);
    call('storeWrite', STORE, [['d', null]], ['a', 'b']);
    expect(
      call('storeRead', STORE)
        .entries.map(([key]) => key)
        .sort(),
    ).toEqual(['__proto__', 'c', 'd']);
  });

  test('more than 9 KB spread over the shards; one read to load, one read and one write to save', () => {
    emu.resetStats();
    expect(call('storeWrite', STORE, pairs(400))).toEqual({ saved: true });
    expect(emu.callCount('Properties.getProperties')).toBe(2);
    expect(emu.callCount('Properties.setProperties')).toBe(1);
    const shards = shardsOf('journal.');
    expect(shards).toHaveLength(8);
    // Kept gzip-compressed (base64, "gz:") where that is smaller: 400 entries of repetitive JSON take far less.
    const raw = JSON.stringify(pairs(400)).length;
    expect(raw).toBeGreaterThan(9 * 1024);
    expect(shards.every((text) => text.startsWith('gz:'))).toBe(true);
    expect(shards.join('').length).toBeLessThan(raw / 2);
    for (const text of shards) expect(text.length).toBeLessThanOrEqual(8000);
    expect(call('storeRead', STORE).entries).toHaveLength(400);
  });

  test('a shard written before compression (plain text) is still read', () => {
    call('storeWrite', STORE, [['old', 'plain']]);
    const stored = emu.properties.document.toJSON();
    const key = Object.keys(stored).find((k) => k.startsWith('journal.') && stored[k].includes('old'));
    expect(stored[key].startsWith('gz:')).toBe(false); // short: kept as it is
    emu.properties.document.setProperty(key, JSON.stringify({ old: ['as written before', 1] }));
    expect(call('storeRead', STORE, ['old']).values).toEqual(['as written before']);
  });

  test('a save writes only the shards it changed; nothing to save costs no call', () => {
    call('storeWrite', STORE, pairs(40));
    const before = props();
    emu.resetStats();
    call('storeWrite', STORE, [['mail-0003', 'changed']]);
    const after = props();
    const changed = Object.keys(after).filter((key) => after[key] !== before[key]);
    expect(changed).toHaveLength(1);
    emu.resetStats();
    call('storeWrite', STORE, []);
    expect(emu.callCount('Properties.getProperties')).toBe(1); // the load
    expect(emu.callCount('Properties.setProperties')).toBe(0);
  });

  test('damaged shard text is read as empty, never thrown', () => {
    emu.properties.document.setProperty('journal.0', '{"a": [1,');
    emu.properties.document.setProperty('journal.1', '[1,2,3]');
    expect(call('storeRead', STORE).entries).toEqual([]);
    expect(call('storeWrite', STORE, pairs(3))).toEqual({ saved: true });
    expect(call('storeRead', STORE).entries).toHaveLength(3);
  });
});

describe('when full', () => {
  test('the oldest entries past maxEntries are dropped (the stores are caches)', () => {
    const cache = { prefix: 'cache.', shards: 4, maxEntries: 50, maxShardChars: 1500 };
    call(
      'storeWrite',
      cache,
      pairs(30, (i) => i),
    );
    emu.clock.advance(60_000);
    call(
      'storeWrite',
      cache,
      pairs(30, (i) => i + 100).map(([k, v]) => [`new-${k}`, v]),
    );
    const { entries } = call('storeRead', cache);
    expect(entries).toHaveLength(50);
    expect(entries.filter(([key]) => key.startsWith('new-'))).toHaveLength(30);
  });

  test('each shard is kept under maxShardChars by dropping its oldest entries', () => {
    const small = { prefix: 'small.', shards: 2, maxShardChars: 1000 };
    call(
      'storeWrite',
      small,
      pairs(20, () => 'old'),
    );
    emu.clock.advance(60_000);
    call(
      'storeWrite',
      small,
      pairs(60, () => 'y'.repeat(20)).map(([k, v]) => [`big-${k}`, v]),
    );
    for (const text of shardsOf('small.')) expect(text.length).toBeLessThanOrEqual(1000);
    const kept = call('storeRead', small).entries.map(([key]) => key);
    expect(kept.filter((key) => !key.startsWith('big-'))).toEqual([]);
    expect(kept.length).toBeGreaterThan(30);
  });
});

test('an expired entry is not returned, and is dropped when its shard is written', () => {
  const store = { prefix: 'expiring.', shards: 1, expiresAfterMs: 30 * DAY };
  call('storeWrite', store, [['old', 1]]);
  emu.clock.advance(29 * DAY);
  expect(call('storeRead', store, ['old']).values).toEqual([1]);
  emu.clock.advance(2 * DAY);
  expect(call('storeRead', store, ['old']).values).toEqual([null]);
  expect(shardsOf('expiring.')[0]).toContain('"old"');
  call('storeWrite', store, [['new', 2]]);
  expect(shardsOf('expiring.')[0]).not.toContain('"old"');
});

test('two executions writing at once keep both writes; the later write of a key wins; deletes hold', () => {
  call('storeWrite', STORE, [
    ['shared', 'first'],
    ['gone', 1],
  ]);
  const entries = call(
    'storeInterleaved',
    STORE,
    [
      ['mine', 'a'],
      ['shared', 'mine, later'],
    ],
    [
      ['theirs', 'b'],
      ['shared', 'theirs, earlier'],
    ],
    ['gone'],
  );
  expect(Object.fromEntries(entries)).toEqual({ mine: 'a', theirs: 'b', shared: 'mine, later' });
});

describe('withDocumentLock', () => {
  test('runs the work, flushes pending sheet changes, then releases', () => {
    expect(call('lockedWork', 1000, null)).toEqual({ answer: 'worked', heldAfter: false });
    expect(emu.callCount('SpreadsheetApp.flush')).toBe(1);
    emu.resetStats();
    expect(call('lockedWork', 1000, false)).toEqual({ answer: 'worked', heldAfter: false });
    expect(emu.callCount('SpreadsheetApp.flush')).toBe(0); // a properties-only section skips it
  });

  test('answers onBusy when another execution holds the lock past the timeout; waits when it ends in time', () => {
    emu.locks.holdByOther('document', 60_000);
    const t0 = emu.clock.now();
    expect(call('lockedWork', 10_000, false)).toEqual({ answer: 'busy', heldAfter: false });
    expect(emu.clock.now() - t0).toBeGreaterThanOrEqual(10_000);
    emu.locks.holdByOther('document', 3_000);
    expect(call('lockedWork', 10_000, false)).toEqual({ answer: 'worked', heldAfter: false });
  });

  test('a section inside another runs at once and leaves the lock to the outer one', () => {
    expect(call('nestedLocks')).toEqual({ inner: 'inner worked', heldAfterInner: true });
  });

  test('a failing piece of work still releases the lock', () => {
    expect(call('lockedWork', 1000, null, true)).toEqual({ thrown: 'work failed', heldAfter: false });
  });
});
