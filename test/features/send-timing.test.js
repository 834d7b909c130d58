'use strict';
// Issue 37 through the built bundle, against the sandbox and its clock: a send window in each recipient's
// time zone (Time zone column, else Country, else the spreadsheet's), dates to skip, an hourly limit. The
// hourly trigger posts each waiting row in the first hour its recipient is inside the window, exactly once.
const { useServices, control, newAddon, DEMO_KEYS } = require('../support/harness');
const { listWithMail } = require('../support/sent-mail');
const { sendJournal } = require('../support/send-journal');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const HOUR = 3600_000;
const DAY = 24 * HOUR; // eslint-disable-line no-unused-vars
const sheet = (name) => emu.spreadsheet.getSheetByName(name);
const rowsOf = (name) => {
  const [header, ...rows] = sheet(name).getDataRange().getValues();
  return rows.map((row) => Object.fromEntries(header.map((h, c) => [h, row[c]])));
};
const byEmail = (name, column) => Object.fromEntries(rowsOf(name).map((r) => [r.Email, r[column]]));

async function mails() {
  return (await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${DEMO_KEYS.paid}`)).mails;
}

/** The clock moved on to the next Monday at `hour`:00 UTC (the suite's clock only goes forward). */
function startOnMonday(hour) {
  const now = services.clock.now();
  const day = new Date(now);
  const daysAhead = ((8 - day.getUTCDay()) % 7) + 7;
  services.clock.set(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + daysAhead, hour));
}

/** A mail's local weekday (1 = Monday) and minutes after midnight in `zone`. */
function localTime(ms, zone) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      weekday: 'short',
      hour: 'numeric',
      minute: 'numeric',
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday) + 1;
  return { weekday, minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

function send() {
  emu.ui.queue('YES');
  emu.run('sendAllUnsentRows', [], { kind: 'menu' });
  return emu.ui.alerts.find((a) => a.title === 'Send e-mails');
}

const WINDOW = { days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00', zone: 'recipient' };
const MAIL = { campaign: 'Timed', subject: 'Hello {{Name}}', body: 'Dear {{Name}}', bodyFormat: 'text' };

describe('Send window in the recipient time zone', () => {
  test('a list across four zones: nothing is posted outside its recipient window, each row once, the rows say when', async () => {
    startOnMonday(9); // 04:00 in New York, 10:00 in Berlin, 18:00 in Tokyo, 20:00 in Sydney
    emu = newAddon(services);
    const people = [
      ['Ann', 'ann@ny.com', 'US', ''],
      ['Ben', 'ben@ny.com', 'us', ''],
      ['Cai', 'cai@berlin.de', 'DE', ''],
      ['Dai', 'dai@tokyo.jp', '', 'Asia/Tokyo'],
      ['Eve', 'eve@sydney.au', 'US', 'Australia/Sydney'], // the Time zone column wins over the Country
      ['Fay', 'fay@nowhere.org', '', 'Not/A_Zone'], // neither: the spreadsheet's zone (Etc/UTC)
    ];
    listWithMail(emu, 'Leads', [['Name', 'Email', 'Country', 'Time zone'], ...people], {
      ...MAIL,
      sendWindow: WINDOW,
    });
    const zones = {
      'ann@ny.com': 'America/New_York',
      'ben@ny.com': 'America/New_York',
      'cai@berlin.de': 'Europe/Berlin',
      'dai@tokyo.jp': 'Asia/Tokyo',
      'eve@sydney.au': 'Australia/Sydney',
      'fay@nowhere.org': 'Etc/UTC',
    };
    const compose = emu.run('getComposeState', [], { kind: 'webapp' });
    expect(compose.timing.sendWindow).toEqual(WINDOW);
    expect(compose.timingNote).toMatch(/US span several time zones: their rows use the capital's/);

    const confirmation = send();
    expect(confirmation.message).toMatch(
      /When: 2 now, 2 from 09:00 Mon \d+ \w+ in America\/New_York, 1 from 09:00 Tue \d+ \w+ in Australia\/Sydney, 1 from 09:00 Tue \d+ \w+ in Asia\/Tokyo\./,
    );
    expect((await mails()).map((m) => m.recipientEmail).sort()).toEqual(['cai@berlin.de', 'fay@nowhere.org']);
    const status = byEmail('Leads', 'Mail status');
    expect(status['ann@ny.com']).toMatch(
      /^Waiting for its send window \(goes from 09:00 Mon \d+ \w+ in America\/New_York\)$/,
    );
    expect(status['dai@tokyo.jp']).toMatch(/in Asia\/Tokyo\)$/);
    expect(emu.triggers.filter((t) => t.eventType === 'CLOCK')).toHaveLength(1);

    for (let hour = 0; hour < 48; hour++) emu.advanceTime(HOUR);
    const all = await mails();
    expect(all.map((m) => m.recipientEmail).sort()).toEqual(Object.keys(zones).sort()); // each once
    for (const mail of all) {
      const { weekday, minutes } = localTime(Date.parse(mail.createdAt), zones[mail.recipientEmail]);
      expect({
        who: mail.recipientEmail,
        inside: weekday <= 5 && minutes >= 9 * 60 && minutes < 17 * 60,
      }).toEqual({
        who: mail.recipientEmail,
        inside: true,
      });
    }
    // Each waiting row went in the first hourly run inside its window: New York's before Sydney's before Tokyo's.
    const at = Object.fromEntries(all.map((m) => [m.recipientEmail, Date.parse(m.createdAt)]));
    expect(at['ann@ny.com']).toBeLessThan(at['eve@sydney.au']);
    expect(at['eve@sydney.au']).toBeLessThan(at['dai@tokyo.jp']);
    expect(localTime(at['ann@ny.com'], 'America/New_York').minutes).toBeLessThan(10 * 60);
    expect(Object.values(byEmail('Leads', 'Mail ID')).every((id) => typeof id === 'number')).toBe(true);
    expect(Object.keys(sendJournal(emu))).toEqual([]);
    expect(emu.executions.filter((e) => e.kind === 'trigger').every((e) => e.status === 'completed')).toBe(
      true,
    );
  });
});
