'use strict';
// Executions: a fresh context per run with only Apps Script globals, virtual time, the 6-minute and
// 30-second limits, auth modes, google.script.run value rules, errors as Apps Script throws them.
const { AppsScriptEmulator, Clock } = require('.');

const make = (code, opts = {}) => new AppsScriptEmulator({ code, ...opts });

describe('execution context', () => {
  test('only Apps Script globals and ECMAScript built-ins exist', () => {
    const emu = make(`function probe() {
      var names = ['setTimeout','setInterval','fetch','URL','TextEncoder','TextDecoder','atob','btoa','crypto',
        'process','require','Buffer','module','exports','global','structuredClone','queueMicrotask','setImmediate'];
      var missing = names.filter(function (n) { return typeof globalThis[n] === 'undefined'; });
      var present = ['SpreadsheetApp','PropertiesService','CacheService','LockService','ScriptApp','HtmlService',
        'UrlFetchApp','Utilities','Session','Logger','console','JSON','Math','Promise','Map','Intl']
        .filter(function (n) { return typeof globalThis[n] !== 'undefined'; });
      return { missing: missing.length, names: names.length, present: present.length };
    }`);
    expect(emu.run('probe')).toEqual({ missing: 18, names: 18, present: 16 });
  });

  test('each run evaluates the script again in a fresh context; services keep their state', () => {
    const emu = make(`var counter = 0;
      function bump() { counter++; PropertiesService.getScriptProperties().setProperty('n', String(counter)); return counter; }`);
    expect(emu.run('bump')).toBe(1);
    expect(emu.run('bump')).toBe(1);
    expect(emu.properties.script.getProperty('n')).toBe('1');
    expect(emu.stats.executions).toBe(2);
    expect(emu.executions.map((e) => e.status)).toEqual(['completed', 'completed']);
  });

  test('Date reads the virtual clock and Utilities.sleep advances it', () => {
    const clock = Clock.virtual(Date.UTC(2026, 0, 5, 9));
    const emu = make(
      `function t() { var a = new Date(); Utilities.sleep(90000); return [a.toISOString(), Date.now() - a.getTime(), new Date() instanceof Date, typeof Date()]; }`,
      { clock },
    );
    expect(emu.run('t')).toEqual(['2026-01-05T09:00:00.000Z', 90000, true, 'string']);
    expect(clock.now()).toBe(Date.UTC(2026, 0, 5, 9, 1, 30));
  });

  test('values from services belong to the script realm (instanceof works)', () => {
    const emu = make(`function t() {
      var r = SpreadsheetApp.getActiveSheet().getRange('A1:B1');
      r.setValues([[new Date(0), 1]]);
      var v = r.getValues();
      var e; try { r.setValues([[1]]); } catch (x) { e = x; }
      return [v instanceof Array, v[0] instanceof Array, v[0][0] instanceof Date, e instanceof Error, e.name, String(e).indexOf('Exception: The number of columns in the data') === 0];
    }`);
    expect(emu.run('t')).toEqual([true, true, true, true, 'Exception', true]);
  });

  test('an unknown function is "Script function not found"; google.script.run cannot see names ending in _', () => {
    const emu = make('function helper_() { return 1; } function ok() { return 2; }');
    expect(() => emu.run('missing')).toThrow('Script function not found: missing');
    expect(() => emu.run('helper_', [], { kind: 'webapp' })).toThrow('Script function not found: helper_');
    expect(emu.run('helper_')).toBe(1);
    expect(emu.run('ok', [], { kind: 'webapp' })).toBe(2);
  });

  test('google.script.run: Date arguments are refused, a result holding a Date arrives as null', () => {
    const emu = make('function echo(x) { return x; } function when() { return { at: new Date() }; }');
    expect(emu.run('echo', [{ a: [1, 'b', null] }], { kind: 'webapp' })).toEqual({ a: [1, 'b', null] });
    expect(() => emu.run('echo', [new Date()], { kind: 'webapp' })).toThrow(
      'Failed due to illegal value in property: 0',
    );
    expect(emu.run('when', [], { kind: 'webapp' })).toBeNull();
    expect(emu.warnings[0]).toMatch(/when returned a value google.script.run cannot pass/);
    expect(emu.run('when', [], { kind: 'menu' })).toEqual({ at: '2026-01-05T09:00:00.000Z' });
  });

  test('script errors reach the test with their message and name', () => {
    const emu = make('function boom() { throw new TypeError("bad thing"); }');
    let err;
    try {
      emu.run('boom');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toBe('bad thing');
    expect(err.name).toBe('TypeError');
    expect(emu.executions[0]).toMatchObject({ status: 'failed', error: 'bad thing' });
  });

  test('promise callbacks run before the execution ends', () => {
    const emu = make(`function f() {
      Promise.resolve().then(function () { PropertiesService.getScriptProperties().setProperty('late', 'yes'); });
      return 1;
    }`);
    expect(emu.run('f')).toBe(1);
    expect(emu.properties.script.getProperty('late')).toBe('yes');
  });

  test('arguments can be built from the execution globals (event objects)', () => {
    const emu = make(
      'function h(e) { return [String(e.authMode), e.authMode === ScriptApp.AuthMode.FULL]; }',
    );
    expect(emu.run('h', (g) => [{ authMode: g.ScriptApp.AuthMode.FULL }])).toEqual(['FULL', true]);
  });
});

describe('time limits (virtual time)', () => {
  test('a menu execution stops at 6 minutes: the next service call throws, and the run fails even if caught', () => {
    const emu = make(`function long() {
      var sheet = SpreadsheetApp.getActiveSheet();
      for (var i = 1; i <= 100; i++) {
        try { Utilities.sleep(60000); sheet.getRange(i, 1).setValue('done ' + i); } catch (e) { Logger.log('caught ' + e.message); }
      }
      return 'finished';
    }`);
    const start = emu.clock.now();
    expect(() => emu.run('long')).toThrow('Exceeded maximum execution time');
    expect(emu.clock.now() - start).toBe(360000);
    expect(
      emu
        .range('A1:A7')
        .getValues()
        .map((r) => r[0]),
    ).toEqual(['done 1', 'done 2', 'done 3', 'done 4', 'done 5', 'done 6', '']);
    expect(emu.executions[0].status).toBe('timed out');
  });

  test('a custom function has 30 seconds', () => {
    const emu = make('function SLOW() { Utilities.sleep(20000); Utilities.sleep(20000); return 1; }');
    expect(() => emu.runCustomFunction('SLOW', [])).toThrow('Exceeded maximum execution time');
    expect(() => emu.run('SLOW')).not.toThrow();
  });

  test('a sleep that crosses the limit ends the execution at the limit', () => {
    const emu = make(
      'function t() { Utilities.sleep(300000); Utilities.sleep(59000); return Utilities.getUuid().length; }',
    );
    expect(emu.run('t')).toBe(36);
    const emu2 = make(
      'function t() { Utilities.sleep(300000); try { Utilities.sleep(61000); } catch (e) {} return 1; }',
    );
    const start = emu2.clock.now();
    expect(() => emu2.run('t')).toThrow('Exceeded maximum execution time');
    expect(emu2.clock.now() - start).toBe(360000);
  });

  test('a busy loop is stopped by the real-time guard', () => {
    const emu = make('function spin() { for (;;) {} }', { realTimeoutMs: 100 });
    expect(() => emu.run('spin')).toThrow(/Exceeded maximum execution time/);
  });

  test('on a real clock, a dialog waiting for the user is not stopped by the guard, only by the limit', () => {
    const code = `function ask() {
      var button = SpreadsheetApp.getUi().alert('Go on?', SpreadsheetApp.getUi().ButtonSet.YES_NO);
      PropertiesService.getUserProperties().setProperty('answer', String(button));
      return String(button);
    }`;
    const clock = Clock.real();
    const emu = make(code, { clock, realTimeoutMs: 200 });
    const waitReally = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    // The user reads the dialog for 3 × the guard's time, then answers.
    emu.ui.respond(() => (waitReally(600), 'YES'));
    expect(emu.run('ask')).toBe('YES');
    expect(emu.executions.at(-1).status).toBe('completed');

    // Left open past Apps Script's 6 minutes (the clock moved on while it waited): Apps Script's own error.
    emu.ui.respond(() => (clock.advance(361000), 'YES'));
    expect(() => emu.run('ask')).toThrow(/^Exceeded maximum execution time$/);
    expect(emu.executions.at(-1).status).toBe('timed out');
  });
});

describe('authorization modes', () => {
  const code = `
    function menu() { SpreadsheetApp.getUi().createAddonMenu().addItem('Go', 'go').addToUi(); return 'ok'; }
    function props() { return PropertiesService.getUserProperties().getProperty('k'); }
    function cache() { return CacheService.getScriptCache().get('k'); }
    function lock() { return LockService.getDocumentLock().tryLock(1); }
    function net() { return UrlFetchApp.fetch('http://127.0.0.1:9/').getResponseCode(); }
    function doc() { return SpreadsheetApp.getActiveSpreadsheet().getName(); }
    function trig() { return ScriptApp.newTrigger('menu').timeBased().everyHours(1).create().getUniqueId(); }
    function alert() { return String(SpreadsheetApp.getUi().alert('hi')); }
    function auth() { return String(ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL).getAuthorizationStatus()); }`;

  test('AuthMode.NONE: only menu building works', () => {
    const emu = make(code);
    const none = (name) => () => emu.run(name, [], { kind: 'simple', authMode: 'NONE' });
    expect(none('menu')()).toBe('ok');
    expect(none('auth')()).toBe('NOT_REQUIRED');
    expect(none('props')).toThrow('You do not have permission to call PropertiesService.getUserProperties');
    expect(none('cache')).toThrow('You do not have permission to call CacheService.getScriptCache');
    expect(none('lock')).toThrow('You do not have permission to call LockService.getDocumentLock');
    expect(none('net')).toThrow(
      'You do not have permission to call UrlFetchApp.fetch. Required permissions: https://www.googleapis.com/auth/script.external_request',
    );
    expect(none('doc')).toThrow('You do not have permission to call SpreadsheetApp.getActiveSpreadsheet');
    expect(none('trig')).toThrow('You do not have permission to call ScriptApp.newTrigger');
    expect(none('alert')).toThrow('You do not have permission to call Ui.alert');
  });

  test('top-level code runs in the same mode: touching a service at top level breaks even onOpen', () => {
    const emu = make(`var KEY = PropertiesService.getScriptProperties().getProperty('k');
      function onOpen() { SpreadsheetApp.getUi().createAddonMenu().addItem('Go', 'go').addToUi(); }`);
    expect(() => emu.open({ authMode: 'NONE' })).toThrow(
      'You do not have permission to call PropertiesService.getScriptProperties',
    );
    expect(emu.ui.menus).toEqual([]);
    expect(() => emu.open({ authMode: 'LIMITED' })).not.toThrow();
  });

  test('AuthMode.LIMITED: document and properties yes, UrlFetch, triggers and sidebars no', () => {
    const emu = make(
      code + ' function side() { SpreadsheetApp.getUi().showSidebar(HtmlService.createHtmlOutput("x")); }',
    );
    const limited = (name) => () => emu.run(name, [], { kind: 'simple', authMode: 'LIMITED' });
    expect(limited('doc')()).toBe('Untitled spreadsheet');
    expect(limited('props')()).toBeNull();
    expect(limited('net')).toThrow('You do not have permission to call UrlFetchApp.fetch');
    expect(limited('trig')).toThrow('You do not have permission to call ScriptApp.newTrigger');
    expect(limited('side')).toThrow('You do not have permission to call Ui.showSidebar');
  });

  test('getAuthorizationInfo reports REQUIRED with a URL when the user has not authorized', () => {
    const emu = make(
      'function a() { var i = ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL); return [String(i.getAuthorizationStatus()), i.getAuthorizationStatus() === ScriptApp.AuthorizationStatus.REQUIRED, i.getAuthorizationUrl()]; }',
      { authorizationRequired: true },
    );
    expect(emu.run('a')).toEqual([
      'REQUIRED',
      true,
      expect.stringMatching(/^https:\/\/script\.google\.com\/.+\/authorize$/),
    ]);
  });

  test('the manifest scopes are enforced when a manifest is given', () => {
    const fs = require('node:fs');
    const os = require('node:os');
    const path = require('node:path');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-'));
    fs.writeFileSync(
      path.join(dir, 'appsscript.json'),
      JSON.stringify({ oauthScopes: ['https://www.googleapis.com/auth/spreadsheets.currentonly'] }),
    );
    const emu = make(code, { htmlDir: dir });
    expect(emu.run('doc')).toBe('Untitled spreadsheet');
    expect(() => emu.run('net')).toThrow(
      'Required permissions: https://www.googleapis.com/auth/script.external_request',
    );
    expect(() => emu.run('alert')).toThrow('You do not have permission to call Ui.alert');
  });
});

describe('custom-function executions', () => {
  const code = `
    function READ() { return SpreadsheetApp.getActiveSheet().getRange('A1').getValue(); }
    function WRITE() { SpreadsheetApp.getActiveSheet().getRange('A1').setValue(1); }
    function SORT() { SpreadsheetApp.getActiveSheet().sort(1); }
    function INSERT() { SpreadsheetApp.getActiveSheet().insertRowAfter(1); }
    function UI() { SpreadsheetApp.getUi(); }
    function KEY() { return PropertiesService.getUserProperties().getProperty('apiKey'); }
    function WHO() { return [Session.getActiveUser().getEmail(), Session.getEffectiveUser().getEmail()]; }
    function HERE() { return SpreadsheetApp.getActiveRange().getA1Notation(); }`;

  test('read-only spreadsheet, no UI', () => {
    const emu = make(code);
    emu.range('A1').setValue('x');
    expect(emu.runCustomFunction('READ', [])).toBe('x');
    expect(() => emu.runCustomFunction('WRITE', [])).toThrow('You do not have permission to call setValue');
    expect(() => emu.runCustomFunction('SORT', [])).toThrow('You do not have permission to call sort');
    expect(() => emu.runCustomFunction('INSERT', [])).toThrow(
      'You do not have permission to call insertRowAfter',
    );
    expect(() => emu.runCustomFunction('UI', [])).toThrow(
      'Cannot call SpreadsheetApp.getUi() from this context.',
    );
  });

  test("getUserProperties is the owner's store; the active user is anonymous", () => {
    const emu = make(code, { users: { owner: 'owner@example.com', active: 'editor@example.com' } });
    emu.properties.owner.setProperty('apiKey', 'owner-key');
    emu.properties.user.setProperty('apiKey', 'editor-key');
    expect(emu.runCustomFunction('KEY', [])).toBe('owner-key');
    expect(emu.run('KEY')).toBe('editor-key');
    expect(emu.runCustomFunction('WHO', [])).toEqual(['', 'owner@example.com']);
  });

  test('the active range is the calling cell; names are case-insensitive', () => {
    const emu = make(code);
    expect(emu.runCustomFunction('here', [], { cell: { sheet: 'Sheet1', row: 3, col: 2 } })).toBe('B3');
  });
});
