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
    message: 'Sent 2 e-mails, 2 skipped (campaign "Outcome"). 2 e-mail credits (EDM) used.',
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
