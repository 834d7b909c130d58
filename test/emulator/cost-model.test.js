'use strict';
// The cost model: each service call moves its execution's virtual clock by the table's latency, a read after
// writes pays the flush it forces, and the execution limits count the modelled time.
const { AppsScriptEmulator } = require('.');
const { COST_KINDS, callKind } = require('./cost-model');

const code = `
  function propertyWrites(n) {
    var p = PropertiesService.getDocumentProperties();
    for (var i = 0; i < n; i++) p.setProperty('k' + i, 'v');
  }
  function sheetReads(m) {
    var sheet = SpreadsheetApp.getActiveSpreadsheet().getActiveSheet();
    var range = sheet.getRange('A1:B2');
    for (var i = 0; i < m; i++) range.getValues();
  }
  function mixed(n, m) {
    var started = Date.now();
    propertyWrites(n);
    sheetReads(m);
    return Date.now() - started;
  }
  function writeThenRead() {
    var range = SpreadsheetApp.getActiveSheet().getRange('A1');
    range.setValue(1);
    range.setValue(2);
    range.getValue();
    range.setValue(3);
  }
  function explicitFlush() {
    SpreadsheetApp.getActiveSheet().getRange('A1').setValue(1);
    SpreadsheetApp.flush();
  }
  function cacheAndLock() {
    var cache = CacheService.getUserCache();
    cache.put('a', '1');
    cache.get('a');
    var lock = LockService.getDocumentLock();
    lock.tryLock(1000);
    lock.releaseLock();
    PropertiesService.getUserProperties().getProperty('x');
  }
  function manyWrites() {
    var p = PropertiesService.getDocumentProperties();
    for (var i = 0; i < 10000; i++) p.setProperty('k', String(i));
  }
  function SLOW_FORMULA() {
    var p = PropertiesService.getDocumentProperties();
    for (var i = 0; i < 2000; i++) p.getProperty('k');
    return 'done';
  }`;

const make = (opts) => new AppsScriptEmulator({ code, manifestPath: false, costModel: true, ...opts });
const HANDLE = COST_KINDS['spreadsheet.handle'];

describe('cost model', () => {
  test('N property writes and M sheet reads are charged exactly by the table', () => {
    const emu = make();
    const n = 7;
    const m = 5;
    const start = emu.clock.now();
    const seenByScript = emu.run('mixed', [n, m]);
    // getActiveSpreadsheet, getActiveSheet, getRange: handles; then M reads. No property read, no flush.
    const expected = n * COST_KINDS['properties.write'] + 3 * HANDLE + m * COST_KINDS['spreadsheet.read'];
    expect(seenByScript).toBe(expected);
    expect(emu.clock.now() - start).toBe(expected);
    expect(emu.stats.cost.ms).toBe(expected);
    expect(emu.stats.cost.byKind['properties.write']).toEqual({
      calls: n,
      ms: n * COST_KINDS['properties.write'],
    });
    expect(emu.stats.cost.byKind['spreadsheet.read']).toEqual({
      calls: m,
      ms: m * COST_KINDS['spreadsheet.read'],
    });
  });

  test('writes wait in the write-back cache: a read, a flush or the end of the execution commits them', () => {
    const emu = make();
    let start = emu.clock.now();
    emu.run('writeThenRead');
    // 2 handles, 2 writes, a read that flushes first, 1 write flushed when the execution ends.
    const w = COST_KINDS['spreadsheet.write'];
    const flush = COST_KINDS['spreadsheet.flush'];
    expect(emu.clock.now() - start).toBe(2 * HANDLE + 3 * w + COST_KINDS['spreadsheet.read'] + 2 * flush);
    expect(emu.stats.cost.byKind['spreadsheet.flush'].calls).toBe(2);

    emu.resetStats();
    start = emu.clock.now();
    emu.run('explicitFlush');
    expect(emu.clock.now() - start).toBe(2 * HANDLE + w + flush);
  });

  test('cache, lock and property reads have their own figures; service getters and releases are free', () => {
    const emu = make();
    const start = emu.clock.now();
    emu.run('cacheAndLock');
    expect(emu.clock.now() - start).toBe(
      COST_KINDS['cache.write'] +
        COST_KINDS['cache.read'] +
        COST_KINDS['lock.acquire'] +
        COST_KINDS['properties.read'],
    );
  });

  test('the 6-minute limit counts modelled time', () => {
    const emu = make();
    // 10,000 writes × 60 ms = 10 minutes: the execution is stopped at 6.
    expect(() => emu.run('manyWrites')).toThrow(/Exceeded maximum execution time/);
    const record = emu.executions[emu.executions.length - 1];
    expect(record.status).toBe('timed out');
    expect(record.endMs - record.startMs).toBe(360000);
    expect(Number(emu.properties.document.getProperty('k'))).toBe(360000 / 60 - 1);
  });

  test('a custom function keeps its 30 s limit under the model', () => {
    const emu = make();
    // 2,000 reads × 30 ms = 60 s > 30 s.
    expect(() => emu.runCustomFunction('SLOW_FORMULA')).toThrow(/Exceeded maximum execution time/);
  });

  test('off by default: service calls cost nothing, a fetch keeps fetchLatencyMs', () => {
    const emu = new AppsScriptEmulator({ code, manifestPath: false });
    const start = emu.clock.now();
    emu.run('mixed', [3, 3]);
    expect(emu.clock.now() - start).toBe(0);
    expect(emu.fetchLatencyMs).toBe(50);
    expect(make().fetchLatencyMs).toBe(COST_KINDS['urlFetch.call']);
  });

  test('overrides replace figures of the table; an unknown kind is refused', () => {
    const emu = make({ costModel: { 'properties.write': 1 } });
    const start = emu.clock.now();
    emu.run('propertyWrites', [4]);
    expect(emu.clock.now() - start).toBe(4);
    expect(() => make({ costModel: { 'sheets.read': 1 } })).toThrow(/unknown call kind/);
  });

  test('call kinds follow the method names', () => {
    expect(callKind('spreadsheet', 'Range.getValues', 'read')).toBe('spreadsheet.read');
    expect(callKind('spreadsheet', 'Sheet.isRowHiddenByFilter', 'read')).toBe('spreadsheet.read');
    expect(callKind('spreadsheet', 'Sheet.getRange', 'read')).toBe('spreadsheet.handle');
    expect(callKind('spreadsheet', 'Range.getLastRow', 'read')).toBe('spreadsheet.handle');
    expect(callKind('spreadsheet', 'Sheet.getLastRow', 'read')).toBe('spreadsheet.read');
    expect(callKind('spreadsheet', 'Range.setValues', 'write')).toBe('spreadsheet.write');
    expect(callKind('spreadsheet', 'SpreadsheetApp.flush', 'other')).toBe('spreadsheet.flush');
    expect(callKind('spreadsheet', 'Spreadsheet.insertSheet', 'write')).toBe('spreadsheet.insertSheet');
    expect(callKind('properties', 'Properties.getProperties', 'read')).toBe('properties.read');
    expect(callKind('properties', 'Properties.deleteProperty', 'write')).toBe('properties.write');
    expect(callKind('properties', 'PropertiesService.getDocumentProperties', 'other')).toBeNull();
    expect(callKind('cache', 'Cache.remove', 'write')).toBe('cache.write');
    expect(callKind('lock', 'Lock.waitLock', 'other')).toBe('lock.acquire');
    expect(callKind('lock', 'Lock.releaseLock', 'other')).toBeNull();
    expect(callKind('ui', 'Ui.alert', 'other')).toBeNull();
  });
});
