'use strict';
// "Send to all unsent rows…" from the compose dialog answers how the send ended (sent, not sent,
// skipped, EDM used) for the dialog to show, instead of a toast hidden behind it.
const { useServices, newAddon } = require('../support/harness');
const { listWithMail } = require('../support/sent-mail');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

function makeList(rows) {
  const template = {
    campaign: 'Outcome',
    subject: 'Hi {{Name}}',
    body: 'Hello {{Name}}',
    bodyFormat: 'text',
  };
  listWithMail(emu, 'Outreach', rows, template);
}

test('a send that ends at once answers its outcome to the compose dialog, and no toast is shown', () => {
  emu = newAddon(services);
  makeList([
    ['Name', 'Email'],
    ['Jane', 'jane@example.com'],
    ['Bob', 'bob@example.com'],
    ['No address', ''],
    ['Bad', 'not-an-address'],
  ]);
  const outcome = emu.run('sendAllUnsentRows', [], { kind: 'webapp' });
  expect(outcome).toEqual({
    message:
      'Sent 2 e-mails, 2 skipped (campaign "Outcome"). 2 e-mail credits (EDM) used. Each row\'s Mail status, Task ID, Mail ID and Sent at: columns C–F of "Outreach".',
  });
  expect(emu.ui.toasts).toEqual([]);
  expect(emu.ui.alerts.map((a) => a.title)).toEqual(['Send e-mails']); // the confirmation only
});

test('a send declined at the confirmation answers nothing (the dialog stays as it was)', () => {
  emu = newAddon(services);
  makeList([
    ['Name', 'Email'],
    ['Jane', 'jane@example.com'],
  ]);
  emu.ui.queue('NO');
  expect(emu.run('sendAllUnsentRows', [], { kind: 'webapp' })).toBeNull();
  expect(emu.fetchLog.filter((r) => r.url.endsWith('/send/personalized'))).toHaveLength(0);
});

test('on a wide list the end names the columns the results went to, and selects them: the sheet scrolls there', () => {
  emu = newAddon(services);
  const headers = ['Company', 'Name', 'First name', 'Last name', 'Title', 'Department', 'Seniority', 'Email'];
  const more = ['LinkedIn', 'Country', 'City', 'Industry', 'Phone'];
  const person = (name, email) => [...headers.map((h) => `${h} of ${name}`).slice(0, -1), email, ...more];
  makeList([[...headers, ...more], person('Jane', 'jane@example.com'), person('Bob', 'bob@example.com')]);
  emu.spreadsheet.getSheetByName('Outreach').getRange('B2:C3').activate();
  const outcome = emu.run('sendAllUnsentRows', [], { kind: 'webapp' });
  expect(outcome.message).toMatch(
    / Each row's Mail status, Task ID, Mail ID and Sent at: columns N–Q of "Outreach"\.$/,
  );
  expect(emu.spreadsheet.getActiveRange().getA1Notation()).toBe('N2:Q3'); // the rows selected, those columns
  // Sent again: nothing to send, and the selection stays where the user put it.
  emu.spreadsheet.getSheetByName('Outreach').getRange('B2').activate();
  emu.run('sendAllUnsentRows', [], { kind: 'webapp' });
  expect(emu.spreadsheet.getActiveRange().getA1Notation()).toBe('B2');
});
