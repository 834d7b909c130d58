'use strict';
// Through the built bundle, against the sandbox and its clock: the
// Do not contact sheet, the {{Unsubscribe}} line, earlier failures kept out of later sends, a scheduled send,
// the quota continuation, and the one hourly trigger per user and document that serves auto-refresh,
// scheduled sends and waiting sends (each user's own, re-authorization recorded where the user sees it).
const { useServices, control, newAddon, DEMO_KEYS, jobKey } = require('../support/harness');
const { turnAutoRefresh } = require('../support/auto-refresh');
const sheets = require('../support/sheets');
const { people, peopleRows } = sheets;
const { listWithMail } = require('../support/sent-mail');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const HOUR = 3600_000;
const sheet = (name) => emu.spreadsheet.getSheetByName(name);
const rowsOf = (name, headerRow) => sheets.numberedRowsOf(emu, name, headerRow);
const statusOf = (name) => sheets.statusOf(emu, name);
const clockTriggers = () => emu.triggers.filter((t) => t.eventType === 'CLOCK');
const summaryCell = (label) => sheets.summaryCell(emu, label);
const triggerRecord = () =>
  JSON.parse(
    emu.properties.document.getProperty(`timer.user.${emu.properties.user.getProperty('timer.userToken')}`),
  );

async function mailsAtSandbox(key = DEMO_KEYS.paid) {
  return (await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${key}`)).mails;
}
async function perRecipient() {
  const counts = new Map();
  for (const m of await mailsAtSandbox())
    counts.set(m.recipientEmail, (counts.get(m.recipientEmail) || 0) + 1);
  return counts;
}

/** A mailing list (Name, Email) on `name`, made the active sheet, with its template saved. */
function makeList(name, emails, template = {}) {
  return listWithMail(emu, name, peopleRows(emails), {
    campaign: 'Spring offer',
    subject: 'Hello {{Name}}',
    body: 'Dear {{Name}},\n{{Unsubscribe}}',
    ...template,
  });
}

function setUnsubscribe(address = 'unsubscribe@seller.example') {
  emu.run('saveSettings', [{ unsubscribeAddress: address }], { kind: 'webapp' });
}

function doNotContact(entries) {
  const target = sheet('Do not contact') || emu.spreadsheet.insertSheet('Do not contact');
  target.getRange(1, 1, entries.length + 1, 2).setValues([['E-mail', 'Reason'], ...entries]);
}

/** The wall time (the spreadsheet's zone is Etc/UTC) as the dialog's date-time field gives it. */
const wallTime = (ms) => new Date(ms).toISOString().slice(0, 16);
const clockText = (ms) => new Date(ms).toISOString().slice(11, 16);
const dayText = (ms) => new Date(ms).toISOString().slice(0, 10);

describe('Do not contact', () => {
  test('the menu makes the sheet on first use and adds the selected rows; sends and test sends skip listed addresses and @domains', async () => {
    emu = newAddon(services);
    setUnsubscribe();
    makeList('Outreach', [
      'jane@example.com',
      'Bob@Blocked.example',
      'ann@sub.blocked.example',
      'kim@example.com',
      'max@example.com',
    ]);
    expect(emu.spreadsheet.getSheetByName('Do not contact')).toBeNull();
    emu.select('A5:B5'); // kim
    emu.run('addToDoNotContact', [], { kind: 'menu' });
    const list = rowsOf('Do not contact');
    expect(list).toEqual([
      expect.objectContaining({
        'E-mail': 'kim@example.com',
        Reason: expect.stringMatching(/^added from "Outreach" on 2026-/),
      }),
    ]);
    expect(emu.ui.toasts.at(-1).message).toMatch(/1 address added to "Do not contact"/);
    // Typed by the user: a whole domain (subdomains too), any case and spaces.
    sheet('Do not contact')
      .getRange('A3:B4')
      .setValues([
        ['  @BLOCKED.example ', 'asked to be left alone'],
        [' MAX@example.com', ''],
      ]);
    emu.spreadsheet.setActiveSheet(sheet('Outreach'));
    emu.run('addToDoNotContact', [], { kind: 'menu' }); // the same row again: kept once
    expect(rowsOf('Do not contact')).toHaveLength(3);

    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    const confirmation = emu.ui.alerts.find((a) => a.title === 'Send e-mails');
    expect(confirmation.message).toMatch(/Send 1 e-mail from "Outreach"/);
    expect(confirmation.message).toMatch(/4 on the do-not-contact list/);
    expect(statusOf('Outreach')).toEqual({
      'jane@example.com': 'Accepted',
      'Bob@Blocked.example': 'Skipped: on the do-not-contact list (asked to be left alone)',
      'ann@sub.blocked.example': 'Skipped: on the do-not-contact list (asked to be left alone)',
      'kim@example.com': expect.stringMatching(
        /^Skipped: on the do-not-contact list \(added from "Outreach" on /,
      ),
      'max@example.com': 'Skipped: on the do-not-contact list',
    });
    expect([...(await perRecipient()).keys()]).toEqual(['jane@example.com']);

    expect(() => emu.run('sendTestMail', [2, 'bob@blocked.example'], { kind: 'webapp' })).toThrow(
      /bob@blocked.example is on the do-not-contact list \(asked to be left alone\): the test was not sent/,
    );
    expect(await mailsAtSandbox()).toHaveLength(1);
  });
});

describe('The unsubscribe line', () => {
  test('{{Unsubscribe}} is a mailto: link in HTML and a line in text; compose warns when a mail has none', async () => {
    emu = newAddon(services);
    makeList('Outreach', ['jane@example.com']);
    let state = emu.run('getComposeState', [], { kind: 'webapp' });
    expect(state.problems).toEqual(['{{Unsubscribe}} needs an unsubscribe address: set it in Settings.']);
    setUnsubscribe('stop@seller.example');
    let preview = emu.run('previewMail', [2], { kind: 'webapp' });
    expect(preview.body).toBe(
      'Dear Person 1,\nTo unsubscribe, reply to stop@seller.example with the subject "Unsubscribe".',
    );
    emu.run(
      'saveTemplate',
      [
        {
          campaign: 'C',
          subject: 'Hi',
          body: '<p>Hi {{Name}}</p><p>{{ unsubscribe }}</p>',
          bodyFormat: 'html',
        },
      ],
      { kind: 'webapp' },
    );
    preview = emu.run('previewMail', [2], { kind: 'webapp' });
    expect(preview.body).toBe(
      '<p>Hi Person 1</p><p><a href="mailto:stop@seller.example?subject=Unsubscribe">Unsubscribe</a></p>',
    );
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect((await mailsAtSandbox())[0].content).toContain(
      'href="mailto:stop@seller.example?subject=Unsubscribe"',
    );

    state = emu.run('saveTemplate', [{ campaign: 'C', subject: 'Hi', body: 'No way out' }], {
      kind: 'webapp',
    });
    expect(state.problems).toEqual([]);
    expect(state.warnings[0]).toMatch(/no unsubscribe line: add \{\{Unsubscribe\}\}/);
  });
});

describe.each(['per-request', 'per-mail'])('Campaign tools (task shape: %s)', (taskShape) => {
  beforeEach(() => control(services.sandbox.outreachUrl, 'POST', '/task-shape', { taskShape }));

  test('a bounced address is kept out of a later send from another sheet; selecting it asks first', async () => {
    emu = newAddon(services);
    setUnsubscribe();
    makeList('Spring', ['jane@example.com', 'bounce.bob@example.com', 'ann@example.com']);
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    services.clock.advance(20_000);
    emu.run('refreshTracking', [], { kind: 'menu' });
    expect(statusOf('Spring')['bounce.bob@example.com']).toBe(
      'Failed: Mailbox unavailable (550 hard bounce)',
    );

    makeList('Autumn', ['Bounce.Bob@example.com', 'kim@example.com', 'ann@example.com']);
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    const confirmation = emu.ui.alerts.at(-1);
    expect(confirmation.message).toMatch(/Send 2 e-mails from "Autumn"/);
    expect(confirmation.message).toMatch(/1 whose address failed in an earlier mail/);
    // (the date is the day of the bounce on the suite's shared clock)
    expect(statusOf('Autumn')['Bounce.Bob@example.com']).toMatch(
      /^Skipped: an earlier mail to this address failed \(Mailbox unavailable \(550 hard bounce\), \d{4}-\d\d-\d\d\)$/,
    );

    // Selected: a question of its own names the row; No skips it with the reason and sends the others.
    makeList('Winter', ['bounce.bob@example.com', 'lee@example.com']);
    emu.select('A2:B3');
    emu.ui.queue('NO', 'YES');
    emu.run('sendSelectedRows', [], { kind: 'menu' });
    const [question, send] = emu.ui.alerts.slice(-2);
    expect(question.title).toBe('Addresses that failed before');
    expect(question.message).toMatch(
      /Row 2: bounce.bob@example.com \(Mailbox unavailable \(550 hard bounce\), \d{4}-\d\d-\d\d\)/,
    );
    expect(send.message).toMatch(/Send 1 e-mail from "Winter"/);
    expect(statusOf('Winter')['bounce.bob@example.com']).toMatch(
      /^Skipped: an earlier mail to this address failed/,
    );
    // Yes sends it (the user was told it will most likely fail again).
    emu.ui.queue('YES', 'YES');
    emu.run('sendSelectedRows', [], { kind: 'menu' });
    expect(statusOf('Winter')['bounce.bob@example.com']).toBe('Accepted');
    const counts = await perRecipient();
    expect(counts.get('bounce.bob@example.com')).toBe(2);
    expect(counts.get('ann@example.com')).toBe(2); // sent, not failed: another sheet may mail it
    expect(counts.get('lee@example.com')).toBe(1);
  });

  test('a send scheduled two hours ahead with auto-refresh on: nothing an hour ahead, sent when due, listed addresses skipped', async () => {
    emu = newAddon(services);
    setUnsubscribe();
    makeList('Earlier', ['jane@example.com']);
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    turnAutoRefresh(emu, true);
    expect(clockTriggers()).toHaveLength(1);

    makeList('Later', ['a@example.com', 'b@blocked.example', 'c@example.com', 'd@example.com']);
    doNotContact([
      ['@blocked.example', 'competitor'],
      ['D@example.com', 'unsubscribed by reply'],
    ]);
    emu.spreadsheet.setActiveSheet(sheet('Later'));
    const at = Math.floor((services.clock.now() + 2 * HOUR) / 60_000) * 60_000;
    emu.ui.queue('NO');
    const refused = emu.run('scheduleSend', [wallTime(at)], { kind: 'webapp' });
    expect(refused).toMatchObject({ scheduled: false, schedule: null, message: 'Nothing was scheduled.' });
    expect(emu.properties.document.getProperty(`schedule.${sheet('Later').getSheetId()}`)).toBeNull();

    emu.ui.queue('YES');
    const answer = emu.run('scheduleSend', [wallTime(at)], { kind: 'webapp' });
    // The question came first, with the rows, the cost, the usable EDM and when it starts.
    const question = emu.ui.alerts.at(-1);
    expect(question).toMatchObject({ title: 'Schedule a send', buttons: 'YES_NO', response: 'YES' });
    expect(question.message).toMatch(/^Send 2 e-mails from "Later"/);
    expect(question.message).toMatch(
      /2 on the do-not-contact list\.\nCost: 2 e-mail credits \(EDM, 1 per e-mail\)\.\nUsable e-mail credits \(EDM\): [\d,]+/,
    );
    expect(question.message).toContain(
      `It starts between ${clockText(at)} and ${clockText(at + HOUR)} on ${dayText(at)} (Etc/UTC)`,
    );
    expect(question.message).toMatch(/Schedule this send\?$/);
    expect(answer.scheduled).toBe(true);
    expect(answer.message).toContain(
      `Scheduled: 2 e-mails from "Later" start between ${clockText(at)} and ${clockText(at + HOUR)} on ${dayText(at)} (Etc/UTC)`,
    );
    expect(answer.schedule).toMatchObject({ when: wallTime(at), zone: 'Etc/UTC' });
    expect(emu.run('getComposeState', [], { kind: 'webapp' }).schedule.text).toContain(
      `between ${clockText(at)} and ${clockText(at + HOUR)}`,
    );
    expect(clockTriggers()).toHaveLength(1); // the auto-refresh trigger serves it too
    expect(statusOf('Later')['a@example.com'] ?? '').toBe(''); // nothing written yet (its column comes with the first)

    const [early] = emu.advanceTime(HOUR); // an hour ahead: refreshes, sends nothing
    expect(early.status).toBe('completed');
    expect((await perRecipient()).has('a@example.com')).toBe(false);
    expect(sheet('Tracking').getLastRow()).toBe(2);
    // The user adds another address to the list before it runs: checked again as the rows are then.
    sheet('Do not contact')
      .getRange('A4:B4')
      .setValues([['c@example.com', 'bounced elsewhere']]);
    const runs = emu.advanceTime(2 * HOUR);
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((r) => r.status === 'completed')).toBe(true);
    expect(statusOf('Later')).toEqual({
      'a@example.com': 'Delivered', // the run after the send refreshed it
      'b@blocked.example': 'Skipped: on the do-not-contact list (competitor)',
      'c@example.com': 'Skipped: on the do-not-contact list (bounced elsewhere)',
      'd@example.com': 'Skipped: on the do-not-contact list (unsubscribed by reply)',
    });
    const mails = await mailsAtSandbox();
    expect(mails.map((m) => m.recipientEmail).sort()).toEqual(['a@example.com', 'jane@example.com']);
    const sentAt = Date.parse(mails.find((m) => m.recipientEmail === 'a@example.com').createdAt);
    expect(sentAt).toBeGreaterThanOrEqual(at); // in the hour the dialog stated
    expect(sentAt).toBeLessThan(at + HOUR);
    expect(summaryCell('Waiting and scheduled sends')).toMatch(
      /Last waiting or scheduled send .*: Sent 1 e-mail, 3 skipped/,
    );
    expect(emu.properties.document.getProperty(`schedule.${sheet('Later').getSheetId()}`)).toBeNull();
    emu.advanceTime(3 * HOUR); // every mail is final, but opens are read for 14 days after the send
    expect(clockTriggers()).toHaveLength(1);
    services.clock.advance(14 * 24 * HOUR);
    emu.advanceTime(HOUR); // then nothing can change: auto-refresh ends, nothing else is left
    expect(clockTriggers()).toHaveLength(0);
    expect(emu.executions.filter((e) => e.kind === 'trigger').every((e) => e.status === 'completed')).toBe(
      true,
    );
  });

  test('a quota that runs out after the first chunk of 250 rows: 100 sent, 150 wait, then all 250 exactly once', async () => {
    emu = newAddon(services);
    setUnsubscribe();
    await control(services.sandbox.outreachUrl, 'POST', '/accounts', {
      key: DEMO_KEYS.paid,
      dailySendLimit: 100,
    });
    makeList('Outreach', people(250));
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    const paused = emu.ui.alerts.at(-1);
    expect(paused.title).toBe('Send paused');
    expect(paused.message).toMatch(
      /The sending quota is used up \(Daily quota exceeded; it resets at 00:00 UTC\)/,
    );
    expect(paused.message).toMatch(
      /100 e-mails were sent .*The 150 e-mails left wait for it: the add-on tries again every hour/s,
    );
    let statuses = Object.values(statusOf('Outreach'));
    expect(statuses.filter((s) => s === 'Accepted')).toHaveLength(100);
    expect(
      statuses.filter(
        (s) => s === 'Waiting for the sending quota (Daily quota exceeded; it resets at 00:00 UTC)',
      ),
    ).toHaveLength(150);
    expect(clockTriggers()).toHaveLength(1);

    emu.advanceTime(2 * HOUR); // two hourly tries: still exhausted, nothing more posted
    expect((await mailsAtSandbox()).length).toBe(100);
    expect(clockTriggers()).toHaveLength(1);
    emu.run('refreshTracking', [], { kind: 'menu' });
    expect(summaryCell('Waiting and scheduled sends')).toMatch(
      /"Outreach": 150 e-mails wait for the sending quota since /,
    );

    await control(services.sandbox.outreachUrl, 'POST', '/accounts', {
      key: DEMO_KEYS.paid,
      dailySendLimit: null,
    });
    const [run] = emu.advanceTime(HOUR);
    expect(run.status).toBe('completed');
    const counts = await perRecipient();
    expect(counts.size).toBe(250);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    statuses = Object.values(statusOf('Outreach'));
    expect(statuses.filter((s) => !['Accepted', 'Delivered'].includes(s))).toEqual([]); // the first 100 were refreshed
    expect(emu.properties.document.getProperty(jobKey(emu, 'send'))).toBeNull();
    expect(clockTriggers()).toHaveLength(1); // the next run refreshes what the waiting or scheduled send posted
    emu.advanceTime(HOUR);
    expect(Object.values(statusOf('Outreach')).every((s) => s === 'Delivered')).toBe(true);
    expect(clockTriggers()).toHaveLength(0); // nothing left for it
  });

  test('a failed row keeps its own "Failed: <reason>" when a later send skips it; the next confirmation counts it as failed', async () => {
    emu = newAddon(services);
    setUnsubscribe();
    const list = makeList('Spring', ['jane@example.com', 'bounce.bob@example.com']);
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    services.clock.advance(20_000);
    emu.run('refreshTracking', [], { kind: 'menu' });
    const FAILED = 'Failed: Mailbox unavailable (550 hard bounce)';
    expect(statusOf('Spring')['bounce.bob@example.com']).toBe(FAILED);

    // Another row with the same address, and a new one: only the other row says the address failed before.
    list.getRange('A4:B5').setValues([
      ['Bob again', 'Bounce.Bob@example.com'],
      ['Kim', 'kim@example.com'],
    ]);
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    const first = emu.ui.alerts.at(-1).message;
    expect(first).toMatch(/Send 1 e-mail from "Spring"/);
    expect(first).toMatch(/1 failed earlier \(see "Mail status"\)/);
    expect(first).toMatch(/1 whose address failed in an earlier mail/);
    expect(first).toMatch(/\n1 already sent/); // jane only: the failed row is not "sent"
    const rows = rowsOf('Spring');
    expect(rows.map((r) => r['Mail status'])).toEqual(
      [
        expect.stringMatching(/^(Accepted|Delivered)$/),
        FAILED,
        expect.stringMatching(
          /^Skipped: an earlier mail to this address failed \(Mailbox unavailable \(550 hard bounce\), \d{4}-\d\d-\d\d\)$/,
        ),
        'Accepted',
      ].slice(0, 4),
    );

    // Selected and answered No: the failed row keeps its own story; the other row keeps its reason.
    emu.select('A3:B3');
    emu.ui.queue('NO');
    emu.run('sendSelectedRows', [], { kind: 'menu' });
    expect(emu.ui.alerts.at(-2).title).toBe('Addresses that failed before');
    expect(emu.ui.alerts.at(-1).title).toBe('Nothing to send');
    expect(emu.ui.alerts.at(-1).message).toMatch(/1 failed earlier/);
    expect(statusOf('Spring')['bounce.bob@example.com']).toBe(FAILED);
    expect(rowsOf('Spring')[2]['Mail status']).toMatch(/^Skipped: an earlier mail to this address failed/);

    // The next confirmation still counts it as failed, not as sent.
    list.getRange('A6:B6').setValues([['Lee', 'lee@example.com']]);
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    const next = emu.ui.alerts.at(-1).message;
    expect(next).toMatch(/Send 1 e-mail from "Spring"/);
    expect(next).toMatch(/1 failed earlier/);
    expect(next).toMatch(/2 already sent/);
    expect(statusOf('Spring')['bounce.bob@example.com']).toBe(FAILED);
    expect((await perRecipient()).get('bounce.bob@example.com')).toBe(1);
  });

  test('auto-refresh on in a document that never sent, a send scheduled two hours ahead: the trigger stays, and a bounce in it is known before a later send from another sheet', async () => {
    emu = newAddon(services);
    setUnsubscribe();
    turnAutoRefresh(emu, true);
    makeList('Later', ['a@example.com', 'bounce.carl@example.com']);
    const at = Math.floor((services.clock.now() + 2 * HOUR) / 60_000) * 60_000;
    emu.run('scheduleSend', [wallTime(at)], { kind: 'webapp' });

    const [early] = emu.advanceTime(HOUR); // nothing sent yet: auto-refresh stays on for the scheduled send
    expect(early.status).toBe('completed');
    expect(triggerRecord().auto.on).toBe(true);
    expect(triggerRecord().lastRun.message).toMatch(/auto-refresh stays on for a send scheduled for later/);
    expect(clockTriggers()).toHaveLength(1);

    let sentBy = null;
    for (let hour = 0; hour < 4 && !sentBy; hour++) {
      emu.advanceTime(HOUR);
      if ((await perRecipient()).has('a@example.com')) sentBy = services.clock.now();
    }
    expect(sentBy).not.toBeNull();
    expect(triggerRecord().auto.on).toBe(true);
    emu.advanceTime(HOUR); // the first run after the scheduled send refreshes what it sent
    expect(statusOf('Later')['bounce.carl@example.com']).toBe(
      'Failed: Mailbox unavailable (550 hard bounce)',
    );
    expect(triggerRecord().refreshAfterSend).toBeUndefined();

    makeList('Next', ['Bounce.Carl@example.com', 'dan@example.com']);
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(emu.ui.alerts.at(-1).message).toMatch(/Send 1 e-mail from "Next"/);
    expect(statusOf('Next')['Bounce.Carl@example.com']).toMatch(
      /^Skipped: an earlier mail to this address failed \(Mailbox unavailable/,
    );
    expect((await perRecipient()).get('bounce.carl@example.com')).toBe(1);
  });

  test('two sends scheduled an hour apart from two sheets: the run that starts the second first refreshes the first, so its bounce is skipped', async () => {
    emu = newAddon(services);
    setUnsubscribe();
    makeList('First', ['bounce.gus@example.com', 'hal@example.com']);
    const first = Math.floor((services.clock.now() + HOUR) / 60_000) * 60_000;
    emu.run('scheduleSend', [wallTime(first)], { kind: 'webapp' });
    makeList('Second', ['Bounce.Gus@example.com', 'ida@example.com']);
    emu.run('scheduleSend', [wallTime(first + HOUR)], { kind: 'webapp' });
    for (let hour = 0; hour < 4 && !(await perRecipient()).has('ida@example.com'); hour++)
      emu.advanceTime(HOUR);
    expect((await perRecipient()).get('ida@example.com')).toBe(1);
    expect(statusOf('First')['bounce.gus@example.com']).toBe('Failed: Mailbox unavailable (550 hard bounce)');
    expect(statusOf('Second')['Bounce.Gus@example.com']).toMatch(
      /^Skipped: an earlier mail to this address failed \(Mailbox unavailable/,
    );
    expect((await perRecipient()).get('bounce.gus@example.com')).toBe(1);
  });

  test('auto-refresh off: the first trigger run after a scheduled send still refreshes what it sent, then the trigger goes', async () => {
    emu = newAddon(services);
    setUnsubscribe();
    makeList('Later', ['bounce.eve@example.com', 'fay@example.com']);
    const at = Math.floor((services.clock.now() + HOUR) / 60_000) * 60_000;
    emu.run('scheduleSend', [wallTime(at)], { kind: 'webapp' });
    for (let hour = 0; hour < 4 && !(await perRecipient()).has('fay@example.com'); hour++)
      emu.advanceTime(HOUR);
    expect(triggerRecord().refreshAfterSend).toEqual(expect.any(Number));
    expect(clockTriggers()).toHaveLength(1); // kept for the refresh it owes
    emu.advanceTime(HOUR);
    expect(statusOf('Later')['bounce.eve@example.com']).toBe('Failed: Mailbox unavailable (550 hard bounce)');
    // "Off" beside a last automatic run says which run that was.
    expect(summaryCell('Auto-refresh')).toMatch(
      /^Off .* The last automatic run was the one refresh the hourly run makes after a waiting or scheduled send, auto-refresh off or not\.$/,
    );
    expect(summaryCell('Last automatic run')).not.toBe('none yet');
    expect(clockTriggers()).toHaveLength(0);
    expect(emu.executions.filter((e) => e.kind === 'trigger').every((e) => e.status === 'completed')).toBe(
      true,
    );
  });
});

describe('Waiting sends and the one trigger', () => {
  test('a waiting send gives up after 7 days and says so; another is cancelled from the menu', async () => {
    emu = newAddon(services);
    await control(services.sandbox.outreachUrl, 'POST', '/accounts', {
      key: DEMO_KEYS.quota,
      monthlyEdm: 500,
    });
    emu.run('saveSettings', [{ outreachApiKey: DEMO_KEYS.quota }], { kind: 'webapp' });
    makeList('Outreach', people(3), { body: 'Hi {{Name}}' });
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(Object.values(statusOf('Outreach'))[0]).toMatch(/^Waiting for the sending quota/);
    emu.advanceTime(7 * 24 * HOUR, { fireTriggers: false }); // a week of hourly tries, in one step
    emu.advanceTime(HOUR);
    expect(Object.values(statusOf('Outreach'))).toEqual(
      Array(3).fill(
        'Not sent: gave up waiting for the sending quota after 7 days (Daily quota exceeded; it resets at 00:00 UTC)',
      ),
    );
    expect(summaryCell('Waiting and scheduled sends')).toMatch(
      /Gave up waiting for the sending quota after 7 days/,
    );
    expect(clockTriggers()).toHaveLength(0);

    emu.spreadsheet.setActiveSheet(sheet('Outreach'));
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(clockTriggers()).toHaveLength(1);
    emu.ui.queue('YES');
    emu.run('cancelWaitingOrScheduledSend', [], { kind: 'menu' });
    expect(emu.ui.alerts.at(-1).message).toMatch(/waits for the sending quota .* with 3 e-mails left/);
    expect(Object.values(statusOf('Outreach'))).toEqual(
      Array(3).fill('Not sent: the send waiting for the sending quota was cancelled'),
    );
    expect(clockTriggers()).toHaveLength(0);
    expect(emu.properties.document.getProperty(jobKey(emu, 'send'))).toBeNull();
  });

  test.each([true, false])(
    "two editors each turn auto-refresh on and off and never touch each other's trigger (time-driven triggers listed by getUserTriggers: %s)",
    (listed) => {
      emu = newAddon(services, { userTriggersListClock: listed });
      makeList('Outreach', ['jane@example.com'], { body: 'Hi' });
      emu.ui.queue('YES');
      emu.run('sendAllUnsentRows', [], { kind: 'menu' });
      turnAutoRefresh(emu, true);
      const ownerTrigger = clockTriggers()[0].id;
      emu.setActiveUser('editor@example.com');
      emu.properties.user.setProperty('settings.outreachApiKey', DEMO_KEYS.paid);
      // The editor sees their own switch: off.
      emu.ui.queue('NO');
      emu.run('toggleAutoRefresh', [], { kind: 'menu' });
      expect(emu.ui.alerts.at(-1).message).toMatch(/Auto-refresh is OFF for you/);
      turnAutoRefresh(emu, true);
      expect(
        clockTriggers()
          .map((t) => t.user)
          .sort(),
      ).toEqual(['editor@example.com', 'owner@example.com']);
      turnAutoRefresh(emu, false);
      expect(clockTriggers().map((t) => t.id)).toEqual([ownerTrigger]);
      turnAutoRefresh(emu, true);
      emu.setActiveUser('owner@example.com');
      emu.ui.queue('YES');
      emu.run('toggleAutoRefresh', [], { kind: 'menu' });
      expect(emu.ui.alerts.at(-1).message).toMatch(/Auto-refresh is ON for you/);
      expect(clockTriggers().map((t) => t.user)).toEqual(['editor@example.com']);
      expect(triggerRecord().auto).toMatchObject({ on: false, offReason: 'turned off from the menu.' });
      emu.setActiveUser('editor@example.com');
      expect(triggerRecord().auto.on).toBe(true);
      emu.advanceTime(HOUR); // the editor's trigger runs with the editor's key
      expect(emu.executions.at(-1)).toMatchObject({ kind: 'trigger', status: 'completed' });
      expect(summaryCell('Auto-refresh')).toMatch(/^On for 1 editor of this document/);
    },
  );

  test('turning all hourly work on never fails with "too many time-based triggers"', async () => {
    emu = newAddon(services);
    setUnsubscribe();
    await control(services.sandbox.outreachUrl, 'POST', '/accounts', {
      key: DEMO_KEYS.paid,
      dailySendLimit: 1,
    });
    makeList('A', people(2));
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' }); // 1 sent, 1 waits: the trigger is made
    turnAutoRefresh(emu, true);
    makeList('B', people(2, 10));
    emu.run('scheduleSend', [wallTime(services.clock.now() + 5 * HOUR)], { kind: 'webapp' });
    makeList('C', people(2, 20));
    emu.run('scheduleSend', [`${wallTime(services.clock.now() + 9 * HOUR)}Z`], { kind: 'webapp' });
    turnAutoRefresh(emu, false);
    turnAutoRefresh(emu, true);
    expect(clockTriggers()).toHaveLength(1);
    expect(emu.executions.every((e) => e.status === 'completed')).toBe(true);
    // Cancelling one schedule keeps the trigger for the rest.
    emu.spreadsheet.setActiveSheet(sheet('B'));
    expect(emu.run('cancelScheduledSend', [], { kind: 'webapp' }).message).toMatch(/was cancelled/);
    expect(clockTriggers()).toHaveLength(1);
  });

  test('re-authorization needed: the run does nothing but say so on the summary, and the trigger stays', async () => {
    emu = newAddon(services);
    makeList('Outreach', ['jane@example.com'], { body: 'Hi' });
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    emu.run('refreshTracking', [], { kind: 'menu' });
    turnAutoRefresh(emu, true);
    emu.authorizationRequired = true;
    emu.fetchLog.length = 0;
    const firstRun = clockTriggers()[0].nextRunMs;
    const runs = emu.advanceTime(3 * HOUR);
    expect(runs.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
    expect(emu.fetchLog).toHaveLength(0);
    expect(clockTriggers()).toHaveLength(1);
    expect(summaryCell('Auto-refresh')).toContain(
      `Needs re-authorization since ${dayText(firstRun)} ${clockText(firstRun)}`,
    );
    emu.authorizationRequired = false; // the user opened the menu and granted it
    emu.advanceTime(HOUR);
    expect(summaryCell('Auto-refresh')).not.toMatch(/re-authorization/);
    expect(summaryCell('Last refresh')).toMatch(/\(automatic\)$/);
  });
});
