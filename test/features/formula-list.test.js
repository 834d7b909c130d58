'use strict';
// A mailing list whose addresses are built with formulas (=LOWER(A2)&"@…"), as users build them: the
// emulator evaluates the common text formulas as Sheets does, so the add-on reads the
// addresses the cells show, not "no e-mail address".
const { useServices, control, newAddon, DEMO_KEYS } = require('../support/harness');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

test('addresses computed by text formulas are sent to as the cells show them', async () => {
  emu = newAddon(services);
  const sheet = emu.spreadsheet.insertSheet('List');
  sheet.getRange('A1:C3').setValues([
    ['First', 'Company', 'Email'],
    ['Ann', 'Acme Corp', ''],
    ['  BOB ', 'Globex', ''],
  ]);
  emu.setFormula('List!C2', '=LOWER(TRIM(A2))&"@"&SUBSTITUTE(LOWER(B2)," ","")&".example.com"');
  emu.setFormula('List!C3', '=CONCATENATE(LOWER(TRIM(A3)), "@", LOWER(B3), ".example.com")');
  emu.recalculate();
  emu.spreadsheet.setActiveSheet(sheet);
  emu.run('saveTemplate', [{ campaign: 'C', subject: 'Hi {{First}}', body: 'Hello', bodyFormat: 'text' }], {
    kind: 'webapp',
  });
  emu.run('sendAllUnsentRows', [], { kind: 'menu' });
  const { mails } = await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${DEMO_KEYS.paid}`);
  expect(mails.map((m) => m.recipientEmail).sort()).toEqual([
    'ann@acmecorp.example.com',
    'bob@globex.example.com',
  ]);
  expect(sheet.getRange('C2').getFormula()).toMatch(/^=LOWER/); // the formulas stay
});
