'use strict';
// Through the built bundle, against the sandbox and its clock: the Tracking sheet, the summary and
// its chart, the Mail status of the rows sent, the hourly trigger and its rules, Show mail, PROSPECT_TASK,
// and a refresh of 10,000 mails across executions. Mails are sent through the add-on's own sender.
const { useServices, control, newAddon, DEMO_KEYS, jobKey, driveToEnd } = require('../support/harness');
const { autoRefreshIsOn, turnAutoRefresh } = require('../support/auto-refresh');
const sheets = require('../support/sheets');
const { sendFromSheet, sendAtSandboxToSheet, topUpEdm } = require('../support/sent-mail');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const HOUR = 3600_000;
const sheet = (name) => emu.spreadsheet.getSheetByName(name);
const rowsOf = (name, headerRow) => sheets.rowsOf(emu, name, headerRow);
const tracking = () => rowsOf('Tracking');
const byRecipient = (rows) => Object.fromEntries(rows.map((r) => [r.Recipient || r.Email, r]));
const requests = (part) => emu.fetchLog.filter((r) => r.url.includes(part)).length;
const refresh = () => emu.run('refreshTracking', [], { kind: 'menu' });
const summaryCell = (label) => {
  const row = sheet('Tracking summary')
    .getRange('A1:B7')
    .getValues()
    .find((r) => r[0] === label);
  return row ? row[1] : undefined;
};
/** The summary's chart starts below its table (header row 8, `campaigns` rows), in column A. */
function expectChartBelowTable(campaigns) {
  const summary = sheet('Tracking summary');
  const table = summary.getRange(8, 1, campaigns + 1, summary.getLastColumn());
  const info = summary.getCharts()[0].getContainerInfo();
  expect(info.getAnchorRow()).toBeGreaterThan(table.getLastRow());
  expect(info.getAnchorRow()).toBe(8 + campaigns + 1); // the row right below, a few pixels down
  expect(info.getOffsetY()).toBeGreaterThan(0);
  expect(info.getAnchorColumn()).toBe(1);
  expect(summary.getLastRow()).toBe(table.getLastRow()); // nothing of the table below it
}
const clockTriggers = () => emu.triggers.filter((t) => t.eventType === 'CLOCK');
/** The current user's timer record in this document (their own switch, trigger id and last run). */
const myHourlyTriggerKey = () => `timer.user.${emu.properties.user.getProperty('timer.userToken')}`;
const myAuto = () => JSON.parse(emu.properties.document.getProperty(myHourlyTriggerKey())).auto;

/** A small campaign sent from sheet "Outreach": one normal, one bouncing and one opening recipient. */
function smallCampaign() {
  const { sent } = sendFromSheet(emu, ['jane@example.com', 'bounce.bob@example.com', 'open.ann@example.com']);
  return { mails: sent };
}

// The service may group a send's mails into one task or make one task per mail: the refresh, the summary,
// Show mail and PROSPECT_TASK are run against the sandbox in both shapes.
describe.each(['per-request', 'per-mail'])('Refresh tracking (task shape: %s)', (taskShape) => {
  beforeEach(() => control(services.sandbox.outreachUrl, 'POST', '/task-shape', { taskShape }));

  test('statuses move from pending to sent and delivered as the clock advances; failures carry their reason', async () => {
    emu = newAddon(services);
    const send = smallCampaign();
    expect(rowsOf('Outreach').map((r) => r['Mail status'])).toEqual(['Accepted', 'Accepted', 'Accepted']);

    refresh();
    let rows = byRecipient(tracking());
    expect(Object.keys(rows).sort()).toEqual([
      'bounce.bob@example.com',
      'jane@example.com',
      'open.ann@example.com',
    ]);
    expect(rows['jane@example.com']).toMatchObject({
      'Task ID': send.mails[0].taskId,
      Campaign: 'Spring launch',
      'Task status': 'Waiting at the service',
      'Mail ID': send.mails[0].mailId,
      Nickname: 'Jane',
      Subject: 'Hello Jane',
      'Mail status': 'Pending',
      'Sent at': '',
      'Delivery confirmed at': '',
    });
    expect(rows['jane@example.com']['Refreshed at']).toBeInstanceOf(Date);
    expect(rowsOf('Outreach').map((r) => r['Mail status'])).toEqual(['Accepted', 'Accepted', 'Accepted']);
    // One request for the mails (by Mail ID, 100 a request, in mail-id order) and one for their tasks.
    expect(requests('/api/v1/emails/mails')).toBe(1);
    expect(requests('/api/v1/emails/tasks')).toBe(1);
    const mailsUrl = new URL(emu.fetchLog.find((r) => r.url.includes('/emails/mails')).url);
    expect(Object.fromEntries(mailsUrl.searchParams)).toMatchObject({
      mail_ids: send.mails.map((m) => m.mailId).join(','),
      page_size: '100',
      sort_by: 'mail_id',
      sort_order: 'asc',
    });

    services.clock.advance(3000);
    refresh();
    expect(tracking().map((r) => r['Mail status'])).toEqual(['Requested', 'Requested', 'Requested']);

    services.clock.advance(3500); // jane sent at t+5 s, not confirmed before t+8 s
    refresh();
    rows = byRecipient(tracking());
    expect(rows['jane@example.com']['Mail status']).toBe('Sent');
    expect(rows['jane@example.com']['Sent at']).toBeInstanceOf(Date);
    expect(rows['bounce.bob@example.com']).toMatchObject({
      'Mail status': 'Failed',
      'Failure reason': 'Mailbox unavailable (550 hard bounce)',
      'Sent at': '',
    });
    let list = byRecipient(rowsOf('Outreach'));
    expect(list['jane@example.com']['Mail status']).toBe('Sent');
    expect(list['bounce.bob@example.com']['Mail status']).toBe(
      'Failed: Mailbox unavailable (550 hard bounce)',
    );

    services.clock.advance(10_000);
    refresh();
    rows = byRecipient(tracking());
    expect(rows['jane@example.com']).toMatchObject({
      'Mail status': 'Delivered',
      'Task status': taskShape === 'per-mail' ? 'All mails sent' : 'Some mails failed',
    });
    expect(rows['jane@example.com']['Delivery confirmed at']).toBeInstanceOf(Date);
    expect(rows['jane@example.com']['Delivery confirmed at'].getTime()).toBe(
      rows['jane@example.com']['Sent at'].getTime() + 3000,
    );
    list = byRecipient(rowsOf('Outreach'));
    expect(list['open.ann@example.com']['Mail status']).toBe('Delivered');
    expect(list['bounce.bob@example.com']['Mail status']).toBe(
      'Failed: Mailbox unavailable (550 hard bounce)',
    );
    expect(emu.ui.toasts.at(-1).message).toMatch(
      taskShape === 'per-mail'
        ? /Tracking refreshed: 2 mails of 2 tasks read, 1 delivered or failed mail not read again/
        : /Tracking refreshed: 2 mails of 1 task read, 1 delivered or failed mail not read again/,
    ); // the failed one was final at the last refresh
  });

  test('the summary: a row per campaign counted from the Tracking sheet, the mails per status and one chart', async () => {
    emu = newAddon(services);
    smallCampaign();
    refresh();
    services.clock.advance(70_000); // final, and the opening recipient has opened
    refresh();
    expect(rowsOf('Tracking summary', 8)).toEqual([
      {
        Campaign: 'Spring launch',
        Tasks: taskShape === 'per-mail' ? 3 : 1,
        Mails: 3,
        Waiting: 0,
        Sent: 0,
        Delivered: 2,
        Failed: 1,
        'Sent with another key': 0,
        Opened: 1,
        'First sent': expect.any(Date),
        'Last sent': expect.any(Date),
        'Delivered %': 2 / 3,
        'Failed %': 1 / 3,
        'Opened %': 0.5, // of the 2 mails that reached the service
        'Reply %': 'only with Gmail reply detection', // this build reads no mailbox
        'Opens counted': taskShape === 'per-mail' ? 'per mail' : 'per task of several mails',
        Sending: '', // 1 failed of 3: too few final mails for the bounce guard
      },
    ]);
    // Opens per mail where a task holds one mail; "per campaign only" where it holds many.
    const opened = Object.fromEntries(tracking().map((r) => [r.Recipient, r.Opened]));
    expect(opened).toEqual(
      taskShape === 'per-mail'
        ? { 'jane@example.com': 'No', 'bounce.bob@example.com': '', 'open.ann@example.com': 'Yes' }
        : {
            'jane@example.com': 'per campaign only',
            'bounce.bob@example.com': '', // a failed mail never shows opens
            'open.ann@example.com': 'per campaign only',
          },
    );
    expect(sheet('Tracking summary').getRange('D1:E6').getValues()).toEqual([
      ['Mail status', 'Mails'],
      ['Waiting to be sent', 0],
      ['Sent (delivery not confirmed yet)', 0],
      ['Delivered (confirmed)', 2],
      ['Failed', 1],
      ['Sent with another key', 0],
    ]);
    // One chart that can be read: a bar per campaign, 100 % of its mails (waiting, sent, delivered, failed),
    // in colours, below the table: its top-left cell is under the last campaign row, never inside the table.
    const charts = sheet('Tracking summary').getCharts();
    expect(charts).toHaveLength(1);
    expect(charts[0].getRanges().map((r) => r.getA1Notation())).toEqual(['A8:A9', 'H8:K9']);
    expect(rowsOf('Tracking summary', 8)[0]).toMatchObject({ Waiting: 0, Sent: 0, Delivered: 2, Failed: 1 });
    expect(String(charts[0].modify().getChartType())).toBe('BAR');
    expect(charts[0].getOptions().get('isStacked')).toBe('percent');
    expect(new Set(charts[0].getOptions().get('colors')).size).toBe(4);
    expect(charts[0].getOptions().get('title')).toBe(
      "Share of each campaign's mails: waiting, sent, delivered, failed (3 mails)",
    );
    expectChartBelowTable(1);
    // The rates come first, beside the campaign's size; the status texts wrap instead of being cut off.
    const summary = sheet('Tracking summary');
    expect(summary.getRange('A8:G8').getValues()[0]).toEqual([
      'Campaign',
      'Mails',
      'Delivered %',
      'Failed %',
      'Opened %',
      'Reply %',
      'Sending',
    ]);
    expect(summary.getRange('F8').getNote()).toMatch(
      /Only the version of the add-on built with reply detection/,
    );
    expect(summary.getRange('B3').getWrap()).toBe(true);
    expect(summary.getRange('A8').getWrap()).toBe(true);
    expect(summary.getRange('N8').getNote()).toMatch(/A task is a batch of mails/);
    expect(summaryCell('Result')).toMatch(/Tracking refreshed: 3 mails of/);
    expect(summaryCell('Auto-refresh')).toMatch(/^Off/);
    // The Tracking sheet has only its own columns (a new sheet has 26).
    expect(sheet('Tracking').getMaxColumns()).toBe(14);
  });

  test('opens counted after delivery: final mails are not read again, their tasks are, and the opens move; a failed mail shows none', async () => {
    emu = newAddon(services);
    smallCampaign();
    services.clock.advance(20_000); // every mail final; nobody has opened yet
    refresh();
    const before = byRecipient(tracking());
    expect(before['open.ann@example.com']['Mail status']).toBe('Delivered');
    expect(before['open.ann@example.com']['Task opens']).toBe(0);
    expect(rowsOf('Tracking summary', 8)[0]['Opened %']).toBe(0);

    services.clock.advance(60_000); // the opening recipient opens a minute after the mail was sent
    emu.fetchLog.length = 0;
    refresh();
    expect(requests('/api/v1/emails/mails')).toBe(0); // the mails are final: not read again
    expect(requests('/api/v1/emails/tasks')).toBe(1); // their tasks are, 100 a request
    const after = byRecipient(tracking());
    expect(after['open.ann@example.com']['Task opens']).toBe(1);
    expect(after['open.ann@example.com'].Opened).toBe(taskShape === 'per-mail' ? 'Yes' : 'per campaign only');
    expect(after['bounce.bob@example.com'].Opened).toBe(''); // a failed mail never shows opens
    expect(after['bounce.bob@example.com']['Task opens']).toBe('');
    const campaign = rowsOf('Tracking summary', 8)[0];
    expect(campaign.Opened).toBe(1);
    expect(campaign['Opened %']).toBe(0.5);
    expect(summaryCell('Result')).toMatch(/opens of the mails sent in the last 14 days brought up to date/);

    // A task whose every mail not failed was opened cannot change any more: it is not asked again.
    emu.fetchLog.length = 0;
    refresh();
    const asked = emu.fetchLog.flatMap((r) => (new URL(r.url).searchParams.get('task_ids') || '').split(','));
    const taskOf = (email) => String(after[email]['Task ID']);
    // per mail: jane's task only (ann's is opened, bob's failed); per request: the one task (1 open of 2).
    expect(asked).toEqual([taskOf('jane@example.com')]);
  });

  test('counts survive a refresh with another key, which labels its mails "sent with another key"', async () => {
    emu = newAddon(services);
    smallCampaign();
    services.clock.advance(4000); // requested: not final yet
    refresh();
    sendFromSheet(emu, ['amy@example.com', 'ben@example.com'], { sheetName: 'List B' });
    // A colleague (or a rotated key) refreshes: the service returns none of these mails to that key.
    await control(services.sandbox.outreachUrl, 'POST', '/accounts', {
      key: 'sandbox-colleague',
      addonEdm: 10,
    });
    emu.run('saveSettings', [{ outreachApiKey: 'sandbox-colleague' }], { kind: 'webapp' });
    services.clock.advance(20_000);
    refresh();
    const firstThree = tracking().filter((r) => r.Recipient !== '');
    expect(firstThree.map((r) => r['Mail status'])).toEqual(['Requested', 'Requested', 'Requested']); // kept
    const added = tracking().filter((r) => r['Mail status'] === 'Sent with another key');
    expect(added).toHaveLength(2);
    expect(sheet('Tracking summary').getRange('E2:E6').getValues().flat()).toEqual([3, 0, 0, 0, 2]);
    expect(sheet('Tracking summary').getCharts()[0].getOptions().get('title')).toMatch(/\(5 mails\)$/);
    expect(summaryCell('Result')).toMatch(/5 mails sent with another API key/);
    expect(summaryCell('Result')).not.toMatch(/not found/);
    // Back with the key that sent them: everything moves on.
    emu.run('saveSettings', [{ outreachApiKey: DEMO_KEYS.paid }], { kind: 'webapp' });
    refresh();
    expect(
      tracking()
        .map((r) => r['Mail status'])
        .sort(),
    ).toEqual(['Delivered', 'Delivered', 'Delivered', 'Delivered', 'Failed']);
    expect(sheet('Tracking summary').getRange('E2:E6').getValues().flat()).toEqual([0, 0, 4, 1, 0]);
  });

  test('a re-refresh updates rows in place after the user sorted the Tracking sheet and the mailing list', async () => {
    emu = newAddon(services);
    smallCampaign();
    refresh();
    const track = sheet('Tracking');
    track.getRange(2, 1, 3, track.getLastColumn()).sort({ column: 5, ascending: false }); // by Recipient, Z→A
    const list = sheet('Outreach');
    list.getRange(2, 1, 3, 6).sort({ column: 1, ascending: true });
    services.clock.advance(20_000);
    refresh();
    const rows = tracking();
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((r) => r['Mail ID'])).size).toBe(3);
    expect(rows.map((r) => [r.Recipient, r['Mail status']])).toEqual([
      ['open.ann@example.com', 'Delivered'],
      ['jane@example.com', 'Delivered'],
      ['bounce.bob@example.com', 'Failed'],
    ]);
    expect(rowsOf('Outreach').map((r) => [r.Email, r['Mail status']])).toEqual([
      ['bounce.bob@example.com', 'Failed: Mailbox unavailable (550 hard bounce)'],
      ['jane@example.com', 'Delivered'],
      ['open.ann@example.com', 'Delivered'],
    ]);
  });

  test('final mails are not read again: a refresh when all is final makes no request; a lost row comes back', async () => {
    emu = newAddon(services);
    sendFromSheet(emu, ['amy@example.com', 'ben@example.com'], { sheetName: 'List B' });
    services.clock.advance(20_000);
    refresh();
    expect(tracking().map((r) => r['Mail status'])).toEqual(['Delivered', 'Delivered']);
    expect(rowsOf('List B').map((r) => r['Mail status'])).toEqual(['Delivered', 'Delivered']);

    emu.fetchLog.length = 0;
    refresh(); // all final: only the tasks are read again, for their opens (14 days after the send)
    expect(requests('/api/v1/emails/mails')).toBe(0);
    expect(requests('/api/v1/emails/tasks')).toBe(1);
    expect(emu.ui.toasts.at(-1).message).toMatch(/2 delivered or failed mails not read again/);
    expect(emu.ui.toasts.at(-1).message).toMatch(
      /opens of the mails sent in the last 14 days brought up to date/,
    );

    services.clock.advance(15 * 24 * HOUR); // no open can come any more: nothing is asked
    emu.fetchLog.length = 0;
    refresh();
    expect(emu.fetchLog).toHaveLength(0);

    sheet('Tracking').deleteRow(2); // a row the user deleted comes back: its Mail ID is on List B
    refresh();
    expect(requests('/api/v1/emails/mails')).toBe(1);
    expect(tracking()).toHaveLength(2);
  });

  test('nothing sent yet: says so, asks nothing of the service', () => {
    emu = newAddon(services);
    refresh();
    expect(emu.ui.alerts.at(-1)).toMatchObject({ title: 'Nothing to track yet' });
    expect(emu.ui.alerts.at(-1).message).toMatch(/has not sent any e-mail yet/);
    expect(emu.fetchLog).toHaveLength(0);
  });

  test('the menu has the tracking items', () => {
    emu = newAddon(services);
    const items = emu.ui.menu().items.map((i) => [i.caption, i.functionName]);
    expect(items).toEqual(
      expect.arrayContaining([
        ['Refresh tracking', 'refreshTracking'],
        ['Auto-refresh tracking: on / off', 'toggleAutoRefresh'],
        ['Show mail', 'showMailDetail'],
      ]),
    );
  });
});

describe('Auto-refresh (hourly trigger)', () => {
  test('turned on from the menu it keeps one trigger; it runs without UI and removes itself when all is final', async () => {
    emu = newAddon(services);
    smallCampaign();
    turnAutoRefresh(emu, true);
    expect(autoRefreshIsOn(emu)).toBe(true);
    emu.ui.queue('NO'); // asked again, the user keeps it on
    emu.run('toggleAutoRefresh', [], { kind: 'menu' });
    expect(autoRefreshIsOn(emu)).toBe(true);
    expect(clockTriggers()).toHaveLength(1);
    expect(clockTriggers()[0]).toMatchObject({ eventType: 'CLOCK', schedule: { kind: 'hours', hours: 1 } });

    // A second send just before the first run: still on its way when the trigger fires.
    services.clock.advance(HOUR - 1000);
    sendFromSheet(emu, ['late@example.com'], { sheetName: 'Late' });
    emu.ui.reset();
    const [first] = emu.advanceTime(1000);
    expect(first).toMatchObject({ handler: 'onHourlyTimer', status: 'completed' });
    expect(emu.executions.at(-1)).toMatchObject({ kind: 'trigger', status: 'completed' });
    expect(emu.ui.alerts).toHaveLength(0);
    expect(emu.ui.dialogs).toHaveLength(0);
    expect(tracking()).toHaveLength(4);
    expect(byRecipient(tracking())['late@example.com']['Mail status']).toBe('Pending');
    expect(clockTriggers()).toHaveLength(1); // not everything is final yet
    expect(summaryCell('Last refresh')).toMatch(/\(automatic\)$/);
    expect(summaryCell('Last automatic run')).toMatch(/Tracking refreshed: 4 mails of 2 tasks read/);

    const [second] = emu.advanceTime(HOUR);
    expect(second.status).toBe('completed');
    expect(byRecipient(tracking())['late@example.com']['Mail status']).toBe('Delivered');
    expect(clockTriggers()).toHaveLength(1); // every mail is final, but opens can still come for 14 days
    services.clock.advance(14 * 24 * HOUR);
    emu.advanceTime(HOUR);
    expect(clockTriggers()).toHaveLength(0);
    expect(summaryCell('Auto-refresh')).toMatch(/^Off since .*every mail is delivered or failed/);
    expect(emu.advanceTime(3 * HOUR)).toEqual([]);

    // The menu's confirmation states the last automatic run.
    emu.ui.queue('NO');
    emu.run('toggleAutoRefresh', [], { kind: 'menu' });
    expect(emu.ui.alerts.at(-1).message).toMatch(/Auto-refresh is OFF/);
    const said = emu.ui.alerts.at(-1).message;
    expect(said).toMatch(
      /Last automatic run: .*turned itself off: every mail is delivered or failed, and no open can be counted any more \(opens are counted for 14 days after a send\), so nothing will change/,
    );
    expect(said.split('every mail is delivered or failed')).toHaveLength(2); // said once
  });

  test('after a 401 the trigger removes itself and the error stays visible', async () => {
    emu = newAddon(services);
    smallCampaign();
    turnAutoRefresh(emu, true);
    refresh(); // the summary sheet exists
    await control(services.sandbox.outreachUrl, 'POST', '/accounts', { key: DEMO_KEYS.paid, revoked: true });
    const [run] = emu.advanceTime(HOUR);
    expect(run.status).toBe('completed');
    expect(clockTriggers()).toHaveLength(0);
    expect(summaryCell('Auto-refresh')).toMatch(/API key was refused/);
    expect(summaryCell('Last error')).toMatch(/Settings/);
    expect(summaryCell('Last error')).not.toContain(DEMO_KEYS.paid);
    expect(emu.advanceTime(5 * HOUR)).toEqual([]); // never fails hourly in the background
    emu.ui.queue('NO');
    emu.run('toggleAutoRefresh', [], { kind: 'menu' });
    expect(emu.ui.alerts.at(-1).message).toMatch(/Error: .*key/i);
  });

  test('a missing key, or 30 days without a send, turn it off without a request', async () => {
    emu = newAddon(services);
    smallCampaign();
    turnAutoRefresh(emu, true);
    emu.properties.user.deleteProperty('settings.outreachApiKey');
    emu.fetchLog.length = 0;
    emu.advanceTime(HOUR);
    expect(clockTriggers()).toHaveLength(0);
    expect(emu.fetchLog).toHaveLength(0);
    expect(myAuto().offReason).toMatch(/no outreach API key/);

    emu.properties.user.setProperty('settings.outreachApiKey', DEMO_KEYS.paid);
    turnAutoRefresh(emu, true);
    emu.fetchLog.length = 0;
    const record = JSON.parse(emu.properties.document.getProperty(myHourlyTriggerKey()));
    record.auto.since = services.clock.now() - 31 * 24 * HOUR;
    emu.properties.document.setProperty(myHourlyTriggerKey(), JSON.stringify(record));
    emu.properties.document.setProperty('send.lastAt', String(services.clock.now() - 31 * 24 * HOUR)); // nor sent since
    emu.advanceTime(HOUR);
    expect(clockTriggers()).toHaveLength(0);
    expect(emu.fetchLog).toHaveLength(0);
    expect(myAuto().offReason).toMatch(/30 days/);
  });

  test('turning it off removes the trigger; another user keeps their own', async () => {
    emu = newAddon(services);
    turnAutoRefresh(emu, true);
    emu.setActiveUser('editor@example.com');
    emu.properties.user.setProperty('settings.outreachApiKey', DEMO_KEYS.paid);
    turnAutoRefresh(emu, true);
    expect(clockTriggers()).toHaveLength(2);
    emu.ui.queue('YES');
    emu.run('toggleAutoRefresh', [], { kind: 'menu' });
    expect(emu.ui.alerts.at(-1).message).toMatch(/Auto-refresh is ON for you/);
    expect(clockTriggers().map((t) => t.user)).toEqual(['owner@example.com']);
  });
});

describe.each(['per-request', 'per-mail'])('Show mail and PROSPECT_TASK (task shape: %s)', (taskShape) => {
  beforeEach(() => control(services.sandbox.outreachUrl, 'POST', '/task-shape', { taskShape }));

  test("the selected row's mail: an HTML body goes into a sandboxed frame, scripts escaped, never run", async () => {
    emu = newAddon(services);
    const { sent } = sendFromSheet(emu, ['jane@example.com'], { html: true });
    const send = { mails: sent };
    services.clock.advance(20_000);
    refresh();
    emu.spreadsheet.setActiveSheet(sheet('Tracking'));
    sheet('Tracking').getRange('C2').activate();
    emu.run('showMailDetail', [], { kind: 'menu' });
    const dialog = emu.ui.dialogs.at(-1);
    expect(dialog.title).toBe(`Mail ${send.mails[0].mailId}`);
    expect(dialog.html).toContain('"bodyFormat":"html"');
    expect(dialog.html).toContain('\\u003cscript>alert(0)\\u003c/script>');
    expect(dialog.html).not.toContain('<script>alert(0)');
    expect(dialog.html).toMatch(/setAttribute\('sandbox', ''\)/);
    expect(requests(`/api/v1/emails/mails/${send.mails[0].mailId}`)).toBe(1);
  });

  test('a typed Mail ID; a text body stays text; an unknown id says so', async () => {
    emu = newAddon(services);
    const { sent } = sendFromSheet(emu, ['jane@example.com']);
    emu.spreadsheet.setActiveSheet(sheet('Outreach'));
    sheet('Outreach').getRange('A1').activate(); // the header row: no mail selected
    emu.ui.queue({ button: 'OK', text: String(sent[0].mailId) });
    emu.run('showMailDetail', [], { kind: 'menu' });
    expect(emu.ui.prompts.at(-1).title).toBe('Show mail');
    expect(emu.ui.dialogs.at(-1).html).toContain('"bodyFormat":"text"');
    expect(emu.ui.dialogs.at(-1).html).toContain('\\u003cb>not bold\\u003c/b>');
    emu.ui.queue({ button: 'OK', text: '99999999' });
    emu.run('showMailDetail', [], { kind: 'menu' });
    expect(emu.ui.alerts.at(-1).message).toMatch(/Mail 99999999 was not found/);
    emu.ui.queue({ button: 'OK', text: 'abc' });
    emu.run('showMailDetail', [], { kind: 'menu' });
    expect(emu.ui.alerts.at(-1).message).toMatch(/"abc" is not a Mail ID/);
  });

  test("PROSPECT_TASK: header and counts, cached briefly, one answer for an unknown task and another document's", async () => {
    emu = newAddon(services);
    const { taskIds } = sendFromSheet(emu, ['jane@example.com', 'bounce.x@example.com']);
    const send = { taskId: taskIds[0] };
    services.clock.advance(20_000);
    const result = emu.runCustomFunction('PROSPECT_TASK', [send.taskId]);
    expect(result[0]).toEqual([
      'Task ID',
      'Campaign',
      'Status',
      'Total',
      'Sent',
      'Failed',
      'Opened',
      'Created',
      'Completed',
    ]);
    expect(result[1].slice(0, 7)).toEqual(
      taskShape === 'per-mail'
        ? [send.taskId, 'Spring launch', 'All mails sent', 1, 1, 0, 0] // jane's own task
        : [send.taskId, 'Spring launch', 'Some mails failed', 2, 1, 1, 0],
    );
    // Created as the list shows its Sent at ("2026-01-05 09:00"): the same words, not the locale's long date.
    const list = sheet('Outreach');
    const sentAt = list.getRange(1, 1, 1, list.getLastColumn()).getValues()[0].indexOf('Sent at') + 1;
    expect(result[1][7]).toBe(list.getRange(2, sentAt).getDisplayValue());
    expect(emu.runCustomFunction('PROSPECT_TASK', [String(send.taskId)])).toEqual(result); // from the cache
    expect(requests('/api/v1/emails/tasks?')).toBe(1); // the list: no mail of the task is fetched
    // A task that does not exist and a task of another document get one and the same answer: a formula
    // cannot probe which task ids exist.
    const notOurs = (id) =>
      `Task ${id} is not one of the tasks this spreadsheet sent (formulas use the key of the spreadsheet's owner): use a Task ID from the Tracking sheet or the Task ID column.`;
    expect(() => emu.runCustomFunction('PROSPECT_TASK', [999999])).toThrow(notOurs(999999));
    // A task of another document of the same key, typed in by any editor: refused, nothing of it shown.
    const other = newAddon(services, { seed: 2 }); // another document: its own random mark
    try {
      const { taskIds: otherTasks } = sendFromSheet(other, ['lee@example.com'], {
        campaign: 'Private plans',
      });
      expect(() => emu.runCustomFunction('PROSPECT_TASK', [otherTasks[0]])).toThrow(notOurs(otherTasks[0]));
    } finally {
      other.dispose();
    }
    expect(() => emu.runCustomFunction('PROSPECT_TASK', ['x'])).toThrow(/"x" is not a Task ID/);
  });
});

describe('One task per mail at volume', () => {
  jest.setTimeout(120_000);
  beforeEach(() => control(services.sandbox.outreachUrl, 'POST', '/task-shape', { taskShape: 'per-mail' }));

  test('1,200 mails in three sends: own Task ID and Mail ID on every row, all tracked once, then nothing to read', async () => {
    emu = newAddon(services);
    await topUpEdm(services, 1200);
    const sends = ['First', 'Second', 'Third'].map((name, s) =>
      sendFromSheet(
        emu,
        Array.from({ length: 400 }, (_, i) => `${i % 50 === 0 ? 'bounce.' : ''}p${s}x${i}@example.com`),
        { sheetName: name, campaign: `Кампания ${name}` },
      ),
    );
    const sent = sends.flatMap((send) => send.sent);
    const atSandbox = new Map(
      (await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${DEMO_KEYS.paid}`)).mails.map((m) => [
        m.recipientEmail,
        m,
      ]),
    );
    expect(atSandbox.size).toBe(1200);
    for (const row of sent)
      expect([row.taskId, row.mailId]).toEqual([
        atSandbox.get(row.email).taskId,
        atSandbox.get(row.email).mailId,
      ]);
    expect(new Set(sent.map((r) => r.taskId)).size).toBe(1200);

    services.clock.advance(20_000);
    emu.fetchLog.length = 0;
    refresh();
    const rows = tracking();
    expect(rows).toHaveLength(1200);
    expect(new Set(rows.map((r) => r['Mail ID'])).size).toBe(1200);
    expect(rows.every((r) => r['Task ID'] === atSandbox.get(r.Recipient).taskId)).toBe(true);
    for (const name of ['First', 'Second', 'Third']) {
      expect(rowsOf(name).every((r) => /^(Sent|Delivered|Failed: )/.test(r['Mail status']))).toBe(true);
      expect(rowsOf(name).filter((r) => r['Mail status'] === 'Delivered')).toHaveLength(392);
    }
    // 12 requests for the mails (100 ids each) and 12 for their 1,200 one-mail tasks.
    expect(requests('/api/v1/emails/mails')).toBe(12);
    expect(requests('/api/v1/emails/tasks')).toBe(12);
    expect(
      rowsOf('Tracking summary', 8).map((r) => [r.Campaign, r.Tasks, r.Mails, r.Delivered, r.Failed]),
    ).toEqual([
      ['Кампания First', 400, 400, 392, 8],
      ['Кампания Second', 400, 400, 392, 8],
      ['Кампания Third', 400, 400, 392, 8],
    ]);
    expectChartBelowTable(3);

    emu.fetchLog.length = 0;
    refresh(); // everything is final: no mail is read; the 1,200 tasks are, for their opens (100 a request)
    expect(requests('/api/v1/emails/mails')).toBe(0);
    expect(requests('/api/v1/emails/tasks')).toBe(12);
    services.clock.advance(15 * 24 * HOUR); // 14 days after the sends: nothing at all
    emu.fetchLog.length = 0;
    refresh();
    expect(emu.fetchLog).toHaveLength(0);
    expect(tracking()).toHaveLength(1200);
    expect(emu.ui.toasts.at(-1).message).toMatch(/1,200 delivered or failed mails not read again/);
  });
});

describe('Scale', () => {
  jest.setTimeout(300_000);
  // These tests keep the main thread busy for seconds: let fetch see the sandbox's closed idle sockets
  // before the next test's first control call.
  afterEach(() => new Promise((resolve) => setTimeout(resolve, 50)));

  const SLOW_FETCH_MS = 60_000;

  /** 10,000 mails in 100 tasks on one mailing list (posted at the sandbox: see sendAtSandboxToSheet). */
  async function bigCampaign() {
    const emails = Array.from({ length: 10_000 }, (_, i) => `person${i}@example.com`);
    await sendAtSandboxToSheet(emu, services, emails, 'Big list');
    services.clock.advance(61_000); // delivered, and the rate window is empty again
  }

  function expectAllTracked() {
    const rows = tracking();
    expect(rows).toHaveLength(10_000);
    expect(new Set(rows.map((r) => r['Mail ID'])).size).toBe(10_000);
    expect(rows.every((r) => r['Mail status'] === 'Delivered')).toBe(true);
    expect(rowsOf('Big list').every((r) => r['Mail status'] === 'Delivered')).toBe(true);
    // 100 requests for the mails (100 ids each), one for the 10 tasks of each 1,000; never a 429.
    expect(requests('/api/v1/emails/mails')).toBe(100);
    expect(requests('/api/v1/emails/tasks')).toBe(10);
    expect(emu.fetchLog.filter((r) => r.status === 429)).toHaveLength(0);
  }

  test('a refresh of 10,000 mails goes on across executions in the progress dialog', async () => {
    // A slow service: each fetch call (a fetchAll of pages, or of their tasks) takes 60 s, so the first
    // execution has time for the first rate window's whole groups (5,000 mails) only; the next step reads
    // the rest, and no request is made twice.
    emu = newAddon(services, { fetchLatencyMs: SLOW_FETCH_MS });
    await bigCampaign();
    emu.resetStats();
    refresh();
    expect(emu.ui.dialogs.at(-1).title).toBe('Refreshing tracking');
    const { progress, steps } = driveToEnd(emu, 'tracking', 20);
    expect(progress).toMatchObject({ finished: true });
    expect(progress.error).toBeUndefined();
    expect(steps).toBeGreaterThanOrEqual(1);
    expect(emu.executions.every((e) => e.status === 'completed')).toBe(true);
    expectAllTracked();
    // Sheet calls per chunk of 1,000 mails stay constant.
    const perChunk = emu.stats.spreadsheet.calls / 10;
    expect(perChunk).toBeLessThan(60);
    console.log(
      `10,000 mails: ${emu.executions.length} executions (${steps} dialog steps), ${emu.stats.urlFetch.requests} requests, ` +
        `spreadsheet ${JSON.stringify(emu.stats.spreadsheet)} = ${perChunk} calls per 1,000 mails`,
    );
  });

  test('from the trigger, the next run goes on from where the last one stopped', async () => {
    emu = newAddon(services, { fetchLatencyMs: SLOW_FETCH_MS });
    await bigCampaign();
    turnAutoRefresh(emu, true);
    const first = emu.advanceTime(HOUR);
    expect(first).toHaveLength(1);
    expect(first[0].status).toBe('completed');
    expect(emu.properties.document.getProperty(jobKey(emu, 'tracking'))).not.toBeNull(); // cut at the deadline, kept
    expect(tracking().length).toBeGreaterThan(0);
    expect(tracking().length).toBeLessThan(10_000);
    emu.advanceTime(HOUR);
    expectAllTracked();
    expect(clockTriggers()).toHaveLength(1); // everything is final; opens are read for 14 days
  });
});

// An editor of a shared document is not its other users: ids typed into cells (here those of mails the same
// user sent from another document, with the same key) must not make that user's refresh read those mails
// and write their recipients, subjects and campaigns where every editor can read them. Every chunk tag
// carries the document's mark; a refresh reads a mail only when its task carries it.
describe('Ids an editor typed into cells', () => {
  let docA;
  afterEach(() => docA && docA.dispose());
  const NOT_OURS = /^Not a mail of this document: not read \(/;

  /** The mail ids of the /emails/mails requests logged since `from`. */
  const mailIdsAsked = (from = 0) =>
    emu.fetchLog
      .slice(from)
      .filter((r) => r.url.includes('/api/v1/emails/mails'))
      .flatMap((r) => (new URL(r.url).searchParams.get('mail_ids') || '').split(','))
      .filter(Boolean)
      .map(Number);
  const everythingInB = () => JSON.stringify(emu.snapshot());

  /** Document A sends three mails, document B (emu) two; same user, same key, same service. */
  function twoDocuments() {
    docA = newAddon(services, { seed: 2 }); // another document: its own random numbers (its own mark)
    const a = sendFromSheet(
      docA,
      ['secret.one@example.com', 'secret.two@example.com', 'secret.three@example.com'],
      { campaign: 'Confidential merger' },
    ).sent;
    emu = newAddon(services);
    const b = sendFromSheet(emu, ['bee@example.com', 'bob@example.com'], { campaign: 'B campaign' }).sent;
    services.clock.advance(20_000); // every mail delivered
    return { a, b };
  }

  /** An editor's rows in B: A's first mail on Tracking, the other two on a list of their own. */
  function plant(a) {
    const trackingSheet = sheet('Tracking');
    const header = trackingSheet.getRange(1, 1, 1, 14).getValues()[0];
    const row = header.map((h) => ({ 'Task ID': a[0].taskId, 'Mail ID': a[0].mailId })[h] ?? '');
    trackingSheet.getRange(trackingSheet.getLastRow() + 1, 1, 1, 14).setValues([row]);
    const list = emu.spreadsheet.insertSheet('Leads');
    list.getRange(1, 1, 3, 4).setValues([
      ['Email', 'Mail status', 'Task ID', 'Mail ID'],
      ['x@example.com', 'Sent', a[1].taskId, a[1].mailId],
      ['y@example.com', '', a[2].taskId, a[2].mailId],
    ]);
  }

  const expectNothingOfA = (a) => {
    const text = everythingInB();
    for (const secret of ['secret.', 'Secret.', 'Confidential merger']) expect(text).not.toContain(secret);
    for (const mail of a) expect(mailIdsAsked()).not.toContain(mail.mailId);
  };

  test.each(['menu', 'hourly trigger'])(
    "the refresh (%s) never reads another document's mails, says so on their rows, then leaves them",
    async (how) => {
      const { a, b } = twoDocuments();
      refresh(); // B's Tracking sheet
      const markA = docA.properties.document.getProperty('document.mark');
      const markB = emu.properties.document.getProperty('document.mark');
      expect(markA).toMatch(/^[0-9a-f]{6}$/);
      expect(markB).toMatch(/^[0-9a-f]{6}$/);
      expect(markB).not.toBe(markA);
      plant(a);
      emu.fetchLog.length = 0;

      if (how === 'menu') refresh();
      else {
        turnAutoRefresh(emu, true);
        const [run] = emu.advanceTime(HOUR);
        expect(run).toMatchObject({ handler: 'onHourlyTimer', status: 'completed' });
      }

      // A's tasks were asked (that is how they are known not to be B's), never A's mails.
      expect(requests('/api/v1/emails/tasks')).toBe(1);
      expect(requests('/api/v1/emails/mails')).toBe(0);
      expectNothingOfA(a);
      const rows = tracking();
      const planted = rows.filter((r) => a.some((m) => m.mailId === r['Mail ID']));
      expect(planted).toHaveLength(3);
      for (const row of planted) {
        expect(row['Mail status']).toMatch(NOT_OURS);
        expect([row.Recipient, row.Subject, row.Campaign, row['Sent at']]).toEqual(['', '', '', '']);
      }
      expect(rowsOf('Leads').map((r) => r['Mail status'])).toEqual([
        expect.stringMatching(NOT_OURS),
        expect.stringMatching(NOT_OURS),
      ]);
      // B's own mails are tracked as always; the planted rows are not counted as B's mails.
      const own = byRecipient(rows.filter((r) => b.some((m) => m.mailId === r['Mail ID'])));
      expect(Object.keys(own).sort()).toEqual(['bee@example.com', 'bob@example.com']);
      expect(Object.values(own).map((r) => [r['Mail status'], r.Campaign])).toEqual([
        ['Delivered', 'B campaign'],
        ['Delivered', 'B campaign'],
      ]);
      expect(rowsOf('Outreach').map((r) => r['Mail status'])).toEqual(['Delivered', 'Delivered']);
      expect(sheet('Tracking summary').getRange('E2:E6').getValues().flat()).toEqual([0, 0, 2, 0, 0]);
      expect(summaryCell('Result')).toMatch(/3 Mail IDs not of a mail this document sent/);

      // Stated once: they are final, like B's delivered mails, so the next refresh asks nothing of them
      // (only B's own task, for its opens in the 14 days after the send).
      emu.fetchLog.length = 0;
      refresh();
      expect(requests('/api/v1/emails/mails')).toBe(0);
      const tasksAsked = emu.fetchLog.flatMap((r) =>
        (new URL(r.url).searchParams.get('task_ids') || '').split(',').map(Number),
      );
      expect(tasksAsked).toEqual([...new Set(b.map((m) => m.taskId))]);
      expect(tracking().filter((r) => NOT_OURS.test(r['Mail status']))).toHaveLength(3);
    },
  );

  test("A's Mail ID beside one of B's Task IDs, or with no Task ID: never written in B", async () => {
    const { a, b } = twoDocuments();
    const list = emu.spreadsheet.insertSheet('Leads');
    list.getRange(1, 1, 3, 4).setValues([
      ['Email', 'Mail status', 'Task ID', 'Mail ID'],
      ['x@example.com', '', b[0].taskId, a[0].mailId],
      ['y@example.com', '', '', a[1].mailId],
    ]);
    emu.fetchLog.length = 0;
    refresh();
    // The mail without a Task ID is never asked for; the other is asked with B's task, and A's mail that
    // comes back (it belongs to another task) is dropped.
    expect(mailIdsAsked()).not.toContain(a[1].mailId);
    const text = everythingInB();
    for (const secret of ['secret.', 'Secret.', 'Confidential merger']) expect(text).not.toContain(secret);
    expect(rowsOf('Leads').map((r) => r['Mail status'])).toEqual([
      expect.stringMatching(NOT_OURS),
      expect.stringMatching(NOT_OURS),
    ]);
    expect(byRecipient(tracking())['bee@example.com']['Mail status']).toBe('Delivered');
    expect(tracking().filter((r) => NOT_OURS.test(r['Mail status']))).toHaveLength(2);
  });

  test('every chunk this document sends carries its mark: the tasks come back with the mark filter', async () => {
    const { b } = twoDocuments();
    const mark = emu.properties.document.getProperty('document.mark');
    const url = new URL(`${services.sandbox.outreachUrl}/api/v1/emails/tasks`);
    url.searchParams.set('task_ids', [...new Set(b.map((m) => m.taskId))].join(','));
    url.searchParams.set('task_subject', `#${mark}`);
    const answer = await (
      await fetch(url, { headers: { Authorization: `ApiKey ${DEMO_KEYS.paid}` } })
    ).json();
    expect(answer.total).toBe(new Set(b.map((m) => m.taskId)).size);
    for (const task of answer.data)
      expect(task.taskSubject).toMatch(new RegExp(`^B campaign · #${mark}[0-9a-f]{10}$`));
  });
});
