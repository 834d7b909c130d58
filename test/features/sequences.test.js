'use strict';
// Follow-up sequences through the built bundle, against the sandbox and its clock, in both task
// shapes. A mail with two follow-ups is sent from the menu; the one hourly trigger sends each step to the rows
// that did not reply (their company included: by Company hash ID, else by domain, webmail excepted), never to
// a bounced or do-not-contact row, never before the delay, each exactly once (an execution killed right
// after a step's post included), nothing after the last step; the Sequence column says where each row is.
const { useServices, control, newAddon, DEMO_KEYS } = require('../support/harness');
const { listWithMail } = require('../support/sent-mail');
const { sendJournal, leaveNextSendInDoubt } = require('../support/send-journal');

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
const clockTriggers = () => emu.triggers.filter((t) => t.eventType === 'CLOCK');

async function mails() {
  return (await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${DEMO_KEYS.paid}`)).mails;
}
/** Recipient → the subjects they received, in order. */
async function received() {
  const got = {};
  for (const m of (await mails()).sort((a, b) => a.mailId - b.mailId))
    (got[m.recipientEmail] = got[m.recipientEmail] || []).push(m.subject);
  return got;
}

const FOLLOW_UPS = [
  { afterDays: 2, body: 'Just checking in, {{Name}}.' },
  { afterDays: 3, subject: 'Last note for {{Name}}', body: 'Bye {{Name}}.' },
];

/** The list: two companies by hash ID (two domains), one by domain, webmail users, a bounce, a listed row. */
function makeList(followUps = FOLLOW_UPS) {
  const rows = [
    ['Name', 'Email', 'Company', 'Company hash ID'],
    ['Ann', 'ann@acme.com', 'Acme', 'H-ACME'],
    ['Bob', 'bob@acme-group.com', 'Acme', 'H-ACME'],
    ['Cara', 'cara@delta.com', 'Delta', ''],
    ['Dan', 'dan@delta.com', 'Delta', ''],
    ['Jane', 'jane@gmail.com', '', ''],
    ['Joe', 'joe@gmail.com', '', ''],
    ['Tom', 'bounce.tom@example.org', '', ''],
    ['Dee', 'dee@example.net', '', ''],
    ['Kim', 'kim@beta.com', 'Beta', 'H-BETA'],
  ];
  return listWithMail(emu, 'Spring', rows, {
    campaign: 'Spring launch',
    subject: 'Hello {{Name}}',
    body: 'Dear {{Name}}',
    bodyFormat: 'text',
    followUps,
  });
}

/** A small list on `name` (Name, Email and `extra` columns) whose mail has `followUps`. */
function smallList(name, people, followUps, campaign = name) {
  const header = ['Name', 'Email', ...Object.keys(people[0]).filter((k) => k !== 'name' && k !== 'email')];
  const rows = people.map((p) => header.map((h) => (h === 'Name' ? p.name : h === 'Email' ? p.email : p[h])));
  return listWithMail(emu, name, [header, ...rows], {
    campaign,
    subject: 'Hello {{Name}}',
    body: 'Dear {{Name}}',
    followUps,
  });
}

function sendFirst() {
  emu.ui.queue('YES');
  emu.run('sendAllUnsentRows', [], { kind: 'menu' });
  return emu.ui.alerts.find((a) => a.title === 'Send e-mails');
}

function tick(rows) {
  const list = sheet('Spring');
  const header = list.getRange(1, 1, 1, list.getLastColumn()).getValues()[0];
  const column = header.indexOf('Replied') + 1;
  const emails = list
    .getRange(2, 2, list.getLastRow() - 1, 1)
    .getValues()
    .map((r) => r[0]);
  for (const email of rows) list.getRange(emails.indexOf(email) + 2, column).setValue(true);
}

describe.each(['per-request', 'per-mail'])('Follow-up sequences (task shape: %s)', (taskShape) => {
  beforeEach(() => control(services.sandbox.outreachUrl, 'POST', '/task-shape', { taskShape }));

  test('two steps go to the rows that did not reply, their company included, each once, and nothing after the last', async () => {
    emu = newAddon(services);
    makeList();
    const state = emu.run('getComposeState', [], { kind: 'webapp' });
    expect(state.followUps).toEqual([
      expect.objectContaining({ afterDays: 2, subject: '', workingDaysOnly: false }),
      expect.objectContaining({ afterDays: 3, subject: 'Last note for {{Name}}' }),
    ]);
    expect(emu.run('previewMail', [10, 1], { kind: 'webapp' })).toMatchObject({
      subject: 'Re: Hello Kim',
      body: 'Just checking in, Kim.',
    });
    const confirmation = sendFirst();
    expect(confirmation.message).toMatch(
      /Follow-ups: 2 steps after this mail.*costs at most 27 e-mail credits \(9 rows × 3 mails\)/,
    );
    expect(clockTriggers()).toHaveLength(1);
    expect(Object.keys(byEmail('Spring', 'Replied'))).toHaveLength(9);
    // The two new columns are the add-on's: not offered as placeholders.
    expect(emu.run('getComposeState', [], { kind: 'webapp' }).headers).toEqual([
      'Name',
      'Email',
      'Company',
      'Company hash ID',
    ]);
    tick(['ann@acme.com', 'cara@delta.com', 'jane@gmail.com']);
    const dnc = emu.spreadsheet.insertSheet('Do not contact');
    dnc.getRange(1, 1, 2, 2).setValues([
      ['E-mail', 'Reason'],
      ['dee@example.net', 'asked'],
    ]);

    emu.advanceTime(DAY); // nothing before the delay
    expect((await mails()).length).toBe(9);
    expect(emu.triggers).toHaveLength(1); // the one hourly trigger, nothing more
    const sequence = () => byEmail('Spring', 'Sequence');
    expect(sequence()).toMatchObject({
      'ann@acme.com': 'Stopped: replied',
      'bob@acme-group.com': 'Stopped: someone at Acme replied (ann@acme.com)', // the same Company hash ID
      'dan@delta.com': 'Stopped: someone at delta.com replied (cara@delta.com)', // the same domain
      'joe@gmail.com': expect.stringMatching(/^Next: step 1 on \d{4}-\d\d-\d\d \d\d:\d\d$/),
      'dee@example.net': 'Stopped: on the do-not-contact list (asked)',
      'kim@beta.com': expect.stringMatching(/^Next: step 1 on /),
    });

    // The summary names the running sequence: its sheet, the next step and when, the rows left.
    const timed = sheet('Tracking summary')
      .getRange('A1:B7')
      .getValues()
      .find((r) => r[0] === 'Waiting and scheduled sends')[1];
    expect(timed).toMatch(/Follow-ups of "Spring": next step 1 on \d{4}-\d\d-\d\d \d\d:\d\d, 3 rows left\./);

    emu.advanceTime(DAY + HOUR); // step 1 is due
    let got = await received();
    expect(got['kim@beta.com']).toEqual(['Hello Kim', 'Re: Hello Kim']);
    expect(got['joe@gmail.com']).toEqual(['Hello Joe', 'Re: Hello Joe']); // another webmail user's reply
    for (const quiet of ['ann@acme.com', 'bob@acme-group.com', 'cara@delta.com', 'dan@delta.com']) {
      expect(got[quiet]).toHaveLength(1);
    }
    expect(got['jane@gmail.com']).toHaveLength(1);
    expect(got['bounce.tom@example.org']).toHaveLength(1); // its first mail failed: read before step 1
    expect(got['dee@example.net']).toHaveLength(1);
    expect(sequence()['bounce.tom@example.org']).toBe('Stopped: the last mail failed');
    expect(sequence()['kim@beta.com']).toMatch(/^Step 1 of 2 sent .*; next: step 2 on /);

    expect(emu.triggers).toHaveLength(1);
    emu.advanceTime(3 * DAY + HOUR); // step 2: the run after it refreshes what it sent, then the trigger goes
    expect(emu.triggers.length).toBeLessThanOrEqual(1);
    got = await received();
    expect(got['kim@beta.com']).toEqual(['Hello Kim', 'Re: Hello Kim', 'Last note for Kim']);
    expect(got['joe@gmail.com']).toHaveLength(3);
    expect(sequence()['kim@beta.com']).toMatch(/^Finished: step 2 of 2 sent /);

    emu.advanceTime(10 * DAY); // nothing after the last step, and the trigger goes when nothing is left
    expect((await mails()).length).toBe(13);
    expect(clockTriggers()).toHaveLength(0);
    expect(emu.triggers).toHaveLength(0);
    const runs = emu.executions.filter((e) => e.kind === 'trigger');
    expect(runs.every((e) => e.status === 'completed')).toBe(true);

    // Each step is its own campaign on Tracking; Show mail shows a follow-up's mail.
    emu.run('refreshTracking', [], { kind: 'menu' });
    const campaigns = rowsOf('Tracking').map((r) => r.Campaign);
    expect(new Set(campaigns)).toEqual(
      new Set(['Spring launch', 'Spring launch · follow-up 1', 'Spring launch · follow-up 2']),
    );
    expect(campaigns.filter((c) => c === 'Spring launch · follow-up 2')).toHaveLength(2);
    expect(Object.keys(sendJournal(emu))).toEqual([]);
    const tracking = sheet('Tracking');
    const kimLast = rowsOf('Tracking').findIndex(
      (r) => r.Recipient === 'kim@beta.com' && r.Campaign === 'Spring launch · follow-up 2',
    );
    emu.spreadsheet.setActiveSheet(tracking);
    tracking.getRange(`C${kimLast + 2}`).activate();
    emu.run('showMailDetail', [], { kind: 'menu' });
    expect(emu.ui.dialogs.at(-1).html).toContain('Last note for Kim');
    // The follow-ups' own sheet is hidden and its rows moved by the refresh like any list's.
    expect(sheet('Outreach follow-ups').isSheetHidden()).toBe(true);
    expect(new Set(rowsOf('Outreach follow-ups').map((r) => r['Mail status']))).toEqual(
      new Set(['Delivered']),
    );
  });

  test('an execution killed right after a step is posted: the next hourly run settles it, never posts it again', async () => {
    emu = newAddon(services);
    makeList([{ afterDays: 1, body: 'Again, {{Name}}.' }]);
    sendFirst();
    emu.advanceTime(DAY - HOUR);
    let killed = false;
    emu.onFetch = (entries) => {
      if (!killed && entries.some((e) => e.url.endsWith('/send/personalized'))) {
        killed = true;
        services.clock.advance(7 * 60 * 1000); // past the 6-minute limit: the next service call dies
      }
    };
    emu.advanceTime(2 * HOUR);
    emu.onFetch = null;
    expect(killed).toBe(true);
    expect(emu.executions.some((e) => e.kind === 'trigger' && e.status !== 'completed')).toBe(true);
    emu.advanceTime(2 * HOUR);
    const got = await received();
    // Every row that can get the step got it once (nobody replied here); the bounce and the listed row none.
    const names = {
      'kim@beta.com': 'Kim',
      'joe@gmail.com': 'Joe',
      'ann@acme.com': 'Ann',
      'dee@example.net': 'Dee',
    };
    for (const [email, name] of Object.entries(names))
      expect(got[email]).toEqual([`Hello ${name}`, `Re: Hello ${name}`]);
    expect(got['bounce.tom@example.org']).toEqual(['Hello Tom']);
    expect((await mails()).length).toBe(9 + 8);
    expect(Object.keys(sendJournal(emu))).toEqual([]);
    expect(byEmail('Spring', 'Sequence')['kim@beta.com']).toMatch(/^Finished: step 1 of 1 sent /);
    expect(clockTriggers().length).toBeLessThanOrEqual(1);
  });
});

describe.each(['per-request', 'per-mail'])('A step in doubt (task shape: %s)', (taskShape) => {
  beforeEach(() => control(services.sandbox.outreachUrl, 'POST', '/task-shape', { taskShape }));

  test("a step's answer lost and its look-up failing: the rows wait, the next hourly run settles it, nobody gets it twice", async () => {
    emu = newAddon(services);
    makeList([{ afterDays: 1, body: 'Again, {{Name}}.' }]);
    sendFirst();
    emu.advanceTime(DAY - HOUR);
    await leaveNextSendInDoubt(services.sandbox.outreachUrl);
    for (let hour = 0; hour < 3 && (await mails()).length === 9; hour++) emu.advanceTime(HOUR); // the run that posts
    expect((await mails()).length).toBe(17); // the service took the step
    expect(Object.keys(sendJournal(emu)).length).toBeGreaterThan(0); // in doubt until settled
    expect(byEmail('Spring', 'Sequence')['kim@beta.com']).toMatch(
      /^Next: step 1 is due and waits: could not confirm with the service whether a chunk was sent/,
    );
    emu.advanceTime(HOUR);
    expect((await mails()).length).toBe(17);
    expect((await received())['kim@beta.com']).toEqual(['Hello Kim', 'Re: Hello Kim']);
    expect(Object.keys(sendJournal(emu))).toEqual([]);
    expect(byEmail('Spring', 'Sequence')['kim@beta.com']).toMatch(/^Finished: step 1 of 1 sent /);
  });
});

describe('Companies and shared domains', () => {
  test('a reply on example.com stops its sender only: the others there, and the same company name elsewhere, go on; a next list is not held back', async () => {
    emu = newAddon(services);
    const people = [
      { name: 'Jane', email: 'reply.jane@example.com', Company: 'Replyco' },
      { name: 'Bob', email: 'bob@example.com', Company: 'Smith & Co' },
      { name: 'Tom', email: 'tom@example.com', Company: 'Awayco' },
      { name: 'Carl', email: 'carl@acme.com', Company: 'Replyco' }, // no Company hash ID: a name matches nothing
    ];
    smallList('Demo', people, [{ afterDays: 2, body: 'Again, {{Name}}.' }]);
    sendFirst();
    const demo = sheet('Demo');
    const header = demo.getRange(1, 1, 1, demo.getLastColumn()).getValues()[0];
    demo.getRange(2, header.indexOf('Replied') + 1).setValue(true); // Jane replied
    emu.advanceTime(2 * DAY + HOUR);
    expect(byEmail('Demo', 'Sequence')).toEqual({
      'reply.jane@example.com': 'Stopped: replied',
      'bob@example.com': expect.stringMatching(/^Finished: step 1 of 1 sent /),
      'tom@example.com': expect.stringMatching(/^Finished: step 1 of 1 sent /),
      'carl@acme.com': expect.stringMatching(/^Finished: step 1 of 1 sent /),
    });
    smallList('Next', [{ name: 'Ann', email: 'ann@example.com', Company: 'Replyco' }], []);
    const before = emu.ui.alerts.length;
    sendFirst();
    expect(emu.ui.alerts.slice(before).map((a) => a.title)).toEqual(['Send e-mails']); // nobody held back
    expect(byEmail('Next', 'Mail status')['ann@example.com']).toBe('Accepted');
  });
});

describe('Money and control', () => {
  const account = (fields) =>
    control(services.sandbox.outreachUrl, 'POST', '/accounts', { key: DEMO_KEYS.paid, ...fields });
  const summaryText = () =>
    sheet('Tracking summary')
      .getRange('A1:B7')
      .getValues()
      .find((r) => r[0] === 'Waiting and scheduled sends')[1];

  test('a step that finds too few credits, then the sending quota used up, waits and says so; it goes once when they are back', async () => {
    emu = newAddon(services);
    makeList([{ afterDays: 1, body: 'Again, {{Name}}.' }]);
    sendFirst();
    await account({ monthlyEdm: 3, addonEdm: 0 });
    emu.advanceTime(DAY + HOUR);
    expect((await mails()).length).toBe(9);
    expect(byEmail('Spring', 'Sequence')['kim@beta.com']).toBe(
      `Next: step 1 is due and waits: too few e-mail credits (needs 8 EDM, 3 usable: buy more at ${services.sandbox.outreachUrl}/pricing); the hourly run tries again`,
    );
    expect(summaryText()).toMatch(
      /Follow-ups of "Spring": step 1 is due and waits: too few e-mail credits \(needs 8 EDM, 3 usable: buy more at .*\); the hourly run tries again \(8 rows left\)/,
    );
    await account({ monthlyEdm: 1000, dailySendLimit: 5 }); // the chunk of 8 is refused whole
    emu.advanceTime(HOUR);
    expect((await mails()).length).toBe(9);
    expect(byEmail('Spring', 'Sequence')['kim@beta.com']).toMatch(
      /^Next: step 1 is due and waits: waiting for the sending quota \(.*\); the hourly run tries again$/,
    );
    expect(clockTriggers()).toHaveLength(1);
    await account({ dailySendLimit: null });
    emu.advanceTime(HOUR);
    const got = await received();
    expect(got['kim@beta.com']).toEqual(['Hello Kim', 'Re: Hello Kim']);
    expect((await mails()).length).toBe(17);
    expect(summaryText()).not.toMatch(/Follow-ups of "Spring"/);
  });

  test("a send scheduled for later with follow-ups: the scheduling states the sequence's most cost, and the steps follow it", async () => {
    emu = newAddon(services);
    makeList([{ afterDays: 1, body: 'Again, {{Name}}.' }]);
    const at = Math.floor((services.clock.now() + 2 * HOUR) / 60_000) * 60_000;
    emu.run('scheduleSend', [new Date(at).toISOString().slice(0, 16)], { kind: 'webapp' });
    expect(emu.ui.alerts.at(-1)).toMatchObject({ title: 'Schedule a send', response: 'YES' });
    expect(emu.ui.alerts.at(-1).message).toMatch(/costs at most 18 e-mail credits \(9 rows × 2 mails\)/);
    emu.advanceTime(3 * HOUR);
    expect((await mails()).length).toBe(9);
    expect(emu.triggers).toHaveLength(1);
    emu.advanceTime(DAY);
    expect((await received())['kim@beta.com']).toEqual(['Hello Kim', 'Re: Hello Kim']);
    expect((await mails()).length).toBe(17);
  });

  test('the steps removed from the mail: the next run stops every row that had one to come, and the trigger goes', async () => {
    emu = newAddon(services);
    makeList([{ afterDays: 2, body: 'Again, {{Name}}.' }]);
    sendFirst();
    emu.advanceTime(HOUR);
    expect(byEmail('Spring', 'Sequence')['kim@beta.com']).toMatch(/^Next: step 1 on /);
    emu.run(
      'saveTemplate',
      [{ campaign: 'Spring launch', subject: 'Hello {{Name}}', body: 'Dear {{Name}}' }],
      {
        kind: 'webapp',
      },
    );
    emu.advanceTime(3 * DAY);
    expect((await mails()).length).toBe(9);
    expect(byEmail('Spring', 'Sequence')['kim@beta.com']).toBe(
      'Stopped: the follow-ups were removed from the mail (or its sheet or confirmation is gone)',
    );
    expect(clockTriggers()).toHaveLength(0);
  });

  test("the Replied column is made of checkboxes, rows added later included; a column of the user's own is left alone", async () => {
    emu = newAddon(services);
    makeList([{ afterDays: 2, body: 'Again, {{Name}}.' }]);
    sendFirst();
    expect(Object.values(byEmail('Spring', 'Replied')).every((v) => v === false)).toBe(true); // unticked boxes
    const list = sheet('Spring');
    list.getRange(list.getLastRow() + 1, 1, 1, 2).setValues([['Zed', 'zed@zeta.example']]); // a row added later
    expect(byEmail('Spring', 'Replied')['zed@zeta.example']).toBe('');
    emu.advanceTime(HOUR);
    expect(byEmail('Spring', 'Replied')['zed@zeta.example']).toBe(false); // an unticked box, no longer empty

    smallList(
      'Own',
      [{ name: 'Kim', email: 'kim@own.example', Replied: 'yes' }],
      [{ afterDays: 1, body: 'Again.' }],
    );
    sendFirst();
    expect(byEmail('Own', 'Replied')).toEqual({ 'kim@own.example': 'yes' });
    emu.advanceTime(DAY + HOUR);
    expect(byEmail('Own', 'Sequence')['kim@own.example']).toBe('Stopped: replied');
    expect((await received())['kim@own.example']).toEqual(['Hello Kim']);
  });

  test('a sequence longer than 45 days outlives a later send', async () => {
    emu = newAddon(services);
    smallList(
      'Long',
      [{ name: 'Kim', email: 'kim@beta.com' }],
      [
        { afterDays: 30, body: 'Again.' },
        { afterDays: 30, body: 'Last.' },
      ],
    );
    sendFirst();
    emu.advanceTime(46 * DAY);
    expect((await received())['kim@beta.com']).toHaveLength(2);
    smallList('Other', [{ name: 'Joe', email: 'joe@gmail.com' }], []);
    sendFirst();
    emu.advanceTime(15 * DAY);
    expect((await received())['kim@beta.com']).toEqual(['Hello Kim', 'Re: Hello Kim', 'Re: Hello Kim']);
  }, 240_000); // 61 days of hourly runs

  test('a send in progress (its lease held) holds the step back for the hour: the journal is never settled under a post', async () => {
    emu = newAddon(services);
    makeList([{ afterDays: 1, body: 'Again, {{Name}}.' }]);
    sendFirst();
    emu.advanceTime(DAY - 2 * HOUR);
    emu.properties.document.setProperty('job.send.lease', String(services.clock.now() + 3 * HOUR));
    emu.advanceTime(3 * HOUR);
    expect((await mails()).length).toBe(9);
    expect(summaryText()).toMatch(/Last follow-up run .*: The follow-ups wait for the send in progress/);
    emu.properties.document.deleteProperty('job.send.lease');
    emu.advanceTime(HOUR);
    expect((await mails()).length).toBe(17);
  });

  test('rows still waiting for the sending quota keep the sequence going though every row sent so far replied', async () => {
    emu = newAddon(services);
    await account({ dailySendLimit: 100 });
    const people = Array.from({ length: 150 }, (_, i) => ({
      name: `P${i + 1}`,
      email: `p${i + 1}@co${i + 1}.example`,
    }));
    smallList('Big', people, [{ afterDays: 1, body: 'Again.' }]);
    sendFirst();
    const list = sheet('Big');
    const header = list.getRange(1, 1, 1, list.getLastColumn()).getValues()[0];
    const status = list
      .getRange(2, header.indexOf('Mail status') + 1, 150, 1)
      .getValues()
      .map((r) => r[0]);
    const replied = status.map((s) => [s === 'Accepted']);
    list.getRange(2, header.indexOf('Replied') + 1, 150, 1).setValues(replied); // every row sent so far replied
    expect(replied.filter((r) => r[0])).toHaveLength(100);
    emu.advanceTime(2 * HOUR);
    expect(emu.properties.document.getProperty(`sequence.${list.getSheetId()}`)).not.toBeNull();
    await account({ dailySendLimit: null });
    emu.advanceTime(HOUR); // the quota is back: the 50 rows left go
    expect((await mails()).length).toBe(150);
    emu.advanceTime(DAY + HOUR);
    const got = await received();
    expect(got['p150@co150.example']).toEqual(['Hello P150', 'Re: Hello P150']);
    expect(got['p1@co1.example']).toEqual(['Hello P1']);
  });

  test('a step waiting for the sending quota gives up after 7 days, as a send does; the trigger then goes', async () => {
    emu = newAddon(services);
    makeList([{ afterDays: 1, body: 'Again, {{Name}}.' }]);
    sendFirst();
    await account({ dailySendLimit: 5 }); // each day's chunk of 8 is refused whole
    emu.advanceTime(DAY + HOUR);
    expect(summaryText()).toMatch(/step 1 is due and waits: waiting for the sending quota/);
    emu.advanceTime(7 * DAY);
    expect((await mails()).length).toBe(9);
    expect(byEmail('Spring', 'Sequence')['kim@beta.com']).toMatch(
      /^Stopped: gave up waiting for the sending quota after 7 days \(/,
    );
    emu.advanceTime(2 * HOUR);
    expect(clockTriggers()).toHaveLength(0);
  });

  test('Stop follow-ups for selected rows, then for the whole sheet: nothing more goes, the trigger goes', async () => {
    emu = newAddon(services);
    makeList();
    sendFirst();
    emu.advanceTime(HOUR);
    emu.select('A10:D10'); // Kim
    emu.run('stopSelectedFollowUps', [], { kind: 'menu' });
    expect(emu.ui.toasts.at(-1).message).toMatch(/Follow-ups stopped for 1 row of "Spring"/);
    expect(byEmail('Spring', 'Sequence')['kim@beta.com']).toBe('Stopped: follow-ups stopped from the menu');
    emu.advanceTime(2 * DAY);
    const got = await received();
    expect(got['kim@beta.com']).toEqual(['Hello Kim']);
    expect(got['joe@gmail.com']).toEqual(['Hello Joe', 'Re: Hello Joe']);
    emu.ui.queue('YES');
    emu.run('stopSheetFollowUps', [], { kind: 'menu' });
    expect(byEmail('Spring', 'Sequence')['joe@gmail.com']).toBe('Stopped: follow-ups stopped from the menu');
    emu.advanceTime(5 * DAY);
    expect((await received())['joe@gmail.com']).toHaveLength(2);
    expect(clockTriggers()).toHaveLength(0);
    expect(Object.keys(emu.properties.document.toJSON()).filter((k) => k.startsWith('sequence.'))).toEqual(
      [],
    );
  });
});

describe.each(['per-request', 'per-mail'])('Step options (task shape: %s)', (taskShape) => {
  beforeEach(() => control(services.sandbox.outreachUrl, 'POST', '/task-shape', { taskShape }));

  test('"only if not opened" holds back a row whose mail was opened where a task holds one mail; else Compose says why not', async () => {
    emu = newAddon(services);
    smallList(
      'Spring',
      [
        { name: 'Kim', email: 'open.kim@beta.com' },
        { name: 'Joe', email: 'joe@gmail.com' },
      ],
      [{ afterDays: 1, body: 'Again, {{Name}}.', unopenedOnly: true }],
      'Opens',
    );
    sendFirst();
    const note = emu.run('getComposeState', [], { kind: 'webapp' }).opensNote;
    emu.advanceTime(DAY + HOUR);
    const got = await received();
    expect(got['joe@gmail.com']).toHaveLength(2);
    if (taskShape === 'per-mail') {
      expect(note).toBe('');
      expect(got['open.kim@beta.com']).toHaveLength(1);
      expect(byEmail('Spring', 'Sequence')['open.kim@beta.com']).toMatch(/^Stopped: opened the last mail/);
    } else {
      expect(note).toMatch(
        /"Only if not opened" is not available for this list: the service grouped its mails/,
      );
      expect(got['open.kim@beta.com']).toHaveLength(2);
    }
  });

  test("working days only: the step is due after that many weekdays in the spreadsheet's zone", async () => {
    emu = newAddon(services);
    smallList(
      'Spring',
      [{ name: 'Kim', email: 'kim@beta.com' }],
      [{ afterDays: 3, body: 'Again.', workingDaysOnly: true }],
      'Weekdays',
    );
    sendFirst();
    emu.advanceTime(HOUR);
    const sentAt = rowsOf('Spring')[0]['Sent at'].getTime();
    let due = sentAt;
    for (let counted = 0; counted < 3;) {
      due += DAY;
      const weekday = new Date(due).getUTCDay(); // the test spreadsheet's zone is Etc/UTC
      if (weekday !== 0 && weekday !== 6) counted++;
    }
    const text = new Date(due).toISOString().slice(0, 16).replace('T', ' ');
    expect(byEmail('Spring', 'Sequence')['kim@beta.com']).toBe(`Next: step 1 on ${text}`);
    emu.advanceTime(due - services.clock.now() - HOUR);
    expect((await received())['kim@beta.com']).toHaveLength(1);
    emu.advanceTime(2 * HOUR);
    expect((await received())['kim@beta.com']).toHaveLength(2);
  });

  test("a campaign name too long for the steps' campaigns, a wrong delay, a step naming no column: said before anything is sent", () => {
    emu = newAddon(services);
    smallList('Spring', [{ name: 'Kim', email: 'kim@beta.com' }], [], 'C');
    expect(() =>
      emu.run(
        'saveTemplate',
        [{ campaign: 'x'.repeat(230), subject: 'S', body: 'B', followUps: [{ afterDays: 1, body: 'F' }] }],
        { kind: 'webapp' },
      ),
    ).toThrow(/The campaign name is too long for follow-ups .*: at most 221 characters/);
    expect(() =>
      emu.run(
        'saveTemplate',
        [{ campaign: 'C', subject: 'S', body: 'B', followUps: [{ afterDays: 31, body: 'F' }] }],
        {
          kind: 'webapp',
        },
      ),
    ).toThrow(/Follow-up 1: the delay is a whole number of days from 1 to 30/);
    // A step naming a column the sheet lacks: said in Compose, and the first send is refused until it is fixed.
    const state = emu.run(
      'saveTemplate',
      [{ campaign: 'C', subject: 'S', body: 'B', followUps: [{ afterDays: 1, body: 'Hi {{Title}}' }] }],
      { kind: 'webapp' },
    );
    expect(state.problems).toEqual([
      'Follow-up 1: {{Title}} matches no column of this sheet: use one of the headers in row 1.',
    ]);
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(emu.ui.alerts.at(-1).message).toMatch(
      /^Fix the mail first \(Compose e-mail…\): Follow-up 1: \{\{Title\}\}/,
    );
    expect(emu.fetchLog.filter((e) => e.url.endsWith('/send/personalized'))).toHaveLength(0);
  });
});

describe('A shared document: only what the payer confirmed', () => {
  const ANN = 'ann@seller.example';
  const BOB = 'bob@seller.example';

  test("another editor's change to the steps pauses them until the payer saves; a row they add gets nothing", async () => {
    emu = newAddon(services, { users: { owner: ANN, active: ANN } });
    makeList([{ afterDays: 1, body: 'Again, {{Name}}.' }]);
    sendFirst();
    // Bob rewrites the follow-up and types a row of his own, with ids, as if it had been sent.
    emu.run(
      'saveTemplate',
      [
        {
          campaign: 'Spring launch',
          subject: 'Hello {{Name}}',
          body: 'Dear {{Name}}',
          followUps: [{ afterDays: 1, body: 'Buy now, {{Name}}!' }],
        },
      ],
      { kind: 'webapp', user: BOB },
    );
    const list = sheet('Spring');
    const header = list.getRange(1, 1, 1, list.getLastColumn()).getValues()[0];
    const extra = header.map(
      (h) =>
        ({
          Name: 'Mallory',
          Email: 'mallory@evil.example',
          'Mail status': 'Accepted',
          'Task ID': 1,
          'Mail ID': 1,
        })[h] ?? '',
    );
    list.getRange(list.getLastRow() + 1, 1, 1, extra.length).setValues([extra]);
    emu.advanceTime(DAY + HOUR);
    expect((await mails()).length).toBe(9);
    expect(byEmail('Spring', 'Sequence')['kim@beta.com']).toMatch(
      /^Next: step 1 is due and waits: the follow-ups were changed after they were confirmed/,
    );
    // Ann looks at the mail in Compose and saves it: she confirms the step as it is now.
    const state = emu.run('getComposeState', [], { kind: 'webapp' });
    emu.run('saveTemplate', [{ ...state.template, followUps: state.followUps }], { kind: 'webapp' });
    emu.advanceTime(HOUR);
    const got = await received();
    expect(got['kim@beta.com']).toEqual(['Hello Kim', 'Re: Hello Kim']);
    expect(got['mallory@evil.example']).toBeUndefined();
    expect(byEmail('Spring', 'Sequence')['mallory@evil.example']).toBe('');
    expect(
      (await mails()).find((m) => m.recipientEmail === 'kim@beta.com' && m.subject.startsWith('Re:')).content,
    ).toBe('Buy now, Kim!');
  });

  test("a second editor cannot start follow-ups on a sheet where another's run; stopping is anyone's", async () => {
    emu = newAddon(services, { users: { owner: ANN, active: ANN } });
    makeList([{ afterDays: 1, body: 'Again, {{Name}}.' }]);
    sendFirst();
    await control(services.sandbox.outreachUrl, 'POST', '/accounts', { key: 'sandbox-bob', addonEdm: 100 });
    emu.run(
      'saveSettings',
      [{ outreachBaseUrl: services.sandbox.outreachUrl, outreachApiKey: 'sandbox-bob' }],
      {
        kind: 'webapp',
        user: BOB,
      },
    );
    const list = sheet('Spring');
    list.getRange(list.getLastRow() + 1, 1, 1, 2).setValues([['Zed', 'zed@zeta.example']]);
    emu.run('sendAllUnsentRows', [], { kind: 'menu', user: BOB });
    expect(emu.ui.alerts.at(-1).message).toMatch(/^Another editor's follow-ups are running on "Spring"/);
    expect(byEmail('Spring', 'Mail status')['zed@zeta.example']).toBe('');
    emu.ui.queue('YES');
    emu.run('stopSheetFollowUps', [], { kind: 'menu', user: BOB });
    emu.advanceTime(2 * DAY);
    expect((await mails()).length).toBe(9);
    expect(byEmail('Spring', 'Sequence')['kim@beta.com']).toBe('Stopped: follow-ups stopped from the menu');
  });
});
