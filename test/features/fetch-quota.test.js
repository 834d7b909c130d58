'use strict';
// Through the built bundle: Apps Script's daily quota of URL Fetch calls (20,000 a day for
// a consumer account, reset 24 h after the first call; the emulator's urlFetchDailyQuota). A phone check is
// one call per number, and the phone service allows 1,000 checks an hour, so the user runs the check again
// each hour as the pause says, until the day's calls (shared with the user's other scripts) are used up:
// then the check pauses, its rows say so, and the user's hourly trigger goes on with it the next day.
// Every number is paid once (counted at the sandbox). The day's other calls are made by the test
// (setFetchQuotaUsed), so a check of 1,300 numbers meets the quota that 25,000 met.
const { useServices, control, newAddon, DEMO_KEYS, jobKey } = require('../support/harness');
const { unlock } = require('../support/unlock');
const { listWithMail } = require('../support/sent-mail');
const {
  registeredPhoneNumber,
  unregisteredPhoneNumber,
  isRegisteredPhone,
} = require('../../dev/sandbox/rules');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const HOUR = 3600 * 1000;
const sheet = () => emu.spreadsheet.getSheets()[0];
const numbers = (n) =>
  Array.from({ length: n }, (_, i) => (i % 2 === 0 ? registeredPhoneNumber(i) : unregisteredPhoneNumber(i)));
const expected = (phone) => (isRegisteredPhone(phone) ? 'registered' : 'not registered');
/** This user's saved phone job (split over `key`, `key.part1`… when large: platform/large-property.ts). */
function job() {
  const store = emu.properties.document;
  const key = jobKey(emu, 'phone');
  const head = store.getProperty(key);
  if (!head) return null;
  const parts = /^@parts:(\d+)$/.exec(head);
  if (!parts) return JSON.parse(head);
  let text = '';
  for (let i = 1; i < Number(parts[1]); i++) text += store.getProperty(`${key}.part${i}`) || '';
  return JSON.parse(text);
}

function runMenu() {
  emu.ui.respond((request) => (request.buttons === 'YES_NO' ? 'YES' : undefined));
  return emu.run('checkSelectedPhones', [], { kind: 'menu' });
}

/** The numbers in column A under a Phone header, selected. */
function fillNumbers(list) {
  const n = list.length;
  sheet().insertRowsAfter(1, n + 1 - sheet().getMaxRows() + 10);
  sheet()
    .getRange(`A1:A${n + 1}`)
    .setValues([['Phone'], ...list.map((p) => [p])]);
  emu.spreadsheet.setActiveSheet(sheet());
  sheet()
    .getRange(`A2:A${n + 1}`)
    .activate();
}

function results(n) {
  return sheet()
    .getRange(`B2:B${n + 1}`)
    .getValues()
    .map((r) => r[0]);
}

/** A fresh add-on with a daily fetch quota of 20,000, three companies found and selected on Companies. */
function threeCompaniesSelected() {
  emu = newAddon(services, { urlFetchDailyQuota: 20000 });
  emu.run('searchCompanies', [{ products: 'a', operator: 'OR', industries: 'e', size: 3 }], {
    kind: 'webapp',
  });
  const companies = emu.spreadsheet.getSheetByName('Companies');
  emu.spreadsheet.setActiveSheet(companies);
  companies.getRange('A2:C4').activate();
  return companies;
}

describe('the daily URL Fetch quota', () => {
  test('a selection larger than a day of calls: the confirmation says so before anything is spent', async () => {
    emu = newAddon(services, { urlFetchDailyQuota: 20000 });
    await control(services.sandbox.phoneUrl, 'POST', '/accounts', { key: DEMO_KEYS.phone, credits: 30000 });
    fillNumbers(numbers(25000));
    const questions = [];
    emu.ui.respond((request) => {
      if (request.buttons === 'YES_NO') questions.push(request.message);
      return request.buttons === 'YES_NO' ? 'NO' : undefined;
    });
    emu.run('checkSelectedPhones', [], { kind: 'menu' });
    expect(questions[0]).toMatch(/25,000 checks needed: 25,000 credits/);
    expect(questions[0]).toMatch(/Google allows 20,000 calls a day \(100,000 with Google Workspace/);
    const checks = await control(services.sandbox.phoneUrl, 'GET', `/phone-checks?key=${DEMO_KEYS.phone}`);
    expect(checks.checks).toEqual([]);
  });

  test('the check meets the quota after an hourly pause, pauses, goes on the next day by the trigger; each number paid once', async () => {
    emu = newAddon(services, { urlFetchDailyQuota: 20000 });
    await control(services.sandbox.phoneUrl, 'POST', '/accounts', { key: DEMO_KEYS.phone, credits: 30000 });
    // The user's other scripts and add-ons made most of today's calls (the quota is the account's, shared):
    // 1,100 are left, more than the phone service's hour (1,000 checks) and fewer than the 1,300 numbers.
    emu.setFetchQuotaUsed(20000 - 1100);
    const N = 1300;
    const list = numbers(N);
    fillNumbers(list);

    // The user runs the check again after each hourly pause, until the day's calls are used up.
    let hourlyPauses = 0;
    for (let hour = 0; hour < 10 && !(job() && job().data.byTimer); hour++) {
      if (hour > 0) {
        hourlyPauses++;
        emu.clock.advance(HOUR + 5000);
      }
      emu.ui.reset();
      runMenu();
    }
    expect(hourlyPauses).toBe(1);
    const paused = job();
    expect(paused.data.byTimer).toBe(true);
    expect(emu.fetchQuota().used).toBeGreaterThan(19900);
    expect(emu.fetchQuota().used).toBeLessThanOrEqual(20000);
    const alert = emu.ui.alerts[emu.ui.alerts.length - 1];
    expect(alert.title).toBe('Phone check paused');
    expect(alert.message).toMatch(/Google's daily limit of calls from add-ons to other services is used up/);
    expect(alert.message).toMatch(/say "Waiting" in their cells/);
    expect(alert.message).toMatch(/goes on by itself \(at the latest \d{4}-\d\d-\d\d \d\d:\d\d\)/);
    expect(JSON.stringify(emu.ui.alerts)).not.toMatch(/Service invoked too many times/);
    const waiting = results(N).filter((v) => /^Waiting: Google's daily limit/.test(v)).length;
    expect(waiting).toBeGreaterThan(100);
    // Every cell has its answer or says it waits: none is blank, none has a result twice.
    const answered = results(N).filter((v) => v === 'registered' || v === 'not registered').length;
    expect(answered + waiting).toBe(N);
    const clock = emu.triggers.filter((t) => t.eventType === 'CLOCK');
    expect(clock).toHaveLength(1);

    // The next day the user's hourly trigger goes on with it until it is done.
    for (let hour = 0; hour < 60 && job(); hour++) emu.advanceTime(HOUR);
    expect(job()).toBeNull();
    expect(results(N)).toEqual(list.map(expected));
    const checks = (await control(services.sandbox.phoneUrl, 'GET', `/phone-checks?key=${DEMO_KEYS.phone}`))
      .checks;
    const perNumber = new Map();
    for (const c of checks) perNumber.set(c.phone, (perNumber.get(c.phone) || 0) + 1);
    expect(perNumber.size).toBe(N);
    expect([...perNumber.values()].every((n) => n === 1)).toBe(true);
    const stats = await control(services.sandbox.phoneUrl, 'GET', '/stats');
    expect(stats.charged.phoneCredits[DEMO_KEYS.phone]).toBe(N);
    // The trigger did the rest, and went away when nothing was left for it.
    const byTrigger = emu.executions.filter((e) => e.kind === 'trigger' && e.status === 'completed');
    expect(byTrigger.length).toBeGreaterThan(0);
    expect(emu.triggers.filter((t) => t.eventType === 'CLOCK')).toHaveLength(0);
    expect(emu.executions.filter((e) => e.status === 'failed')).toEqual([]);
  });

  test("Test connection with the day's calls used up says so in words, not in Apps Script's text", () => {
    emu = newAddon(services, { urlFetchDailyQuota: 20000 });
    emu.setFetchQuotaUsed(20000);
    const result = emu.run('testConnection', [], { kind: 'webapp' });
    expect(JSON.stringify(result)).toMatch(/Google's daily limit of calls/);
    expect(JSON.stringify(result)).not.toMatch(/Service invoked too many times/);
  });

  test('a send that meets the quota waits: its rows say why, the hourly run sends each of them once the next day', async () => {
    emu = newAddon(services, { urlFetchDailyQuota: 20000 });
    const emails = ['a@example.com', 'b@example.com', 'c@example.com'];
    listWithMail(emu, 'Outreach', [['Name', 'Email'], ...emails.map((e, i) => [`P ${i}`, e])], {
      campaign: 'Spring',
      subject: 'Hello {{Name}}',
      body: 'Dear {{Name}}',
    });
    emu.setFetchQuotaUsed(19999); // the confirmation's balance is the day's last call
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    const text = JSON.stringify(emu.ui.alerts) + JSON.stringify(emu.snapshot());
    expect(text).not.toMatch(/Service invoked too many times/);
    const status = emu.spreadsheet.getSheetByName('Outreach').getRange('C2:C4').getValues().flat();
    for (const s of status)
      expect(s).toMatch(/^Waiting for the sending quota \(Google's daily limit of calls/);
    expect(emu.triggers.filter((t) => t.eventType === 'CLOCK')).toHaveLength(1);
    for (let hour = 0; hour < 30; hour++) emu.advanceTime(HOUR);
    const mails = (await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${DEMO_KEYS.paid}`)).mails;
    expect(mails.map((m) => m.recipientEmail).sort()).toEqual(emails);
    const after = emu.spreadsheet.getSheetByName('Outreach').getRange('C2:C4').getValues().flat();
    for (const s of after) expect(s).not.toMatch(/Waiting/);
  });

  test('an unlock that meets the quota pauses and says what happened and when it can go on; nothing is charged twice', async () => {
    const companies = threeCompaniesSelected();
    emu.setFetchQuotaUsed(19999); // the confirmation's balance is the day's last call
    emu.ui.respond((request) => (request.buttons === 'YES_NO' ? 'YES' : undefined));
    unlock(emu);
    const said = JSON.stringify(emu.ui.alerts) + JSON.stringify(emu.ui.dialogs);
    expect(said).toMatch(/Google's daily limit of calls from add-ons to other services is used up/);
    expect(said).toMatch(
      /Run it again after \d{4}-\d\d-\d\d \d\d:\d\d \(at the latest \d{4}-\d\d-\d\d \d\d:\d\d\)/,
    );
    expect(said).not.toMatch(/Service invoked too many times/);
    expect((await control(services.sandbox.outreachUrl, 'GET', '/unlocks')).unlocks).toHaveLength(0);
    const statuses = companies.getRange('A1:Z4').getValues();
    const column = statuses[0].indexOf('Unlock status');
    for (const row of statuses.slice(1)) expect(row[column]).toMatch(/^Waiting: Google's daily limit/);
    // The next day the same action goes on with it: each company unlocked once.
    emu.clock.advance(24 * HOUR);
    unlock(emu);
    const unlocks = (await control(services.sandbox.outreachUrl, 'GET', '/unlocks')).unlocks;
    expect(unlocks).toHaveLength(3);
    expect(new Set(unlocks.map((u) => u.domain)).size).toBe(3);
    expect(unlocks.every((u) => u.charged)).toBe(true);
  });
  test("the quota met while reading the unlocked companies' contacts pauses too: the next day fills them", async () => {
    threeCompaniesSelected();
    emu.setFetchQuotaUsed(20000 - 4); // the confirmation's balance and the three unlocks: then no call is left
    emu.ui.respond((request) => (request.buttons === 'YES_NO' ? 'YES' : undefined));
    unlock(emu);
    const said = JSON.stringify(emu.ui.alerts) + JSON.stringify(emu.ui.dialogs);
    expect(said).toMatch(/Google's daily limit of calls from add-ons to other services is used up/);
    expect((await control(services.sandbox.outreachUrl, 'GET', '/unlocks')).unlocks).toHaveLength(3);
    // No company is written off with the quota as its error: none is on Profiles yet.
    const profiles = () => emu.spreadsheet.getSheetByName('Profiles');
    expect(profiles() ? profiles().getLastRow() : 1).toBeLessThanOrEqual(1);
    // The next day the same action fills their profiles and contacts, nothing charged again.
    emu.clock.advance(24 * HOUR);
    unlock(emu);
    expect(profiles().getLastRow()).toBe(4);
    expect(emu.spreadsheet.getSheetByName('Contacts').getLastRow()).toBeGreaterThan(1);
    const unlocks = (await control(services.sandbox.outreachUrl, 'GET', '/unlocks')).unlocks;
    expect(unlocks.filter((u) => u.charged)).toHaveLength(3);
  });
});
