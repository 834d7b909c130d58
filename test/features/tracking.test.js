'use strict';
// Issue 13 through the built bundle, against the sandbox and its clock: the Tracking sheet, the summary and
// its chart, the Mail status of the rows sent, the hourly trigger and its rules, Show mail, PROSPECT_TASK,
// and a refresh of 10,000 mails across executions. Mails are sent through the add-on's own sender.
const { useServices, control, newAddon, DEMO_KEYS } = require('../support/harness');
const { sendFromSheet, sendAtSandboxToSheet } = require('../support/sent-mail');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const HOUR = 3600_000;
const sheet = (name) => emu.spreadsheet.getSheetByName(name);
const rowsOf = (name, headerRow = 1) => {
  const values = sheet(name).getDataRange().getValues();
  const header = values[headerRow - 1];
  return values.slice(headerRow).map((row) => Object.fromEntries(header.map((h, i) => [h, row[i]])));
};
const tracking = () => rowsOf('Tracking');
const byRecipient = (rows) => Object.fromEntries(rows.map((r) => [r.Recipient || r.Email, r]));
const requests = (part) => emu.fetchLog.filter((r) => r.url.includes(part)).length;
const refresh = () => emu.run('refreshTracking', [], { kind: 'menu' });
const summaryCell = (label) => {
  const row = sheet('Tracking summary')
    .getRange('A1:B6')
    .getValues()
    .find((r) => r[0] === label);
  return row ? row[1] : undefined;
};
const clockTriggers = () => emu.triggers.filter((t) => t.handler === 'refreshTrackingOnTimer');

/** A small campaign sent from sheet "Outreach": one normal, one bouncing and one opening recipient. */
function smallCampaign() {
  const { sent, taskIds } = sendFromSheet(emu, [
    'jane@example.com',
    'bounce.bob@example.com',
    'open.ann@example.com',
  ]);
  return { taskId: taskIds[0], mails: sent };
}

describe('Refresh tracking', () => {
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
      'Task ID': send.taskId,
      Campaign: 'Spring launch',
      'Task status': 'Pending',
      'Mail ID': send.mails[0].mailId,
      Nickname: 'Jane',
      Subject: 'Hello Jane',
      'Mail status': 'Pending',
      'Sent at': '',
      'Delivery confirmed at': '',
    });
    expect(rows['jane@example.com']['Refreshed at']).toBeInstanceOf(Date);
    expect(rowsOf('Outreach').map((r) => r['Mail status'])).toEqual(['Accepted', 'Accepted', 'Accepted']);
    // One task request and one page of mails (task ids, 100 per page, in mail-id order).
    expect(requests('/api/v1/emails/tasks')).toBe(1);
    expect(requests('/api/v1/emails/mails')).toBe(1);
    const mailsUrl = new URL(emu.fetchLog.find((r) => r.url.includes('/emails/mails')).url);
    expect(Object.fromEntries(mailsUrl.searchParams)).toMatchObject({
      task_ids: String(send.taskId),
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
    expect(rows['jane@example.com']).toMatchObject({ 'Mail status': 'Delivered', 'Task status': 'Partial' });
    expect(rows['jane@example.com']['Delivery confirmed at']).toBeInstanceOf(Date);
    expect(rows['jane@example.com']['Delivery confirmed at'].getTime()).toBe(
      rows['jane@example.com']['Sent at'].getTime() + 3000,
    );
    list = byRecipient(rowsOf('Outreach'));
    expect(list['open.ann@example.com']['Mail status']).toBe('Delivered');
    expect(list['bounce.bob@example.com']['Mail status']).toBe(
      'Failed: Mailbox unavailable (550 hard bounce)',
    );
    expect(emu.ui.toasts.at(-1).message).toMatch(/Tracking refreshed: 3 mails of 1 task read/);
  });

  test('the summary: a row per task, the mails per status and one chart, updated and never duplicated', async () => {
    emu = newAddon(services);
    const send = smallCampaign();
    refresh();
    services.clock.advance(70_000); // final, and the opening recipient has opened
    refresh();
    expect(rowsOf('Tracking summary', 8)).toEqual([
      {
        'Task ID': send.taskId,
        Campaign: 'Spring launch',
        Status: 'Partial',
        Total: 3,
        Sent: 2,
        Failed: 1,
        Opened: 1,
        Created: expect.any(Date),
        Completed: expect.any(Date),
      },
    ]);
    expect(sheet('Tracking summary').getRange('D1:E5').getValues()).toEqual([
      ['Mail status', 'Mails'],
      ['Waiting to be sent', 0],
      ['Sent (delivery not confirmed yet)', 0],
      ['Delivered (confirmed)', 2],
      ['Failed', 1],
    ]);
    const charts = sheet('Tracking summary').getCharts();
    expect(charts).toHaveLength(1);
    expect(charts[0].getRanges().map((r) => r.getA1Notation())).toEqual(['D1:E5']);
    expect(charts[0].getOptions().get('title')).toBe('Mails by status (3)');
    expect(summaryCell('Result')).toMatch(/Tracking refreshed: 3 mails of 1 task read/);
    expect(summaryCell('Auto-refresh')).toMatch(/^Off/);
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

  test('tasks are found from the Task ID column too; final tasks are not read again unless rows are missing', async () => {
    emu = newAddon(services);
    sendFromSheet(emu, ['amy@example.com', 'ben@example.com'], { sheetName: 'List B' });
    // The Task ID column is the record of what was sent (no task list is kept in properties).
    services.clock.advance(20_000);
    refresh();
    expect(tracking().map((r) => r['Mail status'])).toEqual(['Delivered', 'Delivered']);
    expect(rowsOf('List B').map((r) => r['Mail status'])).toEqual(['Delivered', 'Delivered']);

    emu.fetchLog.length = 0;
    refresh(); // all final: the task is read, its mails are not
    expect(requests('/api/v1/emails/tasks')).toBe(1);
    expect(requests('/api/v1/emails/mails')).toBe(0);
    expect(emu.ui.toasts.at(-1).message).toMatch(/2 final mails not read again/);

    sheet('Tracking').deleteRow(2); // a row the user deleted comes back
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
  test('turning it on twice keeps one trigger; it runs without UI and removes itself when all is final', async () => {
    emu = newAddon(services);
    smallCampaign();
    expect(emu.run('setAutoRefresh', [true], { kind: 'menu' })).toMatchObject({ on: true });
    expect(emu.run('setAutoRefresh', [true], { kind: 'menu' })).toMatchObject({ on: true });
    expect(clockTriggers()).toHaveLength(1);
    expect(clockTriggers()[0]).toMatchObject({ eventType: 'CLOCK', schedule: { kind: 'hours', hours: 1 } });

    // A second send just before the first run: still on its way when the trigger fires.
    services.clock.advance(HOUR - 1000);
    sendFromSheet(emu, ['late@example.com'], { sheetName: 'Late' });
    emu.ui.reset();
    const [first] = emu.advanceTime(1000);
    expect(first).toMatchObject({ handler: 'refreshTrackingOnTimer', status: 'completed' });
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
    expect(clockTriggers()).toHaveLength(0);
    expect(summaryCell('Auto-refresh')).toMatch(/^Off since .*every task and every mail is final/);
    expect(emu.advanceTime(3 * HOUR)).toEqual([]);

    // The menu's confirmation states the last automatic run.
    emu.ui.queue('NO');
    emu.run('toggleAutoRefresh', [], { kind: 'menu' });
    expect(emu.ui.alerts.at(-1).message).toMatch(/Auto-refresh is OFF/);
    expect(emu.ui.alerts.at(-1).message).toMatch(
      /Last automatic run: .*turned itself off: every task and every mail is final/,
    );
  });

  test('after a 401 the trigger removes itself and the error stays visible', async () => {
    emu = newAddon(services);
    smallCampaign();
    emu.run('setAutoRefresh', [true], { kind: 'menu' });
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
    emu.run('setAutoRefresh', [true], { kind: 'menu' });
    emu.properties.user.deleteProperty('settings.outreachApiKey');
    emu.fetchLog.length = 0;
    emu.advanceTime(HOUR);
    expect(clockTriggers()).toHaveLength(0);
    expect(emu.fetchLog).toHaveLength(0);
    expect(JSON.parse(emu.properties.document.getProperty('tracking.auto')).offReason).toMatch(
      /no outreach API key/,
    );

    emu.properties.user.setProperty('settings.outreachApiKey', DEMO_KEYS.paid);
    emu.run('setAutoRefresh', [true], { kind: 'menu' });
    emu.fetchLog.length = 0;
    const auto = JSON.parse(emu.properties.document.getProperty('tracking.auto'));
    emu.properties.document.setProperty(
      'tracking.auto',
      JSON.stringify({ ...auto, since: services.clock.now() - 31 * 24 * HOUR }),
    );
    emu.properties.document.setProperty('send.lastAt', String(services.clock.now() - 31 * 24 * HOUR)); // nor sent since
    emu.advanceTime(HOUR);
    expect(clockTriggers()).toHaveLength(0);
    expect(emu.fetchLog).toHaveLength(0);
    expect(JSON.parse(emu.properties.document.getProperty('tracking.auto')).offReason).toMatch(/30 days/);
  });

  test('turning it off removes the trigger; another user keeps their own', async () => {
    emu = newAddon(services);
    emu.run('setAutoRefresh', [true], { kind: 'menu' });
    emu.setActiveUser('editor@example.com');
    emu.properties.user.setProperty('settings.outreachApiKey', DEMO_KEYS.paid);
    emu.run('setAutoRefresh', [true], { kind: 'menu' });
    expect(clockTriggers()).toHaveLength(2);
    emu.ui.queue('YES');
    emu.run('toggleAutoRefresh', [], { kind: 'menu' });
    expect(emu.ui.alerts.at(-1).message).toMatch(/Auto-refresh is ON for you/);
    expect(clockTriggers().map((t) => t.user)).toEqual(['owner@example.com']);
  });
});

describe('Show mail and PROSPECT_TASK', () => {
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

  test('PROSPECT_TASK: header and counts, cached briefly, a specific error for an unknown task', async () => {
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
    expect(result[1].slice(0, 7)).toEqual([send.taskId, 'Spring launch', 'Partial', 2, 1, 1, 0]);
    expect(result[1][7]).toBeInstanceOf(Date);
    expect(emu.runCustomFunction('PROSPECT_TASK', [String(send.taskId)])).toEqual(result); // from the cache
    expect(requests('/api/v1/emails/tasks/')).toBe(1);
    expect(() => emu.runCustomFunction('PROSPECT_TASK', [999999])).toThrow(/Task 999999 was not found/);
    expect(() => emu.runCustomFunction('PROSPECT_TASK', ['x'])).toThrow(/"x" is not a Task ID/);
  });
});

describe('Scale', () => {
  jest.setTimeout(300_000);
  // These tests keep the main thread busy for seconds: let fetch see the sandbox's closed idle sockets
  // before the next test's first control call.
  afterEach(() => new Promise((resolve) => setTimeout(resolve, 50)));

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
    // The minimum: 1 request for the 100 tasks, 100 pages of mails; never a 429.
    expect(requests('/api/v1/emails/tasks')).toBe(1);
    expect(requests('/api/v1/emails/mails')).toBe(100);
    expect(emu.fetchLog.filter((r) => r.status === 429)).toHaveLength(0);
  }

  test('a refresh of 10,000 mails goes on across executions in the progress dialog', async () => {
    emu = newAddon(services, { fetchLatencyMs: 4000 }); // a slow service: 101 requests take > 6 minutes
    await bigCampaign();
    emu.resetStats();
    refresh();
    expect(emu.ui.dialogs.at(-1).title).toBe('Refreshing tracking');
    let steps = 0;
    let progress;
    do {
      progress = emu.run('continueJob', ['tracking'], { kind: 'webapp' });
      steps++;
    } while (!progress.finished && steps < 20);
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
    emu = newAddon(services, { fetchLatencyMs: 4000 });
    await bigCampaign();
    emu.run('setAutoRefresh', [true], { kind: 'menu' });
    const first = emu.advanceTime(HOUR);
    expect(first).toHaveLength(1);
    expect(first[0].status).toBe('completed');
    expect(emu.properties.document.getProperty('job.tracking')).not.toBeNull(); // cut at the deadline, kept
    expect(tracking().length).toBeGreaterThan(0);
    expect(tracking().length).toBeLessThan(10_000);
    emu.advanceTime(HOUR);
    expectAllTracked();
    expect(clockTriggers()).toHaveLength(0); // then everything was final
  });
});
