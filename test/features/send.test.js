'use strict';
// Through the built bundle: any sheet as a mailing list, compose and preview, and sending every row
// exactly once, whatever fails and whenever the run is cut off (mails counted per recipient at the sandbox).
const harness = require('../support/harness');
const { useServices, control, controlSync, newAddon, DEMO_KEYS, jobKey } = harness;
const sheets = require('../support/sheets');
const { journalSize, leaveNextSendInDoubt, sendJournal } = require('../support/send-journal');
const { takeRateSlots } = require('../support/rate-window');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const LIST = 'Outreach';
const sheet = () => emu.spreadsheet.getSheetByName(LIST);
const rowsOf = () => sheets.numberedRowsOf(emu, LIST);
const sendRequests = () => emu.fetchLog.filter((r) => r.url.endsWith('/emails/send/personalized')).length;

/** A mailing list of n recipients: Name, Email, Company (plus any extra rows). */
function makeList(n, extra = []) {
  const rows = [['Name', 'Email', 'Company']];
  for (let i = 1; i <= n; i++) rows.push([`Person ${i}`, `person${i}@example.com`, `Company ${i % 7}`]);
  return sheets.writeList(emu, LIST, [...rows, ...extra]);
}

function saveTemplate(template = {}) {
  return emu.run(
    'saveTemplate',
    [
      {
        campaign: 'Spring offer',
        subject: 'Hello {{Name}} from {{Company|us}}',
        body: 'Dear {{Name}},\nour offer for {{Company|your team}}.',
        bodyFormat: 'text',
        ...template,
      },
    ],
    { kind: 'webapp' },
  );
}

async function mailsAtSandbox() {
  return (await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${DEMO_KEYS.paid}`)).mails;
}

function perRecipient(mails) {
  const counts = new Map();
  for (const m of mails) counts.set(m.recipientEmail, (counts.get(m.recipientEmail) || 0) + 1);
  return counts;
}

/** Runs the progress dialog's steps until the job ends. */
const driveToEnd = (kind = 'send') => harness.driveToEnd(emu, kind);

async function expectEachOnce(n) {
  const counts = perRecipient(await mailsAtSandbox());
  for (let i = 1; i <= n; i++) expect(counts.get(`person${i}@example.com`)).toBe(1);
  expect([...counts.values()].every((c) => c === 1)).toBe(true);
  const rows = rowsOf().filter((r) => String(r.Email).startsWith('person'));
  const atSandbox = new Map((await mailsAtSandbox()).map((m) => [m.recipientEmail, m]));
  for (const row of rows.slice(0, n)) {
    expect(row['Mail status']).toBe('Accepted');
    // Each row carries its own mail's ids, whatever the service groups into tasks.
    const mail = atSandbox.get(row.Email);
    expect([row['Task ID'], row['Mail ID']]).toEqual([mail.taskId, mail.mailId]);
    expect(row['Sent at']).toBeInstanceOf(Date);
  }
  return rows;
}

describe('Compose', () => {
  test('headers to insert from, a saved template, a preview with fallbacks; unknown placeholders are named', () => {
    emu = newAddon(services);
    makeList(3, [['', 'someone@example.com', '']]);
    const state = emu.run('getComposeState', [], { kind: 'webapp' });
    expect(state.headers).toEqual(['Name', 'Email', 'Company']);
    saveTemplate();
    const preview = emu.run('previewMail', [5], { kind: 'webapp' });
    expect(preview.recipient).toBe('someone@example.com');
    // An empty {{Name}} without a fallback is no gap in the mail: the row is held, the preview shows where.
    expect(preview.subject).toBe('Hello {{Name}} from us');
    expect(preview.body).toBe('Dear {{Name}},\nour offer for your team.');
    expect(preview.problems).toEqual([
      'Row 5: {{Name}} is empty; a fallback such as {{Name|there}} fills it.',
    ]);
    const first = emu.run('previewMail', [2], { kind: 'webapp' });
    expect(first).toMatchObject({
      recipient: 'person1@example.com',
      nickname: 'Person 1',
      subject: 'Hello Person 1 from Company 1',
    });
    const bad = saveTemplate({ body: 'Hi {{Fist name}}, {{Name}}' });
    expect(bad.problems.join(' ')).toMatch(/\{\{Fist name\}\} matches no column of this sheet/);
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(emu.ui.alerts.at(-1).message).toMatch(/Fist name/);
    expect(emu.fetchLog.filter((r) => r.url.includes('/emails/'))).toHaveLength(0);
  });

  test('a 50,000-character Chinese body survives, kept in a hidden sheet of the document, not in its properties', () => {
    emu = newAddon(services);
    makeList(1);
    const body = `={{Name}}, ${'您好世界'.repeat(12_499)}`.slice(0, 50_000);
    saveTemplate({ body, campaign: 'Весенняя кампания' });
    const state = emu.run('getComposeState', [], { kind: 'webapp' });
    expect(state.template).toMatchObject({ body, campaign: 'Весенняя кампания' });
    const stored = emu.spreadsheet.getSheetByName('Outreach templates');
    expect(stored.isSheetHidden()).toBe(true);
    expect(emu.properties.document.bytes).toBeLessThan(2000);
    expect(emu.spreadsheet.getActiveSheet().getName()).toBe(LIST);
    // A shorter text replaces it entirely.
    saveTemplate({ body: 'Short' });
    expect(emu.run('getComposeState', [], { kind: 'webapp' }).template.body).toBe('Short');
  });

  test('an HTML body escapes inserted values: a <script> name is sent as text', async () => {
    emu = newAddon(services);
    makeList(0, [['<script>alert(1)</script>', 'x@example.com', 'ACME']]);
    saveTemplate({ body: '<p>Hello {{Name}}</p>', bodyFormat: 'html' });
    const preview = emu.run('previewMail', [2], { kind: 'webapp' });
    expect(preview.body).toBe('<p>Hello &lt;script&gt;alert(1)&lt;/script&gt;</p>');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    const [mail] = await mailsAtSandbox();
    expect(mail.content).toBe('<p>Hello &lt;script&gt;alert(1)&lt;/script&gt;</p>');
  });

  test('a test mail goes to the typed address only, says it costs 1 EDM', async () => {
    emu = newAddon(services);
    makeList(2);
    saveTemplate();
    expect(() => emu.run('sendTestMail', [2, 'not-an-address'], { kind: 'webapp' })).toThrow(
      /not a valid e-mail address/,
    );
    const text = emu.run('sendTestMail', [3, 'me@example.com'], { kind: 'webapp' });
    expect(text).toMatch(/Test of row 3 sent to me@example\.com .*1 e-mail credit \(EDM\) used/);
    const mails = await mailsAtSandbox();
    expect(mails.map((m) => [m.recipientEmail, m.subject])).toEqual([
      ['me@example.com', 'Hello Person 2 from Company 2'],
    ]);
    expect(rowsOf().every((r) => r['Mail status'] === undefined || r['Mail status'] === '')).toBe(true);
  });

  test('a test mail whose answer is lost and cannot be looked up is said to be in doubt; the next send settles it, never sending it again', async () => {
    emu = newAddon(services);
    makeList(2);
    saveTemplate();
    await leaveNextSendInDoubt(services.sandbox.outreachUrl);
    expect(() => emu.run('sendTestMail', [2, 'me@example.com'], { kind: 'webapp' })).toThrow(
      /Could not confirm whether the test was sent .*the next send settles it; it is never sent twice/,
    );
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    const mails = await mailsAtSandbox();
    expect(mails.filter((m) => m.recipientEmail === 'me@example.com')).toHaveLength(1);
    expect(perRecipient(mails).get('person1@example.com')).toBe(1);
    expect(sendJournal(emu)).toEqual({});
  });
});

// The spec lets a personalized send answer one task for the request or one task per mail (each element of
// tasks[] has its own task_id): the sender is run against the sandbox in both shapes.
describe.each(['per-request', 'per-mail'])('Sending (task shape: %s)', (taskShape) => {
  beforeEach(() => control(services.sandbox.outreachUrl, 'POST', '/task-shape', { taskShape }));

  test('every row is checked before any request; the confirmation states mails, skipped rows, cost and balance', async () => {
    emu = newAddon(services);
    makeList(5, [
      ['No address', '', 'X'],
      ['Bad', 'not an address', 'X'],
      ['Twice', 'PERSON2@example.com', 'X'],
    ]);
    saveTemplate();
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    const confirmation = emu.ui.alerts.find((a) => a.title === 'Send e-mails');
    expect(confirmation.message).toMatch(/Send 5 e-mails from "Outreach" \(campaign "Spring offer"\)/);
    expect(confirmation.message).toMatch(
      /1 without an e-mail address, 1 with an invalid address, 1 duplicate recipient\./,
    );
    expect(confirmation.message).toMatch(/Cost: 5 e-mail credits \(EDM, 1 per e-mail\)/);
    expect(confirmation.message).toMatch(
      /Usable e-mail credits \(EDM\): 3,000 \(1,000 monthly \+ 2,000 add-on\)/,
    );
    const rows = rowsOf();
    expect(rows[5]['Mail status']).toBe('Skipped: no e-mail address');
    expect(rows[6]['Mail status']).toBe('Skipped: "not an address" is not a valid e-mail address');
    expect(rows[7]['Mail status']).toBe('Skipped: duplicate of row 3');
    await expectEachOnce(5);
    expect(sendRequests()).toBe(1);
    // Run again: nothing is sent twice.
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(emu.ui.alerts.at(-1).title).toBe('Nothing to send');
    expect(emu.ui.alerts.at(-1).message).toMatch(/5 already sent/);
    expect(rowsOf()[7]['Mail status']).toBe('Skipped: already sent to this address in row 3');
    expect(sendRequests()).toBe(1);
  });

  test('a row whose mail failed (a bounce) is left by "all unsent" and sent again only when selected', async () => {
    emu = newAddon(services);
    makeList(3);
    saveTemplate();
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    const status =
      sheet().getRange(1, 1, 1, sheet().getLastColumn()).getValues()[0].indexOf('Mail status') + 1;
    sheet().getRange(3, status).setValue('Failed: Mailbox unavailable (550 hard bounce)');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(emu.ui.alerts.at(-1).title).toBe('Nothing to send');
    expect(emu.ui.alerts.at(-1).message).toMatch(/1 failed earlier .*select them/);
    expect(sendRequests()).toBe(1);
    sheet().getRange('A3:C3').activate();
    emu.run('sendSelectedRows', [], { kind: 'menu' });
    expect(sendRequests()).toBe(2);
    expect(perRecipient(await mailsAtSandbox()).get('person2@example.com')).toBe(2);
    expect(rowsOf()[1]['Mail status']).toBe('Accepted');
  });

  test('too little EDM is said before anything is sent, with the pricing page', async () => {
    emu = newAddon(services, { outreachKey: DEMO_KEYS.low });
    makeList(120);
    saveTemplate();
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    const alert = emu.ui.alerts.at(-1);
    expect(alert.title).toBe('Not enough e-mail credits');
    expect(alert.message).toMatch(
      /Cost: 120 e-mail credits[\s\S]*Usable e-mail credits \(EDM\): 100 \(60 monthly \+ 40 add-on\)/,
    );
    expect(alert.message).toContain(`${services.sandbox.outreachUrl}/pricing`);
    expect(sendRequests()).toBe(0);
  });

  test('a lost answer is settled by the chunk tag: found, ids written, nothing sent twice', async () => {
    emu = newAddon(services);
    makeList(150);
    saveTemplate();
    await control(services.sandbox.outreachUrl, 'POST', '/faults', {
      path: '/api/v1/emails/send/personalized',
      kind: 'lost-response',
      count: 1,
    });
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    if (emu.ui.dialogs.at(-1) && emu.ui.dialogs.at(-1).title === 'Sending e-mails') driveToEnd();
    await expectEachOnce(150);
    expect(sendRequests()).toBe(2);
    expect(
      emu.fetchLog.some((r) => r.url.includes('/emails/tasks?') && r.url.includes('task_subject=')),
    ).toBe(true);
  });

  test('a refused send (dropped before processing) is settled as absent and posted again', async () => {
    emu = newAddon(services);
    makeList(30);
    saveTemplate();
    await control(services.sandbox.outreachUrl, 'POST', '/faults', {
      path: '/api/v1/emails/send/personalized',
      kind: 'drop',
      count: 1,
    });
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    await expectEachOnce(30);
    expect(sendRequests()).toBe(2);
  });

  test('a 502 burst (refunded) is settled then retried a bounded number of times', async () => {
    emu = newAddon(services);
    makeList(20);
    saveTemplate();
    await control(services.sandbox.outreachUrl, 'POST', '/faults', {
      path: '/api/v1/emails/send/personalized',
      kind: 'status',
      status: 502,
      count: 2,
    });
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    await expectEachOnce(20);
    expect(sendRequests()).toBe(3);

    makeList(20, [['New', 'new@example.com', 'X']]);
    await control(services.sandbox.outreachUrl, 'POST', '/faults', {
      path: '/api/v1/emails/send/personalized',
      kind: 'status',
      status: 502,
      count: 3,
    });
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    const last = rowsOf().at(-1);
    expect(last['Mail status']).toMatch(/^Not sent: /);
    expect(perRecipient(await mailsAtSandbox()).get('new@example.com')).toBeUndefined();
  });

  test('429 rate-limit bursts wait within the budget; every row still gets exactly one mail', async () => {
    emu = newAddon(services);
    makeList(250);
    saveTemplate();
    await control(services.sandbox.outreachUrl, 'POST', '/faults', {
      path: '/api/v1/emails/send/personalized',
      kind: 'status',
      status: 429,
      count: 2,
    });
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    if (emu.ui.dialogs.at(-1) && emu.ui.dialogs.at(-1).title === 'Sending e-mails') driveToEnd();
    await expectEachOnce(250);
  });

  test('402 part-way through a batch stops the run: what was sent stays recorded, the rows not sent say so', async () => {
    emu = newAddon(services);
    makeList(450);
    saveTemplate();
    // After the confirmation read the balance, the account drops to 220 EDM: the five chunks go together
    // and the service takes two of them.
    emu.onFetch = (entries) => {
      if (entries.some((e) => e.url.endsWith('/credit/balance'))) {
        controlSync(services.sandbox.outreachUrl, 'POST', '/accounts', {
          key: DEMO_KEYS.paid,
          monthlyEdm: 220,
          addonEdm: 0,
        });
      }
    };
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    const stop = emu.ui.alerts.find((a) => a.title === 'Send stopped');
    expect(stop.message).toMatch(
      /Not enough e-mail credits \(EDM\)\. It needs 100 e-mail credits and 20 are available/,
    );
    expect(stop.message).toContain(`${services.sandbox.outreachUrl}/pricing`);
    expect(stop.message).toMatch(/200 e-mails were sent and recorded/);
    const rows = rowsOf();
    expect(rows.filter((r) => r['Mail status'] === 'Accepted')).toHaveLength(200);
    expect(rows.filter((r) => /^Not sent: /.test(r['Mail status']))).toHaveLength(250);
    expect((await mailsAtSandbox()).length).toBe(200);
  });

  test('a sort mid-run puts nothing on the wrong row', async () => {
    emu = newAddon(services);
    makeList(200);
    saveTemplate();
    let sorted = false;
    emu.onFetch = (entries) => {
      if (!sorted && entries.some((e) => e.url.endsWith('/send/personalized'))) {
        sorted = true;
        const target = sheet();
        target
          .getRange(2, 1, target.getLastRow() - 1, target.getLastColumn())
          .sort({ column: 1, ascending: false });
      }
    };
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(sorted).toBe(true);
    const rows = await expectEachOnce(200);
    const byId = new Map((await mailsAtSandbox()).map((m) => [m.mailId, m.recipientEmail]));
    for (const row of rows) expect(byId.get(row['Mail ID'])).toBe(row.Email);
  });

  test('the execution killed after the post, before the ids are written: the next step settles, never resends', async () => {
    emu = newAddon(services);
    makeList(300);
    saveTemplate();
    let killed = false;
    emu.onFetch = (entries) => {
      if (!killed && entries.some((e) => e.url.endsWith('/send/personalized'))) {
        killed = true;
        services.clock.advance(7 * 60 * 1000); // past the 6-minute limit: the next service call dies
      }
    };
    expect(() => emu.run('sendAllUnsentRows', [], { kind: 'menu' })).toThrow(
      /Exceeded maximum execution time/,
    );
    emu.onFetch = null;
    expect(rowsOf().filter((r) => r['Mail status'] === 'Queued')).toHaveLength(300);
    // The user runs the action again: it offers to continue; the chunk in doubt is settled first.
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    if (emu.ui.dialogs.at(-1) && emu.ui.dialogs.at(-1).title === 'Sending e-mails') driveToEnd();
    await expectEachOnce(300);
    expect(sendRequests()).toBe(3);
  });

  test('a second run while one holds the job is refused; re-clicking after a cut-off resumes without re-sending', async () => {
    emu = newAddon(services);
    makeList(10);
    saveTemplate();
    emu.properties.document.setProperty('job.send.lease', String(services.clock.now() + 60_000));
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(emu.ui.alerts.at(-1).message).toMatch(/already running in another window/);
    expect(sendRequests()).toBe(0);
  });

  test('6,500 rows: the chunks go four at most a fetch while the progress dialog watches, across executions, each row once', async () => {
    emu = newAddon(services);
    makeList(6500);
    saveTemplate();
    await control(services.sandbox.outreachUrl, 'POST', '/accounts', {
      key: DEMO_KEYS.paid,
      addonEdm: 10_000,
    });
    // A slow service: each fetch of sends takes 20 s, so the send needs more than the menu's execution.
    const polled = [];
    const journals = [];
    const perFetch = [];
    emu.onFetch = (entries) => {
      if (!entries.some((e) => e.url.endsWith('/send/personalized'))) return;
      perFetch.push(entries.length);
      services.clock.advance(20_000);
      // While a batch is on the wire the journal holds it: one entry (a head and its parts), compressed.
      journals.push(journalSize(emu));
      const saved = JSON.parse(
        emu.properties.document.getProperty(`${jobKey(emu, 'send')}.progress`) || 'null',
      );
      if (saved) polled.push(saved.done);
    };
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(emu.ui.dialogs.at(-1).title).toBe('Sending e-mails');
    // The menu's execution posted up to four chunks a fetch (Stop can act before each fetch) until its time
    // was up: the rest went in later executions.
    const batches = emu.fetchLog.filter((r) => r.url.endsWith('/send/personalized'));
    expect(perFetch.length).toBeGreaterThan(0);
    expect(perFetch.length).toBeLessThan(20);
    expect(Math.max(...perFetch)).toBe(4);
    expect(batches.length).toBe(perFetch.reduce((a, b) => a + b, 0));
    expect(batches.length).toBeLessThan(65);
    expect(rowsOf().filter((r) => r['Mail status'] === 'Accepted')).toHaveLength(batches.length * 100);
    const { progress, steps } = driveToEnd();
    expect(steps).toBeGreaterThanOrEqual(1);
    expect(polled).toEqual([...polled].sort((a, b) => a - b));
    expect(Math.max(...polled)).toBeGreaterThanOrEqual(6000);
    expect(progress.error).toBeUndefined();
    expect(progress.message).toMatch(/Sent 6,500 e-mails/);
    await expectEachOnce(6500);
    expect(sendRequests()).toBe(65);
    expect(journals.every((j) => j.heads === 1 && j.chars < 48_000)).toBe(true);
    // The rows are the record: the journal keeps no chunk and no list of tasks, only the last send's time.
    const kept = Object.keys(emu.properties.document.toJSON()).filter((k) => k.startsWith('send.'));
    expect(kept).toEqual(['send.lastAt']);
    const stats = await control(services.sandbox.outreachUrl, 'GET', '/stats');
    expect(stats.rateLimited.outreach).toBe(0);
  });
});

describe('Send journal', () => {
  test('long mails: a batch carries at most 20 MB of mails, the rest go in the next batch, each once', async () => {
    emu = newAddon(services);
    makeList(500);
    saveTemplate({ body: `Dear {{Name}},\n${'All the details of our offer. '.repeat(1630)}` });
    const fetches = [];
    emu.onFetch = (entries) => {
      const sends = entries.filter((e) => e.url.endsWith('/send/personalized'));
      if (sends.length) fetches.push(sends.reduce((n, e) => n + Buffer.byteLength(e.payload), 0));
    };
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    if (emu.ui.dialogs.at(-1) && emu.ui.dialogs.at(-1).title === 'Sending e-mails') driveToEnd();
    // Each mail is about 49 KB: four chunks of 100 fit in 20 MB, the fifth goes in the next batch.
    expect(fetches).toHaveLength(2);
    for (const bytes of fetches) expect(bytes).toBeLessThan(20 * 1024 * 1024 + 100 * 1024);
    expect(sendRequests()).toBe(5);
    await expectEachOnce(500);
  });

  test('a batch that waits for the rate window says so in the progress dialog', async () => {
    emu = newAddon(services);
    makeList(600);
    saveTemplate();
    const said = [];
    emu.onFetch = () => {
      const saved = JSON.parse(
        emu.properties.document.getProperty(`${jobKey(emu, 'send')}.progress`) || 'null',
      );
      if (saved) said.push(saved.message);
    };
    await takeRateSlots(emu, services, 55); // the user's sidebar made 55 requests this minute
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    // 4 chunks went at once (the confirmation's balance took the 56th slot); the next waited for the window.
    expect(said).toContain(
      'Working: Sent 400 e-mails, 200 to go (campaign "Spring offer"). Waiting for the service\'s rate limit (60 requests per minute).',
    );
    await expectEachOnce(600);
  });

  test('addresses that do not compress: each batch is cut so its journal entry stays under 48 KB, and every row is still sent once', async () => {
    emu = newAddon(services);
    const crypto = require('node:crypto');
    const n = 1500;
    const rows = Array.from({ length: n }, (_, i) => [
      `Person ${i}`,
      `${crypto.randomBytes(30).toString('hex')}@d${i}.example.com`,
      'ACME',
    ]);
    makeList(0, rows);
    saveTemplate();
    await control(services.sandbox.outreachUrl, 'POST', '/accounts', {
      key: DEMO_KEYS.paid,
      addonEdm: 10_000,
    });
    const entries = [];
    emu.onFetch = (fetched) => {
      if (!fetched.some((e) => e.url.endsWith('/send/personalized'))) return;
      entries.push(journalSize(emu));
    };
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    if (emu.ui.dialogs.at(-1) && emu.ui.dialogs.at(-1).title === 'Sending e-mails') driveToEnd();
    expect(entries.length).toBeGreaterThan(1); // 15 chunks would not fit one entry: several batches
    for (const entry of entries) {
      expect(entry.keys).toBeLessThanOrEqual(7); // a head and at most six parts of 8,000 characters
      expect(entry.chars).toBeLessThan(48_100);
    }
    const sent = perRecipient(await mailsAtSandbox());
    expect(sent.size).toBe(n);
    expect([...sent.values()].every((c) => c === 1)).toBe(true);
    expect(rowsOf().filter((r) => r['Mail status'] === 'Accepted')).toHaveLength(n);
  });
});
