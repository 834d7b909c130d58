'use strict';
// The add-on UI: menus, alerts and prompts answered by the test, sidebars and dialogs recorded with their
// evaluated HTML, HtmlService templates and toasts.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { AppsScriptEmulator } = require('.');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-html-'));
fs.writeFileSync(path.join(dir, 'Plain.html'), '<p>plain</p>');
fs.writeFileSync(
  path.join(dir, 'Page.html'),
  '<h1><?= title ?></h1><? for (var i = 0; i < items.length; i++) { ?><li><?= items[i] ?></li><? } ?><?!= include_("Part") ?>',
);
fs.writeFileSync(path.join(dir, 'Part.html'), '<footer>part</footer>');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const CODE = `
  function onOpen(e) {
    SpreadsheetApp.getUi().createAddonMenu()
      .addItem('Search…', 'showSearch')
      .addSeparator()
      .addSubMenu(SpreadsheetApp.getUi().createMenu('More').addItem('Settings', 'showSettings'))
      .addToUi();
  }
  function include_(name) { return HtmlService.createHtmlOutputFromFile(name).getContent(); }
  function showSearch() {
    var t = HtmlService.createTemplateFromFile('Page');
    t.title = 'Acme <Corp> & "Co"';
    t.items = ['a', '<b>'];
    SpreadsheetApp.getUi().showSidebar(t.evaluate().setTitle('Search').setWidth(300));
  }
  function showDialog() {
    SpreadsheetApp.getUi().showModalDialog(HtmlService.createHtmlOutputFromFile('Plain').setWidth(400).setHeight(200), 'Confirm');
  }
  function missing() { HtmlService.createHtmlOutputFromFile('Nope'); }
  function confirmCost(n) {
    var ui = SpreadsheetApp.getUi();
    var b = ui.alert('Unlock', 'Unlock ' + n + ' rows for ' + n + ' points?', ui.ButtonSet.YES_NO);
    return b === ui.Button.YES ? 'go' : String(b);
  }
  function ask() {
    var ui = SpreadsheetApp.getUi();
    var r = ui.prompt('API key', 'Paste your key', ui.ButtonSet.OK_CANCEL);
    return [String(r.getSelectedButton()), r.getResponseText(), r.getSelectedButton() === ui.Button.OK];
  }
  function info() { return String(SpreadsheetApp.getUi().alert('Done')); }
  function toast() { SpreadsheetApp.getActiveSpreadsheet().toast('3 rows unlocked', 'Outreach', 5); }`;

const make = () => new AppsScriptEmulator({ code: CODE, htmlDir: dir, addonName: 'Outreach' });

test('menus are recorded with captions and function names', () => {
  const emu = make();
  emu.open({ authMode: 'NONE' });
  expect(emu.ui.menu()).toEqual({
    name: 'Outreach',
    addon: true,
    items: [
      { caption: 'Search…', functionName: 'showSearch' },
      { separator: true },
      {
        caption: 'More',
        submenu: {
          name: 'More',
          addon: false,
          items: [{ caption: 'Settings', functionName: 'showSettings' }],
        },
      },
    ],
  });
  emu.open({ authMode: 'FULL' });
  expect(emu.ui.menus).toHaveLength(1);
});

test('alerts: queued answers, a responder, then the default', () => {
  const emu = make();
  expect(emu.run('confirmCost', [3])).toBe('go');
  emu.ui.queue('NO');
  expect(emu.run('confirmCost', [3])).toBe('NO');
  emu.ui.respond((req) => (req.message.includes('99') ? 'NO' : 'YES'));
  expect(emu.run('confirmCost', [99])).toBe('NO');
  expect(emu.run('confirmCost', [9])).toBe('go');
  emu.ui.respond(null);
  expect(emu.run('info')).toBe('OK');
  expect(emu.ui.alerts[0]).toMatchObject({
    title: 'Unlock',
    message: 'Unlock 3 rows for 3 points?',
    buttons: 'YES_NO',
    response: 'YES',
  });
  emu.ui.queue('CANCEL');
  expect(() => emu.run('confirmCost', [1])).toThrow('answer CANCEL is not a button of ButtonSet.YES_NO');
});

test('prompts return a PromptResponse', () => {
  const emu = make();
  emu.ui.queue({ button: 'OK', text: 'sk_live_123' });
  expect(emu.run('ask')).toEqual(['OK', 'sk_live_123', true]);
  emu.ui.queue('CANCEL');
  expect(emu.run('ask')).toEqual(['CANCEL', '', false]);
  expect(emu.ui.prompts[0]).toMatchObject({
    title: 'API key',
    message: 'Paste your key',
    text: 'sk_live_123',
  });
});

test('sidebars are recorded with title, width and the evaluated template', () => {
  const emu = make();
  emu.run('showSearch');
  expect(emu.ui.sidebar).toMatchObject({ type: 'sidebar', title: 'Search', width: 300 });
  expect(emu.ui.sidebar.html).toBe(
    '<h1>Acme &lt;Corp&gt; &amp; &quot;Co&quot;</h1><li>a</li><li>&lt;b&gt;</li><footer>part</footer>',
  );
  expect(emu.callCount('HtmlService.createHtmlOutputFromFile')).toBe(1);
  emu.run('showDialog');
  expect(emu.ui.dialog).toMatchObject({
    type: 'modal',
    title: 'Confirm',
    width: 400,
    height: 200,
    html: '<p>plain</p>',
  });
  expect(() => emu.run('missing')).toThrow('No HTML file named Nope was found.');
});

test('toasts are recorded', () => {
  const emu = make();
  emu.run('toast');
  expect(emu.ui.toasts).toEqual([
    { message: '3 rows unlocked', title: 'Outreach', timeoutSeconds: 5, shown: true, atMs: emu.clock.now() },
  ]);
});

test('HtmlService from the test side: createHtmlOutput and templates', () => {
  const emu = make();
  const { HtmlService } = emu.services;
  const out = HtmlService.createHtmlOutput('<b>x</b>').append('<i>y</i>').setTitle('T');
  expect([out.getContent(), out.getTitle()]).toEqual(['<b>x</b><i>y</i>', 'T']);
  const t = HtmlService.createTemplate('<?= a ?>|<?!= a ?>');
  t.a = '<&>';
  expect(t.evaluate().getContent()).toBe('&lt;&amp;&gt;|<&>');
  expect(String(HtmlService.SandboxMode.IFRAME)).toBe('IFRAME');
});
