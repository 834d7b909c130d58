'use strict';
// Through the built bundle: the ledger decides who gets a mail, whatever the cells say. Ann (the owner)
// pays; Bob is an editor without a key who changes the sheet, during a post and between runs. Each case ends
// with nobody mailed twice (the sandbox counts every mail its key sent), the rows saying what happened.
const { useServices, control, newAddon, DEMO_KEYS, jobKey } = require('../support/harness');
const sheets = require('../support/sheets');
const { people, peopleRows, rowsOf } = sheets;
const { listWithMail } = require('../support/sent-mail');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const ANN = 'ann@example.com';
const BOB = 'bob@example.com';
const MAIL = { campaign: 'Winter offer', subject: 'Hello {{Name}}', body: 'Dear {{Name}}, our offer.' };
const sheet = (name) => emu.spreadsheet.getSheetByName(name);

async function perRecipient() {
  const { mails } = await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${DEMO_KEYS.paid}`);
  const counts = new Map();
  for (const m of mails) counts.set(m.recipientEmail, (counts.get(m.recipientEmail) || 0) + 1);
  return counts;
}
const twice = (counts) => [...counts].filter(([, n]) => n > 1);

function open() {
  emu = newAddon(services, { users: { owner: ANN, active: ANN } });
}

/** Ann's "Send to all unsent rows", answering the questions in order (the cost confirmation last). */
function sendAll(...answers) {
  emu.ui.queue(...answers);
  emu.run('sendAllUnsentRows', [], { kind: 'menu' });
  for (let steps = 0; emu.properties.document.getProperty(jobKey(emu, 'send')) && steps < 50; steps++)
    if (emu.run('continueJob', ['send'], { kind: 'webapp' }).finished) break;
}

const alertTitled = (title) => emu.ui.alerts.filter((a) => a.title === title);
const column = (name, header) => rowsOf(emu, name).map((r) => r[header]);

describe('The record remembers every first mail, whatever the cells say', () => {
  test('clearing Mail status, Task ID, Mail ID and Sent at does not send again: the send asks, and No keeps everyone out', async () => {
    open();
    listWithMail(emu, 'Leads', peopleRows(people(250)), MAIL);
    sendAll('YES');
    expect((await perRecipient()).size).toBe(250);
    const width = sheet('Leads').getLastColumn();
    sheet('Leads')
      .getRange(2, 3, 250, width - 2)
      .clearContent(); // the four columns, as Delete does
    emu.ui.alerts.length = 0;
    sendAll('NO');
    const asked = alertTitled('Already sent');
    expect(asked).toHaveLength(1);
    expect(asked[0].message).toMatch(
      /^250 of these rows got this mail \(campaign "Winter offer"\) from this document on \d{4}-\d\d-\d\d/,
    );
    expect(alertTitled('Send e-mails')).toHaveLength(0); // nothing left to confirm: nothing to pay
    expect(twice(await perRecipient())).toEqual([]);
    for (const status of column('Leads', 'Mail status'))
      expect(status).toMatch(
        /^Skipped: got this mail on \d{4}-\d\d-\d\d \(the record of what you sent says so\)/,
      );
  });

  test('sending it again is a choice the confirmation states: Yes sends once more, to those rows only', async () => {
    open();
    listWithMail(emu, 'Leads', peopleRows(people(3)), MAIL);
    sendAll('YES');
    sheet('Leads').getRange('C2:F3').clearContent();
    sendAll('YES', 'YES'); // send it again, then the cost
    const counts = await perRecipient();
    expect(counts.get('person1@example.com')).toBe(2);
    expect(counts.get('person2@example.com')).toBe(2);
    expect(counts.get('person3@example.com')).toBe(1);
    expect(alertTitled('Send e-mails').pop().message).toMatch(/^Send 2 e-mails/);
  });

  test('a row deleted and typed again, or the list copied to a new sheet with the same campaign, is not mailed again', async () => {
    open();
    listWithMail(emu, 'Leads', peopleRows(people(5)), MAIL);
    sendAll('YES');
    sheet('Leads').deleteRow(3);
    sheet('Leads').appendRow(['Person 2', 'person2@example.com']);
    sendAll('NO');
    listWithMail(emu, 'Copy', peopleRows(people(6)), MAIL); // person6 is new
    sendAll('NO', 'YES');
    const counts = await perRecipient();
    expect(twice(counts)).toEqual([]);
    expect(counts.get('person6@example.com')).toBe(1);
  });

  test('one mailbox is one person: other spellings of a Gmail address are duplicates in a list, and mailed once across lists', async () => {
    open();
    listWithMail(
      emu,
      'Leads',
      peopleRows(['ann.lee@gmail.com', 'annlee+promo@gmail.com', 'AnnLee@googlemail.com']),
      MAIL,
    );
    sendAll('YES');
    expect((await perRecipient()).size).toBe(1);
    expect(column('Leads', 'Mail status').slice(1)).toEqual([
      'Skipped: duplicate of row 2',
      'Skipped: duplicate of row 2',
    ]);
    listWithMail(emu, 'Other', peopleRows(['a.n.n.l.e.e@gmail.com', 'new@example.com']), MAIL);
    sendAll('NO', 'YES');
    const counts = await perRecipient();
    expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(2);
  });
});

describe('Tracking follows every mail the record holds', () => {
  test.each(['per-request', 'per-mail'])(
    'ids cleared on the list and the Tracking rows deleted: the refresh still shows every mail (task shape %s)',
    async (taskShape) => {
      await control(services.sandbox.outreachUrl, 'POST', '/task-shape', { taskShape });
      open();
      listWithMail(emu, 'Leads', peopleRows(people(120)), MAIL);
      sendAll('YES');
      emu.run('refreshTracking', [], { kind: 'menu' });
      const before = rowsOf(emu, 'Tracking').map((r) => r['Mail ID']);
      expect(before).toHaveLength(120);
      const width = sheet('Leads').getLastColumn();
      sheet('Leads')
        .getRange(2, 3, 120, width - 2)
        .clearContent(); // Bob clears Mail status, Task ID, Mail ID, Sent at
      sheet('Tracking').deleteRows(2, 70); // and most of Tracking
      services.clock.advance(3600_000);
      emu.run('refreshTracking', [], { kind: 'menu' });
      const after = rowsOf(emu, 'Tracking');
      expect(after.map((r) => r['Mail ID']).sort()).toEqual([...before].sort());
      expect(after.every((r) => r['Mail status'] === 'Delivered')).toBe(true);
      expect(
        emu.ui.toasts
          .concat(emu.ui.alerts)
          .map((t) => t.message)
          .join('\n'),
      ).toMatch(
        /70 mails on no sheet \(their Mail ID cells were cleared or moved\) followed from the record of what you sent/,
      );
    },
  );
});

describe('Views are written where the rows are now', () => {
  test('a column inserted while the batch is on the wire: every mail finds its row, and the next send mails nobody again', async () => {
    open();
    listWithMail(emu, 'Leads', peopleRows(people(250)), MAIL);
    let inserted = false;
    emu.onFetch = (entries) => {
      if (inserted || !entries.some((e) => e.url.includes('/emails/send/personalized'))) return;
      inserted = true;
      sheet('Leads').insertColumnBefore(1); // Bob, at A
      sheet('Leads').getRange('A1').setValue('Notes');
    };
    sendAll('YES');
    expect(inserted).toBe(true);
    const rows = rowsOf(emu, 'Leads');
    expect(rows.every((r) => typeof r['Mail ID'] === 'number' && r['Mail status'] === 'Accepted')).toBe(true);
    expect(rows.every((r) => r.Notes === '')).toBe(true); // Bob's column untouched
    emu.onFetch = null;
    sendAll();
    expect(alertTitled('Nothing to send')).toHaveLength(1);
    expect(twice(await perRecipient())).toEqual([]);
    expect((await perRecipient()).size).toBe(250);
  });

  test('a column inserted and the rows sorted while Ann confirms: each person she confirmed gets the mail once, on their row', async () => {
    open();
    listWithMail(emu, 'Leads', peopleRows(people(250)), MAIL);
    emu.ui.respond((request) => {
      if (request.title !== 'Send e-mails' || request.buttons !== 'YES_NO') return undefined;
      const leads = sheet('Leads'); // Bob, while the question is open
      leads.insertColumnBefore(1);
      leads.getRange('A1').setValue('Notes');
      leads.getRange(2, 1, 250, leads.getLastColumn()).sort({ column: 2, ascending: false });
      return 'YES';
    });
    sendAll();
    const rows = rowsOf(emu, 'Leads');
    expect(rows).toHaveLength(250);
    expect(rows.every((r) => r.Notes === '')).toBe(true); // Bob's column untouched
    const ids = new Map(
      (await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${DEMO_KEYS.paid}`)).mails.map((m) => [
        m.recipientEmail,
        m.mailId,
      ]),
    );
    expect(ids.size).toBe(250);
    expect(rows.every((r) => r['Mail status'] === 'Accepted' && r['Mail ID'] === ids.get(r.Email))).toBe(
      true,
    );
    expect(twice(await perRecipient())).toEqual([]);
  });

  test("a row inserted between the writer's read and its write: the read-back puts every id on its own row", async () => {
    open();
    listWithMail(emu, 'Leads', peopleRows(people(30)), MAIL);
    let posted = false;
    let inserted = false;
    emu.onFetch = (entries) => {
      posted = posted || entries.some((e) => e.url.includes('/emails/send/personalized'));
    };
    emu.beforeCall = (label) => {
      if (!posted || inserted || label !== 'Range.setValues') return;
      inserted = true;
      sheet('Leads').insertRowBefore(2); // Bob adds a person, as the ids are written
      sheet('Leads')
        .getRange('A2:B2')
        .setValues([['New', 'new@example.com']]);
    };
    sendAll('YES');
    expect(inserted).toBe(true);
    emu.onFetch = emu.beforeCall = null;
    const { mails } = await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${DEMO_KEYS.paid}`);
    const idOf = new Map(mails.map((m) => [m.recipientEmail, m.mailId]));
    const rows = rowsOf(emu, 'Leads');
    expect(rows).toHaveLength(31);
    for (const r of rows.slice(1)) expect([r.Email, r['Mail ID']]).toEqual([r.Email, idOf.get(r.Email)]);
    expect([rows[0].Email, rows[0]['Mail ID'], rows[0]['Task ID'], rows[0]['Mail status']]).toEqual([
      'new@example.com',
      '',
      '',
      '',
    ]);
    expect(twice(await perRecipient())).toEqual([]);
  });

  test('the e-mail header renamed during the post: the batch stays owed, and is written once the header is back', async () => {
    open();
    listWithMail(emu, 'Leads', peopleRows(people(20)), MAIL);
    emu.onFetch = (entries) => {
      if (!entries.some((e) => e.url.includes('/emails/send/personalized'))) return;
      emu.onFetch = null;
      sheet('Leads').getRange('B1').setValue('Address');
    };
    sendAll('YES');
    expect(JSON.stringify([emu.ui.alerts, emu.ui.toasts])).toMatch(/cannot be written now/);
    expect((await perRecipient()).size).toBe(20);
    sheet('Leads').getRange('B1').setValue('Email');
    sendAll('NO');
    expect(column('Leads', 'Mail ID').every((id) => typeof id === 'number')).toBe(true);
    expect(twice(await perRecipient())).toEqual([]);
  });
});

describe('What the payer confirmed includes when and how fast', () => {
  test('an editor who removes the hourly limit holds the send until Ann reviews it; then her 10 an hour go on', async () => {
    open();
    const limited = { ...MAIL, hourlyLimit: 10 };
    listWithMail(emu, 'Leads', peopleRows(people(30)), limited);
    sendAll('YES');
    expect((await perRecipient()).size).toBe(10);
    emu.run('saveTemplate', [MAIL], { kind: 'webapp', user: BOB });
    emu.advanceTime(2 * 3600_000);
    expect((await perRecipient()).size).toBe(10);
    const statuses = column('Leads', 'Mail status').filter((s) => s !== 'Accepted' && s !== 'Delivered');
    expect(statuses).toHaveLength(20);
    for (const s of statuses)
      expect(s).toBe(
        'Held until the sender reviews the mail (the mail was changed after the send was confirmed: the sender opens Compose e-mail, checks the mail and saves it)',
      );
    // Ann reviews the mail in Compose and saves it as she wants it: the held rows go, at her pace, each once.
    emu.run('saveTemplate', [limited], { kind: 'webapp' });
    emu.advanceTime(3600_000);
    expect((await perRecipient()).size).toBe(20);
    emu.advanceTime(3600_000);
    const counts = await perRecipient();
    expect(counts.size).toBe(30);
    expect(twice(counts)).toEqual([]);
  });
});

describe('A duplicate row is not the person', () => {
  test("a row skipped as a duplicate shows none of the person's steps in its Sequence cell", async () => {
    open();
    const mail = { ...MAIL, followUps: [{ afterDays: 2, body: 'Following up, {{Name}}' }] };
    listWithMail(emu, 'Leads', peopleRows(['ann@example.com', 'bob@example.com', 'ann@example.com']), mail);
    sendAll('YES');
    emu.advanceTime(2 * 3600_000); // the hourly run writes the Sequence column
    const rows = rowsOf(emu, 'Leads');
    expect(rows[2]['Mail status']).toBe('Skipped: duplicate of row 2');
    expect(rows[0].Sequence).toMatch(/^Next: step 1 on /);
    expect(rows[2].Sequence).toBe('');
  });
});
