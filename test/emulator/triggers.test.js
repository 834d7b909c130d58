'use strict';
// ScriptApp triggers with the add-on rules, fired on the virtual clock.
const { AppsScriptEmulator } = require('.');

const HOUR = 3600000;
const CODE = `
  function hourly() { return ScriptApp.newTrigger('refresh').timeBased().everyHours(1).create().getUniqueId(); }
  function minutes() { ScriptApp.newTrigger('refresh').timeBased().everyMinutes(5).create(); }
  function soon(ms) { return ScriptApp.newTrigger('refresh').timeBased().after(ms).create().getUniqueId(); }
  function daily() { ScriptApp.newTrigger('refresh').timeBased().atHour(6).everyDays(1).create(); }
  function onOpenTrigger() { ScriptApp.newTrigger('opened').forSpreadsheet(SpreadsheetApp.getActive()).onOpen().create(); }
  function list() {
    return ScriptApp.getProjectTriggers().map(function (t) {
      return [t.getHandlerFunction(), String(t.getEventType()), String(t.getTriggerSource()), t.getUniqueId()];
    });
  }
  function userList() { return ScriptApp.getUserTriggers(SpreadsheetApp.getActive()).length; }
  function removeAll() { ScriptApp.getProjectTriggers().forEach(function (t) { ScriptApp.deleteTrigger(t); }); }
  function refresh(e) {
    var p = PropertiesService.getDocumentProperties();
    p.setProperty('runs', String(Number(p.getProperty('runs') || 0) + 1));
    p.setProperty('last', JSON.stringify({ mode: String(e.authMode), full: e.authMode === ScriptApp.AuthMode.FULL, uid: e.triggerUid, hour: e.hour }));
  }
  function opened(e) { SpreadsheetApp.getUi().createMenu('Opened').addItem('x', 'x').addToUi(); }
  function uiFromClock() { SpreadsheetApp.getUi().alert('hi'); }
  function broken() { throw new Error('API down'); }`;

const make = (opts) => new AppsScriptEmulator({ code: CODE, ...opts });

test('a time-driven trigger is recorded and fires as a trigger execution with an event', () => {
  const emu = make();
  const id = emu.run('hourly');
  expect(emu.run('list')).toEqual([['refresh', 'CLOCK', 'CLOCK', id]]);
  expect(emu.triggers[0]).toMatchObject({
    handler: 'refresh',
    eventType: 'CLOCK',
    user: 'owner@example.com',
  });
  expect(emu.fireDueTriggers()).toEqual([]);
  const fired = emu.advanceTime(3 * HOUR);
  expect(fired.map((f) => f.status)).toEqual(['completed', 'completed', 'completed']);
  expect(emu.properties.document.getProperty('runs')).toBe('3');
  expect(JSON.parse(emu.properties.document.getProperty('last'))).toEqual({
    mode: 'FULL',
    full: true,
    uid: id,
    hour: 12,
  });
  expect(emu.executions.filter((e) => e.kind === 'trigger')).toHaveLength(3);
});

test('add-on rules: no everyMinutes, at most one time-driven trigger per user per document', () => {
  const emu = make();
  expect(() => emu.run('minutes')).toThrow(
    'Add-ons can only create time-based triggers that run at most once per hour.',
  );
  emu.run('hourly');
  expect(() => emu.run('hourly')).toThrow(
    'This add-on has created too many time-based triggers in this document for this Google user account.',
  );
  emu.setActiveUser('other@example.com');
  expect(() => emu.run('hourly')).not.toThrow();
  expect(emu.run('list')).toHaveLength(1);
  expect(emu.run('userList')).toBe(1);
  expect(emu.triggers).toHaveLength(2);
  emu.run('onOpenTrigger');
  expect(() => emu.run('onOpenTrigger')).toThrow(/too many triggers/);
});

test('after(ms) sooner than an hour fires no earlier than one hour later; one-off triggers stay listed', () => {
  const emu = make();
  const t0 = emu.clock.now();
  emu.run('soon', [60000]);
  expect(emu.triggers[0].nextRunMs).toBe(t0 + HOUR);
  expect(emu.advanceTime(HOUR - 1)).toEqual([]);
  expect(emu.advanceTime(1)).toHaveLength(1);
  expect(emu.advanceTime(10 * HOUR)).toEqual([]);
  expect(emu.run('list')).toHaveLength(1);
  expect(() => emu.run('soon', [HOUR])).toThrow(/too many time-based triggers/);
  emu.run('removeAll');
  expect(emu.triggers).toEqual([]);
  emu.run('soon', [2 * HOUR]);
  expect(emu.triggers[0].nextRunMs).toBe(emu.clock.now() + 2 * HOUR);
});

test('atHour().everyDays() fires at that hour of the script time zone', () => {
  const emu = make({ timeZone: 'America/New_York' });
  emu.run('daily');
  expect(new Date(emu.triggers[0].nextRunMs).toISOString()).toBe('2026-01-05T11:00:00.000Z'); // 06:00 in New York
  expect(emu.advanceTime(3 * 24 * HOUR)).toHaveLength(3);
});

test('trigger failures are returned, not thrown, and the UI is unavailable to a clock trigger', () => {
  const emu = make();
  emu.triggers.length = 0;
  emu._triggers.create({
    handler: 'broken',
    eventType: 'CLOCK',
    user: emu.users.active,
    documentId: 'x',
    schedule: { kind: 'after', ms: 0 },
  });
  const [out] = emu.advanceTime(HOUR);
  expect(out).toMatchObject({ handler: 'broken', status: 'failed', error: 'API down' });
  expect(emu.executions.at(-1)).toMatchObject({ kind: 'trigger', status: 'failed' });
  expect(() => emu.run('uiFromClock', [], { kind: 'trigger' })).toThrow(
    'Cannot call SpreadsheetApp.getUi() from this context.',
  );
});

test('installable onOpen triggers fire with a source and may use the UI', () => {
  const emu = make();
  emu.run('onOpenTrigger');
  const t = emu.triggers.find((x) => x.eventType === 'ON_OPEN');
  expect(emu.fireTrigger(t).status).toBe('completed');
  expect(emu.ui.menu('Opened').items).toEqual([{ caption: 'x', functionName: 'x' }]);
});

test('triggers need AuthMode.FULL', () => {
  const emu = make();
  expect(() => emu.run('hourly', [], { kind: 'simple', authMode: 'LIMITED' })).toThrow(
    'You do not have permission to call ScriptApp.newTrigger. Required permissions: https://www.googleapis.com/auth/script.scriptapp',
  );
  expect(() => emu.runCustomFunction('list', [])).toThrow(
    'You do not have permission to call ScriptApp.getProjectTriggers',
  );
});

test('a clock trigger reaches the document it was made in under spreadsheets.currentonly, without UI', () => {
  // Google: installable triggers of an editor add-on run in AuthMode.FULL, which has access to the
  // document; currentonly covers the files the add-on is used in; openById needs the full scope.
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-'));
  fs.writeFileSync(
    path.join(dir, 'appsscript.json'),
    JSON.stringify({
      oauthScopes: [
        'https://www.googleapis.com/auth/spreadsheets.currentonly',
        'https://www.googleapis.com/auth/script.scriptapp',
      ],
    }),
  );
  const emu = new AppsScriptEmulator({
    htmlDir: dir,
    code: `${CODE}
      function reach(e) {
        var ss = SpreadsheetApp.getActiveSpreadsheet();
        ss.getSheets()[0].getRange('A1').setValue('refreshed');
        var other = '';
        try { SpreadsheetApp.openById('another-file'); } catch (err) { other = err.message; }
        var ui = '';
        try { SpreadsheetApp.getUi(); } catch (err) { ui = err.message; }
        return { id: ss.getId(), mode: String(e.authMode), doc: PropertiesService.getDocumentProperties().getProperty('d'), other: other, ui: ui };
      }
      function hourlyReach() { ScriptApp.newTrigger('reach').timeBased().everyHours(1).create(); }`,
  });
  emu.properties.document.setProperty('d', 'document state');
  emu.run('hourlyReach');
  const [run] = emu.advanceTime(HOUR);
  expect(run.status).toBe('completed');
  expect(run.result).toEqual({
    id: emu.spreadsheet.getId(),
    mode: 'FULL',
    doc: 'document state',
    other: expect.stringContaining('https://www.googleapis.com/auth/spreadsheets'),
    ui: 'Cannot call SpreadsheetApp.getUi() from this context.',
  });
  expect(emu.spreadsheet.getSheets()[0].getRange('A1').getValue()).toBe('refreshed');
});
