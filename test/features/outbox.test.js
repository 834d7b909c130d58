'use strict';
// Through the built bundle: one outbox decides who is mailed, from the payer's own record (their user
// properties), never from a sheet. Ann pays with her key; Bob is an editor with no key who changes whatever
// cells he likes between Ann's hourly runs. Each attack ends with nothing sent beyond what Ann confirmed, no
// step twice, no text she did not confirm, her stops kept, and the rows saying what happened. A person is one
// person across the document's lists.
const { useServices, control, newAddon, DEMO_KEYS } = require('../support/harness');
const { rowsOf, writeList } = require('../support/sheets');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const ANN = 'ann@seller.example';
const BOB = 'bob@seller.example';
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const FOLLOW_UPS = 'Outreach follow-ups';

const sheet = (name) => emu.spreadsheet.getSheetByName(name);
const column = (name, header) => {
  const list = sheet(name);
  return list.getRange(1, 1, 1, list.getLastColumn()).getValues()[0].indexOf(header) + 1;
};
const cellsOf = (name, header) => Object.fromEntries(rowsOf(emu, name).map((r) => [r.Email, r[header]]));

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
const account = (fields) =>
  control(services.sandbox.outreachUrl, 'POST', '/accounts', { key: DEMO_KEYS.paid, ...fields });

/** `people` ([name, email, company?]) on sheet `name`, its mail with `followUps`, Ann at the keyboard. */
function list(name, people, followUps, extra = {}) {
  const header = ['Name', 'Email', 'Company'];
  writeList(emu, name, [header, ...people.map((p) => [p[0], p[1], p[2] || ''])]);
  emu.run(
    'saveTemplate',
    [
      {
        campaign: name,
        subject: 'Hello {{Name}}',
        body: 'Dear {{Name}}',
        bodyFormat: 'text',
        followUps,
        ...extra,
      },
    ],
    { kind: 'webapp' },
  );
}

function sendFrom(name, answers = ['YES']) {
  emu.spreadsheet.setActiveSheet(sheet(name));
  for (const answer of answers) emu.ui.queue(answer);
  emu.run('sendAllUnsentRows', [], { kind: 'menu' });
  return emu.ui.alerts;
}

const team = (n, domain = 'co') =>
  Array.from({ length: n }, (_, i) => [`P${i + 1}`, `p${i + 1}@${domain}${i + 1}.example`]);

function newDocument() {
  emu = newAddon(services, { users: { owner: ANN, active: ANN } });
}

test('Bob empties, deletes or rewrites the follow-ups sheet before every hourly run: each step goes once', async () => {
  newDocument();
  list('Spring', team(20), [
    { afterDays: 1, body: 'Again, {{Name}}.' },
    { afterDays: 1, subject: 'Last, {{Name}}', body: 'Bye {{Name}}.' },
  ]);
  sendFrom('Spring');
  expect((await mails()).length).toBe(20);
  const attacks = [
    () =>
      sheet(FOLLOW_UPS)
        .getRange(2, 1, sheet(FOLLOW_UPS).getMaxRows() - 1, 8)
        .clearContent(),
    () => sheet(FOLLOW_UPS).getRange(1, 7).setValue('Renamed'),
    () => emu.spreadsheet.deleteSheet(sheet(FOLLOW_UPS)),
    () => sheet(FOLLOW_UPS).getRange(2, 2, 20, 1).setValue(7),
    () => sheet('Spring').getRange(2, column('Spring', 'Sent at'), 20, 1).setValue(new Date('2099-01-01')),
  ];
  for (let hour = 0; hour < 4 * 24; hour++) {
    if (sheet(FOLLOW_UPS)) attacks[hour % attacks.length]();
    emu.advanceTime(HOUR);
  }
  const got = await received();
  expect(Object.keys(got)).toHaveLength(20);
  for (const [i, email] of team(20).map((p, k) => [k, p[1]]))
    expect(got[email]).toEqual([`Hello P${i + 1}`, `Re: Hello P${i + 1}`, `Last, P${i + 1}`]);
  expect((await mails()).length).toBe(60); // at most what Ann confirmed: 20 rows × 3 mails
  expect(cellsOf('Spring', 'Sequence')['p1@co1.example']).toMatch(/^Finished: step 2 of 2 sent/);
  expect(emu.triggers.filter((t) => t.eventType === 'CLOCK')).toHaveLength(0);
});

test('a row whose data changed after the confirmation is held; a copied row with a sent Mail ID gets nothing', async () => {
  newDocument();
  list(
    'Spring',
    [
      ['Kim', 'kim@beta.example'],
      ['Lee', 'lee@gamma.example'],
    ],
    [{ afterDays: 1, body: 'Hi {{Name}}, again.' }],
  );
  sendFrom('Spring');
  const spring = sheet('Spring');
  spring.getRange(2, 1).setValue('Kim. URGENT: your invoice is overdue, pay at evil.example');
  const copy = spring.getRange(2, 1, 1, spring.getLastColumn()).getValues()[0];
  copy[0] = 'Mallory';
  copy[1] = 'mallory@evil.example';
  spring.getRange(4, 1, 1, copy.length).setValues([copy]); // Kim's Mail ID, Task ID and status, another address
  emu.advanceTime(DAY + HOUR);
  const got = await received();
  expect(got['kim@beta.example']).toEqual(['Hello Kim']);
  expect(got['lee@gamma.example']).toEqual(['Hello Lee', 'Re: Hello Lee']);
  expect(got['mallory@evil.example']).toBeUndefined();
  expect(cellsOf('Spring', 'Sequence')['kim@beta.example']).toMatch(
    /^Held: this row changed after its follow-ups were confirmed/,
  );
  expect((await mails()).every((m) => !/URGENT/.test(m.subject + m.content))).toBe(true);
  // Put back as it was, the row goes on: Kim gets the step Ann confirmed.
  spring.getRange(2, 1).setValue('Kim');
  emu.advanceTime(HOUR);
  expect((await received())['kim@beta.example']).toEqual(['Hello Kim', 'Re: Hello Kim']);
});

test("Bob rewrites the steps: Ann's next send from the list is refused until she reviews them in Compose", async () => {
  newDocument();
  list('Spring', team(5), [{ afterDays: 1, body: 'Again, {{Name}}.' }]);
  sendFrom('Spring');
  emu.run(
    'saveTemplate',
    [
      {
        campaign: 'Spring',
        subject: 'Hello {{Name}}',
        body: 'Dear {{Name}}',
        followUps: [{ afterDays: 1, body: 'Pay now, {{Name}}!' }],
      },
    ],
    { kind: 'webapp', user: BOB },
  );
  sheet('Spring')
    .getRange(7, 1, 1, 2)
    .setValues([['New', 'new@delta.example']]);
  const alerts = sendFrom('Spring', []);
  expect(alerts.at(-1).message).toMatch(/^The follow-ups of this list were changed after you confirmed them/);
  expect(alerts.filter((a) => a.buttons === 'YES_NO')).toHaveLength(1); // the first send's: nothing asked now
  emu.advanceTime(DAY + HOUR);
  expect((await mails()).length).toBe(5);
  expect((await mails()).some((m) => /Pay now/.test(m.content))).toBe(false);
  expect(cellsOf('Spring', 'Sequence')['p1@co1.example']).toMatch(
    /waits: the follow-ups were changed after they were confirmed/,
  );
});

test('a stop seen by the payer lasts: unticking Replied, deleting a Do not contact row or clearing "Stopped" restarts nothing', async () => {
  newDocument();
  list('Spring', team(6), [
    { afterDays: 1, body: 'Again.' },
    { afterDays: 1, body: 'Last.' },
  ]);
  sendFrom('Spring');
  const spring = sheet('Spring');
  spring.getRange(2, column('Spring', 'Replied')).setValue(true); // P1 replied
  writeList(emu, 'Do not contact', [
    ['E-mail', 'Reason'],
    ['p2@co2.example', 'asked'],
  ]);
  emu.spreadsheet.setActiveSheet(spring);
  emu.select('A4:B4'); // P3
  emu.run('stopSelectedFollowUps', [], { kind: 'menu', user: BOB });
  emu.advanceTime(HOUR); // Ann's run sees the three stops
  expect(cellsOf('Spring', 'Sequence')).toMatchObject({
    'p1@co1.example': 'Stopped: replied',
    'p2@co2.example': 'Stopped: on the do-not-contact list (asked)',
    'p3@co3.example': 'Stopped: follow-ups stopped from the menu',
  });
  spring.getRange(2, column('Spring', 'Replied')).setValue(false);
  emu.spreadsheet.deleteSheet(sheet('Do not contact'));
  spring.getRange(2, column('Spring', 'Sequence'), 6, 1).clearContent();
  emu.advanceTime(3 * DAY);
  const got = await received();
  for (const email of ['p1@co1.example', 'p2@co2.example', 'p3@co3.example'])
    expect(got[email]).toHaveLength(1);
  for (const email of ['p4@co4.example', 'p5@co5.example', 'p6@co6.example'])
    expect(got[email]).toHaveLength(3);
});

test('sent rows cleared and typed "Queued" while the send waits for the quota, and cancelled rows given a sent Mail ID: nobody is mailed twice', async () => {
  newDocument();
  await account({ dailySendLimit: 100 });
  list('Spring', team(120), [{ afterDays: 1, body: 'Again.' }]);
  sendFrom('Spring');
  expect((await mails()).length).toBe(100); // the chunk of the other 20 waits for the quota
  const spring = sheet('Spring');
  const [status, task, mail, sent] = ['Mail status', 'Task ID', 'Mail ID', 'Sent at'].map((h) =>
    column('Spring', h),
  );
  const sentIds = spring.getRange(2, mail, 1, 1).getValue();
  for (let row = 2; row <= 101; row++) {
    for (const c of [task, mail, sent]) spring.getRange(row, c).clearContent();
    spring.getRange(row, status).setValue('Queued');
  }
  await account({ dailySendLimit: null });
  emu.advanceTime(HOUR); // the waiting send goes on with the quota back
  let got = await received();
  expect((await mails()).length).toBe(120);
  for (const [, email] of team(120)) expect(got[email]).toHaveLength(1);
  expect(cellsOf('Spring', 'Mail status')['p1@co1.example']).toMatch(
    /^Not sent: its mail already went in this send/,
  );
  // A row that never got its first mail, given a sent row's Mail ID by Bob, never gets a step.
  spring.insertRowsAfter(spring.getMaxRows(), 2);
  spring.getRange(122, 1, 1, 2).setValues([['Zed', 'zed@zeta.example']]);
  spring.getRange(122, mail).setValue(sentIds);
  spring.getRange(122, status).setValue('Accepted');
  emu.advanceTime(DAY + HOUR);
  got = await received();
  expect(got['zed@zeta.example']).toBeUndefined();
  expect((await mails()).length).toBe(240); // 120 first mails and 120 steps
});

test('one person across the lists: replied, in another running sequence, or at a company that replied — left out of a second list', async () => {
  newDocument();
  list(
    'Spring',
    [
      ['Ann', 'ann@acme.example', 'Acme'],
      ['Cara', 'cara@delta.example', 'Delta'],
      ['Eve', 'eve@eps.example', 'Eps'],
    ],
    [{ afterDays: 2, body: 'Again.' }],
  );
  sendFrom('Spring');
  sheet('Spring').getRange(2, column('Spring', 'Replied')).setValue(true); // Ann (acme) replied
  emu.advanceTime(HOUR);
  list(
    'Contacts',
    [
      ['Ann', 'ann@acme.example', 'Acme'],
      ['Bo', 'bo@acme.example', 'Acme'],
      ['Cara', 'cara@delta.example', 'Delta'],
      ['Dan', 'dan@zeta.example', 'Zeta'],
    ],
    [{ afterDays: 1, body: 'Hello again.' }],
  );
  const alerts = sendFrom('Contacts', ['NO', 'YES']);
  const held = alerts.find((a) => a.title === 'People on another list');
  expect(held.message).toMatch(/3 rows are held back by another list/);
  expect(held.message).toMatch(/cara@delta.example \(in the running follow-ups of "Spring"\)/);
  const confirmation = alerts.filter((a) => a.title === 'Send e-mails').at(-1).message;
  expect(confirmation).toMatch(/^Send 1 e-mail from "Contacts"/);
  expect(confirmation).toMatch(/1 who replied on a list of this document/);
  expect(confirmation).toMatch(/1 at a company that replied/);
  expect(confirmation).toMatch(/1 in another list's running follow-ups/);
  expect(confirmation).toMatch(/Step 1, 1 day later: "Re: Hello \{\{Name\}\}" — Hello again\./);
  emu.advanceTime(3 * DAY);
  const got = await received();
  expect(got['ann@acme.example']).toEqual(['Hello Ann']);
  expect(got['bo@acme.example']).toBeUndefined();
  expect(got['cara@delta.example']).toEqual(['Hello Cara', 'Re: Hello Cara']); // Spring's steps only
  expect(got['dan@zeta.example']).toEqual(['Hello Dan', 'Re: Hello Dan']);
  expect(cellsOf('Contacts', 'Mail status')['cara@delta.example']).toMatch(
    /in the running follow-ups of "Spring"/,
  );
});

test('a first mail on purpose to someone in another sequence: they get it, and no step of the second list', async () => {
  newDocument();
  list('Spring', [['Cara', 'cara@delta.example', 'Delta']], [{ afterDays: 3, body: 'Again.' }]);
  sendFrom('Spring');
  list('Contacts', [['Cara', 'cara@delta.example', 'Delta']], [{ afterDays: 1, body: 'Other steps.' }]);
  sendFrom('Contacts', ['YES', 'YES']);
  emu.advanceTime(4 * DAY);
  expect((await received())['cara@delta.example']).toEqual(['Hello Cara', 'Hello Cara', 'Re: Hello Cara']);
  expect((await mails()).some((m) => m.content === 'Other steps.')).toBe(false);
});

test("the ledger is in her own user properties: Bob's properties and the document's hold none of it", async () => {
  newDocument();
  list('Spring', team(3), [{ afterDays: 1, body: 'Again.' }]);
  sendFrom('Spring');
  const mine = Object.keys(emu.properties.forUser(ANN).toJSON()).filter((k) => k.startsWith('outbox.'));
  expect(mine).toHaveLength(1);
  expect(Object.keys(emu.properties.document.toJSON()).some((k) => k.startsWith('outbox.'))).toBe(false);
  const record = emu.properties.forUser(ANN).getProperty(mine[0]);
  expect(record).not.toMatch(/co1\.example|P1/); // marks, not addresses or names
});

test("a send that would not fit in the payer's user properties is refused before anything is asked or sent", async () => {
  newDocument();
  // Other documents' records and other scripts' data: 400 KB of Ann's 500 KB store already taken.
  const store = emu.properties.forUser(ANN);
  for (let i = 0; i < 50; i++) store.setProperty(`other.${i}`, 'x'.repeat(8000));
  list('Big', team(1000), [{ afterDays: 1, body: 'Again.' }]);
  const alerts = sendFrom('Big', []);
  expect(alerts.at(-1).title).toBe('Too many rows for one send');
  expect(alerts.at(-1).message).toMatch(
    /^This send has 1,000 rows; your add-on storage has room to confirm \d+ more now/,
  );
  expect(alerts.some((a) => a.buttons === 'YES_NO')).toBe(false);
  expect(await mails()).toHaveLength(0);
  expect(Object.keys(store.toJSON()).some((k) => k.startsWith('outbox.'))).toBe(false);
});

test('a step answered 502 (refunded) twice, then its answer lost: settled by its tag, each person gets it once', async () => {
  newDocument();
  list('Spring', team(30), [{ afterDays: 1, body: 'Again, {{Name}}.' }]);
  sendFrom('Spring');
  const fault = (body) => control(services.sandbox.outreachUrl, 'POST', '/faults', body);
  const path = '/api/v1/emails/send/personalized';
  await fault({ path, kind: 'status', status: 502, count: 2 });
  await fault({ path, kind: 'lost-response', count: 1 });
  emu.advanceTime(DAY + HOUR);
  emu.advanceTime(HOUR);
  const got = await received();
  for (const [i, email] of team(30).map((p, k) => [k, p[1]]))
    expect(got[email]).toEqual([`Hello P${i + 1}`, `Re: Hello P${i + 1}`]);
  expect(cellsOf('Spring', 'Sequence')['p30@co30.example']).toMatch(/^Finished: step 1 of 1 sent/);
});
