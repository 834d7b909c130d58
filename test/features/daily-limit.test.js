'use strict';
// Issue 46 item 2 through the built bundle, on the emulator's clock over simulated days: a list's daily limit and
// its ramp, as the confirmation states them, kept day by day by the hourly run; part of what the payer confirmed.
const { useServices, control, newAddon, DEMO_KEYS } = require('../support/harness');
const { listWithMail } = require('../support/sent-mail');
const { rowsOf } = require('../support/sheets');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const ANN = 'ann@example.com';
const MAIL = { campaign: 'Ramp', subject: 'Hello {{Name}}', body: 'Hi {{Name}},', bodyFormat: 'text' };

async function mails() {
  return (await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${DEMO_KEYS.paid}`)).mails;
}

const list = (n) => [
  ['Name', 'Email'],
  ...Array.from({ length: n }, (_, i) => [`P${i}`, `p${i}@example.com`]),
];
const statuses = () => rowsOf(emu, 'Leads').map((r) => r['Mail status']);

function send() {
  emu.ui.queue('YES');
  emu.run('sendAllUnsentRows', [], { kind: 'menu' });
  return emu.ui.alerts.find((a) => a.title === 'Send e-mails');
}

/** The mails per day, counted from the first mail's time. */
function perDay(all) {
  const times = all.map((m) => Date.parse(m.createdAt));
  const first = Math.min(...times);
  const days = [];
  for (const t of times) {
    const day = Math.floor((t - first) / DAY);
    days[day] = (days[day] || 0) + 1;
  }
  return Array.from(days, (n) => n || 0);
}

describe('The daily limit and its ramp', () => {
  test('300 mails at 50 a day rising 20 % a day: the confirmation states 5 days, and the hourly runs keep it', async () => {
    emu = newAddon(services, { users: { owner: ANN, active: ANN } });
    listWithMail(emu, 'Leads', list(300), { ...MAIL, dailyLimit: 50, dailyRamp: 20 });
    expect(send().message).toContain(
      'Daily limit: 300 mails: about 5 days at 50 a day rising 20 % a day (first mails and follow-ups together',
    );
    expect(await mails()).toHaveLength(50);
    const waiting = statuses().filter((s) =>
      /^Waiting for the daily limit \(50 today from this list; the next go from \d\d:\d\d /.test(s),
    );
    expect(waiting).toHaveLength(250);
    // The summary's health: still sending, the last mail about 4 days on; the day's mails on the per-day sheet.
    services.clock.advance(60_000);
    emu.run('refreshTracking', [], { kind: 'menu' });
    const campaign = rowsOf(emu, 'Tracking summary', 8).find((r) => r.Campaign === 'Ramp');
    const last = new Date(services.clock.now() + 4 * DAY).toISOString().slice(0, 10);
    expect(campaign).toMatchObject({ Delivered: 50, Sending: `Sending: the last mail about ${last}` });
    const days = rowsOf(emu, 'Tracking per day');
    expect(days).toHaveLength(30);
    expect(days.at(-1)).toEqual({
      'Day (UTC)': new Date(Math.floor(services.clock.now() / DAY) * DAY),
      Delivered: 50,
      Failed: 0,
      Opened: 0,
    });
    expect(emu.spreadsheet.getSheetByName('Tracking per day').getCharts()).toHaveLength(1);
    for (let hour = 0; hour < 5 * 24 && (await mails()).length < 300; hour++) emu.advanceTime(HOUR);
    const all = await mails();
    expect(all).toHaveLength(300);
    expect(new Set(all.map((m) => m.recipientEmail)).size).toBe(300);
    expect(perDay(all)).toEqual([50, 60, 72, 87, 31]); // each day's cap: the last one's, 20 % up
  });

  test("another editor's change of the daily limit holds the list: nothing more goes", async () => {
    emu = newAddon(services, { users: { owner: ANN, active: ANN } });
    listWithMail(emu, 'Leads', list(40), { ...MAIL, dailyLimit: 10 });
    send();
    expect(await mails()).toHaveLength(10);
    const raised = { ...MAIL, dailyLimit: 1000 };
    emu.run('saveTemplate', [raised], { kind: 'webapp', user: 'bob@example.com' });
    emu.advanceTime(2 * DAY);
    expect(await mails()).toHaveLength(10);
    const held = statuses().filter((s) => s.startsWith('Held until the sender reviews the mail'));
    expect(held).toHaveLength(30);
  });

  test('Compose refuses a ramp without a daily limit', () => {
    emu = newAddon(services, { users: { owner: ANN, active: ANN } });
    listWithMail(emu, 'Leads', list(2), MAIL);
    expect(() => emu.run('saveTemplate', [{ ...MAIL, dailyRamp: 10 }], { kind: 'webapp' })).toThrow(
      'A daily ramp starts from a daily limit: set the daily limit too.',
    );
  });
});
