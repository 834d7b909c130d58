'use strict';
// Through the built bundle: granular consent. A user may grant some of the add-on's
// permissions and refuse others (the emulator's grantedScopes). Each entry point checks what it needs first
// and says which permission is missing, what it is for and how to grant it, never Apps Script's raw
// "You do not have permission to call …"; what needs nothing refused keeps working.
const { useServices, newAddon } = require('../support/harness');
const { turnAutoRefresh } = require('../support/auto-refresh');
const { listWithMail } = require('../support/sent-mail');
const sheets = require('../support/sheets');
const { peopleRows } = sheets;

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const HOUR = 3600_000;
const SCOPE = {
  sheet: 'https://www.googleapis.com/auth/spreadsheets.currentonly',
  fetch: 'https://www.googleapis.com/auth/script.external_request',
  ui: 'https://www.googleapis.com/auth/script.container.ui',
  triggers: 'https://www.googleapis.com/auth/script.scriptapp',
};
const TRIGGER_PERMISSION = /"Allow this application to run when you are not present" \(for the hourly run/;
const FETCH_PERMISSION =
  /"Connect to an external service" \(to reach the prospecting, e-mail and phone-check services/;
const HOW = /To grant it: pick the item again in Extensions › Outreach and tick that permission/;
const RAW = /You do not have permission/;
const clockTriggers = () => emu.triggers.filter((t) => t.eventType === 'CLOCK');
const webapp = (name, ...args) => emu.run(name, args, { kind: 'webapp' });

function makeList(emails) {
  return listWithMail(emu, 'Outreach', peopleRows(emails), {
    campaign: 'Spring',
    subject: 'Hello {{Name}}',
    body: 'Dear {{Name}}',
  });
}

const summaryCell = (label) => sheets.summaryCell(emu, label);

describe('a user who refused the trigger permission (script.scriptapp)', () => {
  const granted = [SCOPE.sheet, SCOPE.fetch, SCOPE.ui];

  test('auto-refresh and a scheduled send say what to grant; nothing is half set up', () => {
    emu = newAddon(services, { grantedScopes: granted });
    makeList(['jane@example.com']);
    emu.run('toggleAutoRefresh', [], { kind: 'menu' }); // nothing is asked before the permission is there
    const alert = emu.ui.alerts.at(-1);
    expect(alert.title).toBe('Auto-refresh tracking');
    expect(alert.message).toMatch(/^Auto-refresh tracking needs the permission /);
    expect(alert.message).toMatch(TRIGGER_PERMISSION);
    expect(alert.message).toMatch(HOW);
    const when = new Date(emu.clock.now() + 3 * HOUR).toISOString().slice(0, 16);
    let error;
    try {
      webapp('scheduleSend', when);
    } catch (e) {
      error = e;
    }
    expect(error.message).toMatch(/^Schedule a send needs the permission /);
    expect(error.message).toMatch(TRIGGER_PERMISSION);
    expect(error.message).not.toMatch(RAW);
    expect(clockTriggers()).toHaveLength(0);
    expect(JSON.stringify(emu.ui.alerts)).not.toMatch(RAW);
  });

  test('search and sending still work', () => {
    emu = newAddon(services, { grantedScopes: granted });
    const found = webapp('searchCompanies', { products: 'solar' });
    expect(found).toBeTruthy();
    expect(emu.spreadsheet.getSheetByName('Companies').getLastRow()).toBeGreaterThan(1);
    makeList(['jane@example.com', 'joe@example.com']);
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    const status = emu.spreadsheet.getSheetByName('Outreach').getRange('C2:C3').getValues().flat();
    expect(status.join('\n')).not.toMatch(/Not sent|Failed|permission/);
    expect(status.every((s) => String(s) !== '')).toBe(true);
    expect(emu.fetchLog.filter((r) => r.url.endsWith('/emails/send/personalized'))).toHaveLength(1);
    expect(JSON.stringify(emu.ui.alerts)).not.toMatch(RAW);
    expect(emu.executions.filter((e) => e.status === 'failed')).toEqual([]);
  });
});

describe('other refusals', () => {
  test('the services refused: a menu action, a sidebar endpoint and a formula say so before calling anything', () => {
    emu = newAddon(services, { grantedScopes: [SCOPE.sheet, SCOPE.ui, SCOPE.triggers] });
    emu.run('refreshTracking', [], { kind: 'menu' });
    expect(emu.ui.alerts.at(-1).message).toMatch(/^Refresh tracking needs the permission /);
    expect(emu.ui.alerts.at(-1).message).toMatch(FETCH_PERMISSION);
    expect(() => webapp('searchCompanies', { products: 'solar' })).toThrow(
      /^Search needs the permission "Connect/,
    );
    expect(() => emu.runCustomFunction('PHONE_CREDITS', [])).toThrow(
      /=PHONE_CREDITS needs the permission "Connect to an external service"/,
    );
    expect(emu.fetchLog).toHaveLength(0);
  });

  test("the dialogs refused: a menu action ends with Google's consent prompt for what is missing", () => {
    emu = newAddon(services, { grantedScopes: [SCOPE.sheet, SCOPE.fetch] });
    expect(emu.run('refreshTracking', [], { kind: 'menu' })).toBeUndefined();
    expect(emu.ui.authPrompts).toEqual([expect.objectContaining({ scopes: [SCOPE.ui] })]);
    expect(emu.executions.at(-1).status).toBe('authorization prompt');
    expect(emu.fetchLog).toHaveLength(0);
  });

  test('the hourly trigger of a user who later refused a permission records it on the summary and waits', () => {
    emu = newAddon(services);
    makeList(['jane@example.com']);
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    emu.run('refreshTracking', [], { kind: 'menu' });
    turnAutoRefresh(emu, true);
    emu.grantedScopes = [SCOPE.sheet, SCOPE.ui, SCOPE.triggers]; // the user removed "external service"
    emu.fetchLog.length = 0;
    const runs = emu.advanceTime(2 * HOUR);
    expect(runs.map((r) => r.status)).toEqual(['completed', 'completed']);
    expect(emu.fetchLog).toHaveLength(0);
    expect(clockTriggers()).toHaveLength(1);
    const text = summaryCell('Auto-refresh');
    expect(text).toMatch(
      /the hourly run of an editor did nothing: It needs the permission "Connect to an external service"/,
    );
    expect(text).toMatch(HOW);
    expect(text).not.toMatch(RAW);
    emu.grantedScopes = null; // granted again
    emu.advanceTime(HOUR);
    expect(summaryCell('Auto-refresh')).not.toMatch(/did nothing/);
  });
});
