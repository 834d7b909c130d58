'use strict';
// Through the built bundle: a full document store is a clear message, never a loss, and the
// add-on can free its own space (its caches), after a confirmation that says what that costs.
const { useServices, newAddon, control, DEMO_KEYS } = require('../support/harness');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

/** Another add-on's (or script's) data: the document store filled to within `leftBytes` of 500 KB. */
function fillWithOtherData(leftBytes) {
  const store = emu.properties.document;
  let i = 0;
  for (; store.bytes < 512_000 - leftBytes - 9000; i++) store.setProperty(`other.${i}`, 'x'.repeat(9000));
  store.setProperty(`other.${i}`, 'x'.repeat(512_000 - leftBytes - store.bytes - `other.${i}`.length));
}

function mailingList(n) {
  const sheet = emu.spreadsheet.insertSheet('Outreach');
  const rows = [['Name', 'Email'], ...Array.from({ length: n }, (_, i) => [`P${i}`, `p${i}@example.com`])];
  sheet.getRange(1, 1, rows.length, 2).setValues(rows);
  emu.spreadsheet.setActiveSheet(sheet);
  emu.run('saveTemplate', [{ campaign: 'C', subject: 'Hi {{Name}}', body: 'Hello', bodyFormat: 'text' }], {
    kind: 'webapp',
  });
}

test('a full store: the send says what to do in words, sends nothing; Free add-on storage drops the caches after saying what that costs', async () => {
  emu = newAddon(services);
  mailingList(3);
  // The add-on's own caches, and other data filling the rest.
  const cache = {};
  for (let i = 0; i < 16; i++)
    cache[`phoneResults.${i}`] = `+4915112345${String(i).padStart(3, '0')}=Rq5x2k`.repeat(300);
  emu.properties.document.setProperties(cache);
  fillWithOtherData(100);
  emu.ui.queue('YES');
  emu.run('sendAllUnsentRows', [], { kind: 'menu' });
  const said = emu.ui.alerts.at(-1).message;
  expect(said).toMatch(/add-on storage is full/);
  expect(said).toMatch(/Free add-on storage/);
  expect(said).not.toMatch(/exceeded the property storage quota/);
  expect(emu.fetchLog.filter((r) => r.url.includes('/emails/send'))).toHaveLength(0);
  const mails = (await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${DEMO_KEYS.paid}`)).mails;
  expect(mails).toHaveLength(0);

  emu.ui.queue('NO');
  emu.run('freeAddonStorage', [], { kind: 'menu' });
  const question = emu.ui.alerts.at(-1).message;
  expect(question).toMatch(/takes \d+ KB of the 500 KB/);
  expect(question).toMatch(
    /phone results .*: \d+ KB\. After this, a number checked before is paid for again/,
  );
  expect(emu.properties.document.getProperty('phoneResults.0')).not.toBeNull(); // "No" keeps them
  emu.ui.queue('YES');
  emu.run('freeAddonStorage', [], { kind: 'menu' });
  expect(Object.keys(emu.properties.document.toJSON()).some((k) => k.startsWith('phoneResults.'))).toBe(
    false,
  );
  expect(emu.ui.toasts.at(-1).message).toMatch(/Freed \d+ KB/);
  expect(emu.properties.document.getProperty('other.0')).not.toBeNull(); // other data is not ours to drop

  emu.ui.queue('YES');
  emu.run('sendAllUnsentRows', [], { kind: 'menu' });
  const rows = emu.spreadsheet.getSheetByName('Outreach').getDataRange().getValues();
  const status = rows[0].indexOf('Mail status');
  expect(rows.slice(1).map((r) => r[status])).toEqual(['Accepted', 'Accepted', 'Accepted']);
});

test('the menu has Free add-on storage', () => {
  emu = newAddon(services);
  expect(emu.ui.menu().items.map((i) => [i.caption, i.functionName])).toEqual(
    expect.arrayContaining([['Free add-on storage', 'freeAddonStorage']]),
  );
});
