'use strict';
// Issue 37 through the built bundle, against the sandbox and its clock: a send window in each recipient's
// time zone (Time zone column, else Country, else the spreadsheet's), dates to skip, an hourly limit. The
// hourly trigger posts each waiting row in the first hour its recipient is inside the window, exactly once.
const { useServices, control, newAddon, DEMO_KEYS } = require('../support/harness');
const { listWithMail, topUpEdm } = require('../support/sent-mail');
const crypto = require('node:crypto');
const { sendJournal } = require('../support/send-journal');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const sheet = (name) => emu.spreadsheet.getSheetByName(name);
const rowsOf = (name) => {
  const [header, ...rows] = sheet(name).getDataRange().getValues();
  return rows.map((row) => Object.fromEntries(header.map((h, c) => [h, row[c]])));
};
const byEmail = (name, column) => Object.fromEntries(rowsOf(name).map((r) => [r.Email, r[column]]));

async function mails() {
  return (await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${DEMO_KEYS.paid}`)).mails;
}

/** The clock moved on to a coming `weekday` (1 = Monday) at `hour`:00 UTC (the suite's clock only goes forward). */
function startOn(weekday, hour) {
  const day = new Date(services.clock.now());
  const daysAhead = ((weekday - day.getUTCDay() + 7) % 7) + 7;
  const at = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + daysAhead, hour);
  services.clock.set(at);
  return at;
}
const isoDate = (ms) => new Date(ms).toISOString().slice(0, 10);

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
    startOn(4, 9); // Thursday: 04:00 in New York, 10:00 in Berlin, 18:00 in Tokyo, 20:00 in Sydney
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
      followUps: [{ afterDays: 1, body: 'Again, {{Name}}.' }], // due on Saturday for some: waits for Monday
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
    expect(compose.timingNote).toMatch(/US spans several time zones: their rows use the capital's/);

    const confirmation = send();
    expect(confirmation.message).toMatch(
      /When: 2 now, 2 from 09:00 Thu \d+ \w+ in America\/New_York, 1 from 09:00 Fri \d+ \w+ in Australia\/Sydney, 1 from 09:00 Fri \d+ \w+ in Asia\/Tokyo\./,
    );
    expect((await mails()).map((m) => m.recipientEmail).sort()).toEqual(['cai@berlin.de', 'fay@nowhere.org']);
    const status = byEmail('Leads', 'Mail status');
    expect(status['ann@ny.com']).toMatch(
      /^Waiting for its send window \(goes from 09:00 Thu \d+ \w+ in America\/New_York\)$/,
    );
    expect(status['dai@tokyo.jp']).toMatch(/in Asia\/Tokyo\)$/);
    expect(emu.triggers.filter((t) => t.eventType === 'CLOCK')).toHaveLength(1);
    expect(emu.ui.alerts.at(-1).message).toMatch(
      /Sent 2 e-mails, 4 to go[^]*4 e-mails wait for the recipient's send window \(the first from 09:00 Thu \d+ \w+ in America\/New_York\): the hourly run sends each of them once, in its time\./,
    );

    for (let hour = 0; hour < 6 * 24; hour++) emu.advanceTime(HOUR);
    const all = await mails();
    const first = all.filter((m) => m.subject.startsWith('Hello'));
    const steps = all.filter((m) => m.subject.startsWith('Re: '));
    expect(first.map((m) => m.recipientEmail).sort()).toEqual(Object.keys(zones).sort()); // each once
    expect(steps.map((m) => m.recipientEmail).sort()).toEqual(Object.keys(zones).sort());
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
    const at = Object.fromEntries(first.map((m) => [m.recipientEmail, Date.parse(m.createdAt)]));
    // A step that fell due on Saturday went on Monday, in its window.
    const tokyoStep = steps.find((m) => m.recipientEmail === 'dai@tokyo.jp');
    expect(localTime(Date.parse(tokyoStep.createdAt), 'Asia/Tokyo').weekday).toBe(1);
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

describe('Dates to skip', () => {
  test('a send started on a date to skip goes the next day; a step never falls on one', async () => {
    const monday = startOn(1, 9);
    emu = newAddon(services);
    const skipDates = [isoDate(monday), isoDate(monday + 2 * DAY)]; // Monday and Wednesday
    const people = [1, 2, 3].map((i) => [`P${i}`, `p${i}@example.com`]);
    listWithMail(emu, 'Leads', [['Name', 'Email'], ...people], {
      ...MAIL,
      skipDates,
      followUps: [{ afterDays: 1, body: 'Again, {{Name}}.' }],
    });
    expect(emu.run('getComposeState', [], { kind: 'webapp' }).timing.skipDates).toEqual(skipDates);
    const confirmation = send();
    expect(confirmation.message).toMatch(/When: 0 now, 3 from 00:00 Tue \d+ \w+ in Etc\/UTC\./);
    expect(await mails()).toEqual([]);
    expect(byEmail('Leads', 'Mail status')['p1@example.com']).toMatch(
      /^Waiting for its send window \(goes from 00:00 Tue/,
    );
    for (let hour = 0; hour < 5 * 24; hour++) emu.advanceTime(HOUR);
    const all = await mails();
    const days = (subject) =>
      new Set(all.filter((m) => m.subject.startsWith(subject)).map((m) => new Date(m.createdAt).getUTCDay()));
    expect(all).toHaveLength(6);
    expect(days('Hello')).toEqual(new Set([2])); // Tuesday
    expect(days('Re: ')).toEqual(new Set([4])); // due Wednesday, a date to skip: Thursday
    expect(byEmail('Leads', 'Sequence')['p1@example.com']).toMatch(/^Finished: step 1 of 1 sent /);
  });

  test('a date that is not one is refused with what to write', () => {
    emu = newAddon(services);
    listWithMail(
      emu,
      'Leads',
      [
        ['Name', 'Email'],
        ['Ann', 'ann@example.com'],
      ],
      MAIL,
    );
    expect(() =>
      emu.run('saveTemplate', [{ ...MAIL, skipDates: ['24/12/2026'] }], { kind: 'webapp' }),
    ).toThrow(/"24\/12\/2026" is not a date to skip: write dates as YYYY-MM-DD/);
  });
});

describe('Hourly limit', () => {
  test('at most N mails an hour from the list, first mails and steps together; the rows waiting say so', async () => {
    startOn(5, 15); // Friday 15:00 UTC: two hours of the window left
    emu = newAddon(services);
    const people = Array.from({ length: 25 }, (_, i) => [`P${i}`, `p${i}@example.com`]);
    listWithMail(emu, 'Leads', [['Name', 'Email'], ...people], {
      ...MAIL,
      hourlyLimit: 10,
      sendWindow: { ...WINDOW, zone: 'spreadsheet' },
      followUps: [{ afterDays: 1, body: 'Again, {{Name}}.' }], // due on Saturday: all wait for Monday 09:00
    });
    const confirmation = send();
    expect(confirmation.message).toMatch(
      /Hourly limit: 10 mails an hour from this list .*take at least 3 sending hours, over about 3 days: the last go about 09:00 Mon /,
    );
    expect(await mails()).toHaveLength(10);
    const status = () => Object.values(byEmail('Leads', 'Mail status'));
    const paced = /^Waiting for the hourly limit \(10 an hour from this list; the next go from 16:00\)$/;
    expect(status().filter((s) => paced.test(s))).toHaveLength(15);
    emu.advanceTime(2 * HOUR); // 16:00 posts 10; at 17:00 the window is closed
    expect(await mails()).toHaveLength(20);
    expect(status().filter((s) => /^Waiting for its send window \(goes from 09:00 Mon/.test(s))).toHaveLength(
      5,
    );

    emu.advanceTime(64 * HOUR + 1000); // Monday 09:00: 5 first mails and 20 steps due, 10 go
    expect(await mails()).toHaveLength(30);
    const sequence = Object.values(byEmail('Leads', 'Sequence'));
    expect(
      sequence.filter((s) => /waits: the list's hourly limit \(10 an hour\) is reached/.test(s)),
    ).toHaveLength(15);

    for (let hour = 0; hour < 30; hour++) emu.advanceTime(HOUR);
    const all = await mails();
    expect(all).toHaveLength(50); // each first mail and step once
    const perHour = new Map();
    for (const m of all) {
      const hour = Math.floor(Date.parse(m.createdAt) / HOUR);
      perHour.set(hour, (perHour.get(hour) || 0) + 1);
    }
    expect(Math.max(...perHour.values())).toBe(10);
    for (const m of all) expect(localTime(Date.parse(m.createdAt), 'Etc/UTC').weekday).not.toBeGreaterThan(5);
    expect(Object.keys(sendJournal(emu))).toEqual([]);
  });

  test("a list longer than a send's unit (6,000 rows) posts each hour in the fewest chunks: none ends at the unit's edge", async () => {
    await topUpEdm(services, 8000);
    emu = newAddon(services);
    const people = Array.from({ length: 8000 }, (_, i) => [`P${i}`, `p${i}@example.com`]);
    listWithMail(emu, 'Leads', [['Name', 'Email'], ...people], { ...MAIL, hourlyLimit: 2270 });
    send();
    // 2,270 an hour: the third hour takes the unit's last 1,460 rows and 810 of the next unit's.
    for (let hour = 0; hour < 4; hour++) emu.advanceTime(HOUR);
    const all = await mails();
    expect(new Set(all.map((m) => m.recipientEmail)).size).toBe(8000);
    const hours = new Map();
    for (const m of all) {
      const hour = Math.floor(Date.parse(m.createdAt) / HOUR);
      if (!hours.has(hour)) hours.set(hour, { mails: 0, tasks: new Set() });
      hours.get(hour).mails++;
      hours.get(hour).tasks.add(m.taskId); // a task per request here
    }
    expect([...hours.values()].map((h) => [h.mails, h.tasks.size])).toEqual([
      [2270, 23],
      [2270, 23],
      [2270, 23],
      [1190, 12],
    ]);
  });

  test("a send scheduled for later asks first, and its pace counts only the window's hours on days not skipped", async () => {
    const monday = startOn(1, 8); // the send is scheduled on Sunday evening for Monday 08:00
    services.clock.set(monday - 12 * HOUR);
    emu = newAddon(services);
    const people = Array.from({ length: 120 }, (_, i) => [`P${i}`, `p${i}@example.com`]);
    listWithMail(emu, 'Leads', [['Name', 'Email'], ...people], {
      ...MAIL,
      hourlyLimit: 10,
      sendWindow: { ...WINDOW, zone: 'spreadsheet' },
      skipDates: [isoDate(monday + DAY)], // Tuesday
    });
    emu.ui.queue('YES');
    const answer = emu.run('scheduleSend', [new Date(monday).toISOString().slice(0, 16)], { kind: 'webapp' });
    const question = emu.ui.alerts.at(-1);
    expect(question).toMatchObject({ title: 'Schedule a send', response: 'YES' });
    expect(question.message).toMatch(
      /Cost: 120 e-mail credits \(EDM, 1 per e-mail\)\.\nUsable e-mail credits \(EDM\): [\d,]+/,
    );
    expect(question.message).toMatch(/When: 0 at the start, 120 from 09:00 Mon /);
    // 8 runs on Monday (09:00 to 16:00), none on Tuesday, 4 on Wednesday: the last at 12:00.
    const [, dd, mon] = new Date(monday + 2 * DAY).toUTCString().split(' '); // "Wed, 14 Jan 2026 …"
    expect(question.message).toContain(
      `Hourly limit: 10 mails an hour from this list (follow-ups included): these 120 take at least 12 sending hours, over about 2 days: the last go about 12:00 Wed ${Number(dd)} ${mon} (Etc/UTC).`,
    );
    expect(answer.scheduled).toBe(true);
    for (let hour = 0; hour < 4 * 24 && (await mails()).length < 120; hour++) emu.advanceTime(HOUR);
    const all = await mails();
    expect(all).toHaveLength(120);
    const last = Math.max(...all.map((m) => Date.parse(m.createdAt)));
    expect(localTime(last, 'Etc/UTC').weekday).toBe(3); // Wednesday, as the question said
    expect(all.filter((m) => localTime(Date.parse(m.createdAt), 'Etc/UTC').weekday === 2)).toEqual([]);
  });
});

describe('A send whose rows wait for the hourly limit, and a new send', () => {
  const waitingList = (name, n, from = 0) => {
    const people = Array.from({ length: n }, (_, i) => [`P${from + i}`, `p${from + i}@example.com`]);
    listWithMail(emu, name, [['Name', 'Email'], ...people], { ...MAIL, hourlyLimit: 10 });
  };
  /** Another list with one row, selected: what "Send e-mails to selected rows" is asked for. */
  const selectOtherList = () => {
    listWithMail(
      emu,
      'Other',
      [
        ['Name', 'Email'],
        ['Zed', 'zed@example.com'],
      ],
      MAIL,
    );
    emu.select('Other!A2:B2');
  };
  const waiting = (name) =>
    Object.values(byEmail(name, 'Mail status')).filter((s) => /^Waiting for the hourly limit/.test(s));

  test('is not an interrupted send: Yes keeps it waiting and the hourly run sends it; nothing says a dialog closed', async () => {
    emu = newAddon(services);
    waitingList('Leads', 25);
    send(); // 10 go, 15 wait
    emu.advanceTime(HOUR); // the hourly run posts 10 more
    expect(await mails()).toHaveLength(20);
    expect(waiting('Leads')).toHaveLength(5);
    selectOtherList();
    const before = emu.ui.alerts.length;
    emu.ui.queue('YES');
    emu.run('sendSelectedRows', [], { kind: 'menu' });
    const asked = emu.ui.alerts.slice(before);
    expect(asked.map((a) => a.title)).toEqual(['A send is waiting']); // no "what happened after the dialog closed"
    expect(asked[0].message).toMatch(
      /^Your send from "Leads" \(campaign "Timed"\) has 5 e-mails left: 5 e-mails wait for the hourly limit \(10 an hour from this list\)/,
    );
    expect(asked[0].message).toMatch(/Cost as they go: at most 5 e-mail credits/);
    expect(asked[0].message).toMatch(/\nYes: they stay queued and go as planned; nothing else is sent now\./);
    expect(waiting('Leads')).toHaveLength(5);
    expect(byEmail('Other', 'Mail status')['zed@example.com']).toBeUndefined(); // nothing planned there
    emu.advanceTime(HOUR);
    expect(await mails()).toHaveLength(25);
    expect(waiting('Leads')).toHaveLength(0);
  });

  test('No cancels the waiting rows knowingly: their Mail status and the summary say so, and the new send goes', async () => {
    emu = newAddon(services);
    waitingList('Leads', 15, 100);
    send(); // 10 go, 5 wait
    selectOtherList();
    emu.ui.queue('NO', 'YES');
    emu.run('sendSelectedRows', [], { kind: 'menu' });
    expect(emu.ui.alerts.map((a) => a.title).slice(-2)).toEqual(['A send is waiting', 'Send e-mails']);
    expect(emu.ui.alerts.at(-2).message).toMatch(
      /\nNo: the 5 e-mails waiting are cancelled \(not sent; their Mail status says so\), and this action goes on\./,
    );
    const statuses = Object.values(byEmail('Leads', 'Mail status'));
    expect(
      statuses.filter((s) => s === 'Not sent: the waiting send was cancelled when you started another'),
    ).toHaveLength(5);
    expect(emu.ui.toasts.map((t) => t.message)).toContainEqual(
      expect.stringMatching(/was cancelled by you: 5 waiting rows not sent/),
    );
    expect(byEmail('Other', 'Mail status')['zed@example.com']).toBe('Accepted');
    emu.advanceTime(HOUR);
    expect((await mails()).filter((m) => m.recipientEmail !== 'zed@example.com')).toHaveLength(10);
    const summary = sheet('Tracking summary').getDataRange().getValues().flat().join('\n');
    expect(summary).toMatch(
      /The send from "Leads" \(campaign "Timed"\) was cancelled by you: 5 waiting rows not sent\./,
    );
    expect(summary).not.toMatch(/wait for the hourly limit/);
  });
});

/** The ledger made with a known secret, so the test knows who is in the subject test's share. */
function seedSecret(secret) {
  const id = emu.spreadsheet.getId();
  const key = `outbox.${crypto.createHash('sha256').update(id).digest().subarray(0, 9).toString('base64url')}`;
  emu.properties.user.setProperty(key, JSON.stringify({ v: 1, secret, lists: [], stops: '', companies: '' }));
}

/** outbox/marks.ts addressMark and subject-test.ts testSlot, as the add-on computes them. */
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function hash32(secret, text) {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (const s of [secret, '\u0000', text])
    for (let i = 0; i < s.length; i++) {
      h1 = Math.imul(h1 ^ s.charCodeAt(i), 2654435761);
      h2 = Math.imul(h2 ^ s.charCodeAt(i), 1597334677);
    }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 ^ h2) >>> 0;
}
const digits = (n) => Array.from({ length: 4 }, (_, i) => DIGITS[Math.floor(n / 64 ** i) % 64]).join('');
const decode = (text) => [...text].reduce((n, ch) => n * 64 + DIGITS.indexOf(ch), 0);
function slotOf(secret, email, share, n) {
  const mark = digits(hash32(secret, email)) + digits(hash32(`${secret}:2`, email));
  return { inTest: decode(mark.slice(0, 4)) % 100 < share, variant: decode(mark.slice(4, 8)) % n };
}

describe.each(['per-request', 'per-mail'])('Subject test (task shape: %s)', (taskShape) => {
  beforeEach(() => control(services.sandbox.outreachUrl, 'POST', '/task-shape', { taskShape }));

  test('the share gets the subjects in tasks of their own; after the hours the best open rate reaches the rest exactly once, through a killed execution', async () => {
    startOn(2, 9);
    emu = newAddon(services);
    const secret = 'subject-test-secret';
    seedSecret(secret);
    // In the test (50 %): subject 1's rows open their mail (the sandbox opens a mail to "open…"), subject 0's
    // do not; outside it, anyone.
    const pick = (prefix, want, count) => {
      const found = [];
      for (let i = 0; found.length < count; i++) {
        const email = `${prefix}${i}@example.com`;
        if (want(slotOf(secret, email, 50, 2))) found.push(email);
      }
      return found;
    };
    const quiet = pick('quiet', (s) => s.inTest && s.variant === 0, 6);
    const opener = pick('open', (s) => s.inTest && s.variant === 1, 6);
    const rest = pick('rest', (s) => !s.inTest, 10);
    const emails = [...quiet, ...opener, ...rest];
    const variants = ['Hello {{Name}}', 'Quick question, {{Name}}'];
    listWithMail(emu, 'Leads', [['Name', 'Email'], ...emails.map((e, i) => [`N${i}`, e])], {
      ...MAIL,
      subjectVariants: variants,
      subjectTest: { share: 50, decideAfterHours: 4 },
      followUps: [{ afterDays: 2, body: 'Again, {{Name}}.' }],
    });
    expect(emu.run('getComposeState', [], { kind: 'webapp' }).subjectVariants).toEqual(variants);
    const confirmation = send();
    expect(confirmation.message).toMatch(
      /Subject test: about 11 of these rows \(50%\) get the subjects "Hello \{\{Name\}\}", "Quick question, \{\{Name\}\}" in turn; 4 hours after/,
    );

    let all = await mails();
    expect(all).toHaveLength(12);
    const subjectOf = Object.fromEntries(all.map((m) => [m.recipientEmail, m.subject]));
    quiet.forEach((e) => expect(subjectOf[e]).toMatch(/^Hello N\d+$/));
    opener.forEach((e) => expect(subjectOf[e]).toMatch(/^Quick question, N\d+$/));
    const subjectsPerTask = new Map();
    for (const m of all)
      subjectsPerTask.set(
        m.taskId,
        new Set([...(subjectsPerTask.get(m.taskId) || []), m.subject.split(/ N| /)[0]]),
      );
    expect([...subjectsPerTask.values()].every((s) => s.size === 1)).toBe(true); // one subject per task
    expect(emu.ui.alerts.at(-1).message).toMatch(
      /Sent 12 e-mails, 10 to go[^]*10 e-mails wait for the winning subject of the subject test: the hourly run sends each of them once/,
    );
    const status = byEmail('Leads', 'Mail status');
    rest.forEach((e) =>
      expect(status[e]).toMatch(
        /^Waiting for the subject test \(gets the winning subject of the test, decided /,
      ),
    );

    emu.advanceTime(3 * HOUR);
    expect(await mails()).toHaveLength(12); // nothing before the hours
    let killed = false;
    emu.onFetch = (entries) => {
      if (!killed && entries.some((e) => e.url.endsWith('/send/personalized'))) {
        killed = true;
        services.clock.advance(7 * 60 * 1000); // past the 6-minute limit: the execution dies after the post
      }
    };
    emu.advanceTime(2 * HOUR);
    emu.onFetch = null;
    expect(killed).toBe(true);
    expect(emu.executions.some((e) => e.kind === 'trigger' && e.status !== 'completed')).toBe(true);
    emu.advanceTime(3 * HOUR);
    all = await mails();
    expect(all).toHaveLength(22);
    for (const e of rest) {
      const got = all.filter((m) => m.recipientEmail === e);
      expect(got).toHaveLength(1); // exactly once
      expect(got[0].subject).toMatch(/^Quick question, N\d+$/); // the winner: 6 of 6 opened against 0 of 6
    }
    expect(Object.keys(sendJournal(emu))).toEqual([]);
    expect(Object.values(byEmail('Leads', 'Mail ID')).every((id) => typeof id === 'number')).toBe(true);

    const timed = sheet('Tracking summary')
      .getDataRange()
      .getValues()
      .find((r) => r[0] === 'Waiting and scheduled sends')[1];
    expect(timed).toContain(
      'Subject test of "Leads": "Hello {{Name}}": 6 sent, 0 opened (0%); "Quick question, {{Name}}": 6 sent, 6 opened (100%); winner: "Quick question, {{Name}}", sent to the rest.',
    );

    // The follow-up answers the subject each person got: the test's share its own, the rest the winner.
    emu.advanceTime(2 * DAY + 2 * HOUR);
    const steps = (await mails()).filter((m) => m.subject.startsWith('Re: '));
    expect(steps).toHaveLength(22);
    const stepOf = Object.fromEntries(steps.map((m) => [m.recipientEmail, m.subject]));
    quiet.forEach((e) => expect(stepOf[e]).toMatch(/^Re: Hello N\d+$/));
    [...opener, ...rest].forEach((e) => expect(stepOf[e]).toMatch(/^Re: Quick question, N\d+$/));
  });
});

describe('Subject test without evidence', () => {
  test('no open against no open: no winner at its time, the rest wait up to a day more, then the first subject goes and the summary says why', async () => {
    startOn(2, 9);
    emu = newAddon(services);
    const emails = Array.from({ length: 20 }, (_, i) => `quiet${i}@example.com`); // nobody opens
    const variants = ['Hello {{Name}}', 'Quick question, {{Name}}'];
    listWithMail(emu, 'Leads', [['Name', 'Email'], ...emails.map((e, i) => [`N${i}`, e])], {
      ...MAIL,
      subjectVariants: variants,
      subjectTest: { share: 50, decideAfterHours: 2 },
    });
    const confirmation = send();
    expect(confirmation.message).toMatch(
      /if none was opened, it waits up to a day more, then the first goes/,
    );
    const first = (await mails()).length;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(20);
    const timed = () =>
      sheet('Tracking summary')
        .getDataRange()
        .getValues()
        .find((r) => r[0] === 'Waiting and scheduled sends')[1];

    emu.advanceTime(4 * HOUR); // past its 2 hours: nothing opened, so no winner and nothing more goes
    expect(await mails()).toHaveLength(first);
    expect(timed()).toMatch(
      /Subject test of "Leads": 2 subjects on 50% of the list; no subject has been opened yet/,
    );
    const waiting = Object.values(byEmail('Leads', 'Mail status')).filter((s) =>
      /^Waiting for the subject test/.test(s),
    );
    expect(waiting).toHaveLength(20 - first);
    expect(waiting[0]).toMatch(/decided from .* \(once a subject is opened\)\)$/);

    emu.advanceTime(24 * HOUR); // the day more is over: the first subject goes, for want of a better one
    const all = await mails();
    expect(all).toHaveLength(20);
    for (const m of all.slice(first)) expect(m.subject).toMatch(/^Hello N\d+$/);
    expect(timed()).toMatch(
      /no subject was opened, even a day after the test's time, so there is no winner: the first subject, "Hello \{\{Name\}\}", went to the rest\./,
    );
  });

  test('an hourly limit that cuts the share: the confirmation says how many are measured', () => {
    emu = newAddon(services);
    const emails = Array.from({ length: 100 }, (_, i) => `p${i}@example.com`);
    listWithMail(emu, 'Leads', [['Name', 'Email'], ...emails.map((e, i) => [`N${i}`, e])], {
      ...MAIL,
      hourlyLimit: 5,
      subjectVariants: ['A {{Name}}', 'B {{Name}}'],
      subjectTest: { share: 50, decideAfterHours: 4 },
    });
    emu.ui.queue('NO');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(emu.ui.alerts.at(-1).message).toMatch(
      /about 50 of these rows \(50%\)[^\n]*\nThe hourly limit \(5 mails an hour\) lets at most 20 of those 50 go before the test is decided: the open rates are measured on those/,
    );
  });
});

describe('What the payer confirmed', () => {
  test("an editor's change of the test subjects holds the rest of the send: nothing more goes, the rows say why", async () => {
    startOn(2, 9);
    emu = newAddon(services, { users: { owner: 'ann@example.com', active: 'ann@example.com' } });
    const emails = Array.from({ length: 30 }, (_, i) => `p${i}@example.com`);
    const test = {
      subjectVariants: ['Hello {{Name}}', 'Hi {{Name}}'],
      subjectTest: { share: 30, decideAfterHours: 2 },
    };
    listWithMail(emu, 'Leads', [['Name', 'Email'], ...emails.map((e, i) => [`N${i}`, e])], {
      ...MAIL,
      ...test,
    });
    send();
    const first = (await mails()).length;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(30);
    // Bob, an editor with no key, rewrites a test subject through Compose.
    emu.run(
      'saveTemplate',
      [{ ...MAIL, ...test, subjectVariants: ['Hello {{Name}}', 'Log in at http://evil.example'] }],
      {
        kind: 'webapp',
        user: 'bob@example.com',
      },
    );
    emu.advanceTime(4 * HOUR);
    expect(await mails()).toHaveLength(first); // nothing more paid, nothing more sent
    const statuses = Object.values(byEmail('Leads', 'Mail status')).filter(
      (s) => !/^(Accepted|Sent|Delivered)$/.test(s),
    );
    expect(statuses).toHaveLength(30 - first);
    for (const s of statuses)
      expect(s).toMatch(
        /^Held until the sender reviews the mail \(the mail was changed after the send was confirmed/,
      );
  });
});
