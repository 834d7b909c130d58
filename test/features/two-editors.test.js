'use strict';
// Through the built bundle: two users in one document, against the sandbox. Ann (the owner) pays
// with her key; Bob is an editor (with no key, or his own). They share the cells, the hidden template sheet
// and the document properties; each has their own user properties, caches and triggers. Every attack of
// the issue fails, the user is told what happened, and nothing is paid twice.
const { useServices, control, newAddon, DEMO_KEYS, jobKey } = require('../support/harness');
const { unlock } = require('../support/unlock');
const sheets = require('../support/sheets');
const { people, peopleRows } = sheets;
const { listWithMail } = require('../support/sent-mail');
const { leaveNextSendInDoubt, sendJournal } = require('../support/send-journal');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const ANN = 'ann@example.com';
const BOB = 'bob@example.com';
const BOB_KEY = 'sandbox-bob-key';
const HOUR = 3600_000;

const sheet = (name) => emu.spreadsheet.getSheetByName(name);
const statusOf = (name) => sheets.statusOf(emu, name);
const summary = () =>
  sheet('Tracking summary')
    .getRange('A1:B7')
    .getValues()
    .map((row) => row.join(': '))
    .join('\n');
const wallTime = (ms) => new Date(ms).toISOString().slice(0, 16);

async function mailsOf(key = DEMO_KEYS.paid) {
  return (await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${key}`)).mails;
}
async function perRecipient(key) {
  const counts = new Map();
  for (const m of await mailsOf(key)) counts.set(m.recipientEmail, (counts.get(m.recipientEmail) || 0) + 1);
  return counts;
}

/** The document, Ann at the keyboard with her key; Bob, an editor, with `bobKey` (none by default). */
async function annAndBob(bobKey) {
  emu = newAddon(services, { users: { owner: ANN, active: ANN } });
  if (bobKey) {
    await control(services.sandbox.outreachUrl, 'POST', '/accounts', { key: bobKey, addonEdm: 1000 });
    emu.run('saveSettings', [{ outreachBaseUrl: services.sandbox.outreachUrl, outreachApiKey: bobKey }], {
      kind: 'webapp',
      user: BOB,
    });
  }
}

/** Ann sends `rows` rows from "Outreach" while her daily limit is 100: the rest wait for the quota. */
async function sendUntilQuota(rows) {
  await control(services.sandbox.outreachUrl, 'POST', '/accounts', {
    key: DEMO_KEYS.paid,
    dailySendLimit: 100,
  });
  makeList('Outreach', people(rows));
  emu.ui.queue('YES');
  emu.run('sendAllUnsentRows', [], { kind: 'menu' });
}

const MAIL = { campaign: 'Spring offer', subject: 'Hello {{Name}}', body: 'Dear {{Name}}, our offer.' };

/** A mailing list (Name, Email) with its mail saved by Ann. */
function makeList(name, emails) {
  return listWithMail(emu, name, peopleRows(emails), MAIL);
}

/** Bob adds rows at the bottom of a list, as an editor types them. */
function bobAddsRows(name, emails, status = '') {
  const target = sheet(name);
  const header = target.getRange(1, 1, 1, target.getLastColumn()).getValues()[0];
  const values = emails.map((email) =>
    header.map((h) => (h === 'Email' ? email : h === 'Name' ? 'Mallory' : h === 'Mail status' ? status : '')),
  );
  target.getRange(target.getLastRow() + 1, 1, values.length, header.length).setValues(values);
}

describe('what you confirmed is what is sent', () => {
  test('a scheduled send whose mail another editor rewrote sends nothing, and the rows and the summary say so', async () => {
    await annAndBob();
    makeList('Later', ['a@example.com', 'b@example.com']);
    emu.run('scheduleSend', [wallTime(services.clock.now() + 2 * HOUR)], { kind: 'webapp' });
    expect(emu.ui.alerts.at(-1).message).toMatch(/Only this mail goes, to these rows as they are now/);

    // Bob, with no key of his own, rewrites the mail through Compose and adds 40 rows.
    emu.run('saveTemplate', [{ ...MAIL, body: 'PHISH: log in at http://evil.example' }], {
      kind: 'webapp',
      user: BOB,
    });
    bobAddsRows('Later', people(40));
    const runs = emu.advanceTime(3 * HOUR);
    expect(runs.every((r) => r.status === 'completed')).toBe(true);

    expect(await mailsOf()).toEqual([]); // nothing paid, nothing sent
    const statuses = Object.values(statusOf('Later'));
    expect(statuses).toHaveLength(42);
    expect(new Set(statuses)).toEqual(
      new Set(['Not sent: the mail was changed after you scheduled the send; schedule it again']),
    );
    expect(summary()).toMatch(/did not start: the mail was changed after you scheduled it/);
  });

  test('a scheduled send sends only the rows confirmed, as they were: rows added or changed by an editor say why they were not sent', async () => {
    await annAndBob();
    makeList('Later', ['a@example.com', 'b@example.com', 'c@example.com']);
    emu.run('scheduleSend', [wallTime(services.clock.now() + 2 * HOUR)], { kind: 'webapp' });
    bobAddsRows('Later', people(40));
    sheet('Later').getRange('A4').setValue('Mallory, click http://evil.example'); // c@'s name, in the mail
    emu.advanceTime(3 * HOUR);

    const counts = await perRecipient();
    expect([...counts.keys()].sort()).toEqual(['a@example.com', 'b@example.com']);
    expect([...counts.values()]).toEqual([1, 1]);
    const statuses = statusOf('Later');
    expect(statuses['a@example.com']).toMatch(/^(Accepted|Delivered)$/);
    const notConfirmed =
      'Not sent: added or changed after the send was scheduled; schedule it again to include it';
    expect(statuses['c@example.com']).toBe(notConfirmed);
    expect(people(40).map((email) => statuses[email])).toEqual(Array(40).fill(notConfirmed));
  });

  test('a send waiting for the quota sends only the rows it confirmed: "Queued" typed into other rows sends nothing', async () => {
    await annAndBob();
    await sendUntilQuota(150);
    expect(Object.values(statusOf('Outreach')).filter((s) => s.startsWith('Waiting'))).toHaveLength(50);

    bobAddsRows('Outreach', ['mallory@evil.example', 'eve@evil.example'], 'Queued');
    await control(services.sandbox.outreachUrl, 'POST', '/accounts', {
      key: DEMO_KEYS.paid,
      dailySendLimit: null,
    });
    emu.advanceTime(HOUR);

    const counts = await perRecipient();
    expect(counts.size).toBe(150);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(counts.has('mallory@evil.example')).toBe(false);
    const statuses = statusOf('Outreach');
    expect(statuses['eve@evil.example']).toMatch(/^Not sent: not part of the send you confirmed/);
    expect(summary()).toMatch(/2 not sent: not part of the send you confirmed/);
  });
});

describe('journals and jobs have an owner', () => {
  test('another key never settles your chunk in doubt: the editor is told, and your next send settles it without sending it twice', async () => {
    await annAndBob(BOB_KEY);
    makeList('Outreach', people(150));
    await leaveNextSendInDoubt(services.sandbox.outreachUrl);
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(Object.keys(sendJournal(emu)).length).toBeGreaterThan(0); // in doubt

    // Bob opens Send on the same sheet with his own key: told, nothing settled, nothing posted.
    emu.setActiveUser(BOB);
    emu.resetStats();
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(emu.ui.alerts.at(-1).message).toMatch(
      /Another editor's send from "Outreach" .* was cut off before the service answered: only they can tell, with their key/,
    );
    expect(emu.fetchLog.filter((r) => r.headers.Authorization === `ApiKey ${BOB_KEY}`)).toHaveLength(0);
    expect(Object.keys(sendJournal(emu)).length).toBeGreaterThan(0); // still Ann's to settle

    // Ann's next send settles it with her key, then sends the rest: every row once, paid once.
    emu.setActiveUser(ANN);
    emu.ui.queue('YES', 'YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    for (let i = 0; emu.properties.document.getProperty(jobKey(emu, 'send')) && i < 20; i++)
      emu.run('continueJob', ['send'], { kind: 'webapp' });
    const counts = await perRecipient();
    expect(counts.size).toBe(150);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(sendJournal(emu)).toEqual({});
  });

  test('another editor is never asked to continue your interrupted send, cannot stop or cancel it, and sends from other sheets', async () => {
    await annAndBob(BOB_KEY);
    await sendUntilQuota(150);

    emu.setActiveUser(BOB);
    emu.ui.reset();
    emu.run('stopJob', ['send'], { kind: 'webapp' });
    emu.run('cancelWaitingOrScheduledSend', [], { kind: 'menu' });
    expect(emu.ui.alerts.at(-1).message).toMatch(/You have no send waiting for the sending quota/);
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(emu.ui.alerts.map((a) => a.message).join('\n')).not.toMatch(/Continue it now\?/);
    expect(emu.ui.alerts.at(-1).message).toMatch(
      /Another editor's send from "Outreach" \(started .*\) is not finished, waiting for the sending quota: only they can continue or cancel it/,
    );
    // Bob's own list on another sheet goes out, with his key.
    makeList('Bob list', ['x@example.com', 'y@example.com']);
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect([...(await perRecipient(BOB_KEY)).keys()].sort()).toEqual(['x@example.com', 'y@example.com']);

    // The summary, written by Bob's refresh, tells every editor about Ann's waiting send.
    emu.run('refreshTracking', [], { kind: 'menu' });
    expect(summary()).toMatch(/"Outreach": 50 e-mails wait for the sending quota since/);

    // Ann's send is still hers: when her quota is back, her trigger sends its 50 rows, each once.
    expect(Object.values(statusOf('Outreach')).filter((s) => s.startsWith('Waiting'))).toHaveLength(50);
    await control(services.sandbox.outreachUrl, 'POST', '/accounts', {
      key: DEMO_KEYS.paid,
      dailySendLimit: null,
    });
    emu.advanceTime(HOUR);
    const counts = await perRecipient();
    expect(counts.size).toBe(150);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });

  test('your own interrupted send asks with its cost and the usable EDM; a changed key never continues it', async () => {
    await annAndBob();
    await sendUntilQuota(130);

    // A new key in Settings: the send made with the old one does not go on with it.
    emu.run('saveSettings', [{ outreachApiKey: DEMO_KEYS.free }], { kind: 'webapp' });
    emu.ui.queue('NO');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(emu.ui.alerts.at(-1).message).toMatch(/This send was started with another outreach API key/);
    expect(emu.fetchLog.filter((r) => r.headers.Authorization === `ApiKey ${DEMO_KEYS.free}`)).toHaveLength(
      0,
    );

    emu.run('saveSettings', [{ outreachApiKey: DEMO_KEYS.paid }], { kind: 'webapp' });
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    // Waiting for the quota is not an interruption: Yes keeps it waiting, and nothing is released.
    const question = emu.ui.alerts.filter((a) => a.title === 'A send is waiting').at(-1);
    expect(question.message).toMatch(/^Your send from "Outreach" .* has 30 e-mails left: .*sending quota/);
    expect(question.message).toMatch(
      /Cost as they go: at most 30 e-mail credits \(EDM, 1 per e-mail\)\.\nUsable e-mail credits \(EDM\): [\d,]+ \([\d,]+ monthly \+ [\d,]+ add-on\)/,
    );
    expect(question.message).toMatch(
      /\nNo: the 30 e-mails waiting are cancelled \(not sent; their Mail status says so\)/,
    );
    expect(
      Object.values(statusOf('Outreach')).filter((s) => /^Waiting for the sending quota/.test(s)),
    ).toHaveLength(30);
  });

  test("an editor's unlock leaves out the companies of your interrupted unlock, and is never asked to continue it", async () => {
    await annAndBob(BOB_KEY);
    await control(services.sandbox.outreachUrl, 'POST', '/accounts', { key: BOB_KEY, addonPoints: 100 });
    emu.run('searchCompanies', [{ products: 'solar', size: 6 }], { kind: 'webapp' });
    // Ann's unlock of rows 2-7 is cut off by the time limit after its first request.
    let cut = false;
    emu.onFetch = (entries) => {
      if (!cut && entries.some((e) => e.url.endsWith('/companies/unlock'))) {
        cut = true;
        services.clock.advance(5.9 * 60_000);
      }
    };
    emu.select('Companies!A2:A7');
    emu.ui.queue('YES');
    unlock(emu);
    emu.onFetch = null;
    const annJob = JSON.parse(emu.properties.document.getProperty(jobKey(emu, 'unlock')) || 'null');
    const left = annJob ? annJob.units.flatMap((u) => u.unlock || []) : [];
    expect(left.length).toBeGreaterThan(0);

    emu.setActiveUser(BOB);
    emu.ui.reset();
    emu.select('Companies!A2:A7');
    emu.ui.queue('YES');
    unlock(emu);
    expect(emu.ui.alerts.map((a) => a.title)).not.toContain('Unfinished unlock');
    expect(emu.ui.toasts.map((t) => t.message).join('\n')).toMatch(
      /in another editor's unfinished unlock: left to it/,
    );
    const bobUnlocks = emu.fetchLog.filter(
      (r) => r.url.endsWith('/companies/unlock') && r.headers.Authorization === `ApiKey ${BOB_KEY}`,
    );
    const bobIds = bobUnlocks.flatMap(
      (r) => JSON.parse(r.payload).company_ids || JSON.parse(r.payload).ids || [],
    );
    for (const id of left) expect(bobIds).not.toContain(id);
  });
});
