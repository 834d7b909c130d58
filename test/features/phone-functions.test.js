'use strict';
// =PHONE_CHECK and =PHONE_CREDITS through the built bundle, as custom-function executions (30 s, read-only
// spreadsheet, no UI, the owner's user properties) against the sandbox's phone service. The owner has
// allowed formulas in the document to spend credits (the Settings switch; see owner-and-editors.test.js).
const { useServices, control, newAddon, onFirstCheck, DEMO_KEYS } = require('../support/harness');
const { registeredPhoneNumber, unregisteredPhoneNumber } = require('../../dev/sandbox/rules');

const services = useServices();
let emu;

afterEach(() => emu && emu.dispose());

const checkRequests = () => emu.fetchLog.filter((r) => r.url.includes('/api/wa/check')).length;
const phoneCheck = (...args) => emu.runCustomFunction('PHONE_CHECK', args);
const NOT_CHECKED_YET = 'not checked yet — recalculate';
const NO_KEY =
  "No phone-check API key for formulas: they use the spreadsheet owner's key. The owner adds it in Extensions › Outreach › Settings; editors can check their selection from the menu with their own key.";

function numbers(n, start = 0) {
  return Array.from({ length: n }, (_, i) =>
    i % 2 === 0 ? registeredPhoneNumber(start + i) : unregisteredPhoneNumber(start + i),
  );
}

describe('=PHONE_CHECK', () => {
  test('a range gives the same shape back; blanks stay blank; duplicates are checked once', () => {
    emu = newAddon(services, { allowPhoneFormulas: true });
    const reg = registeredPhoneNumber(7);
    const unreg = unregisteredPhoneNumber(8);
    const input = [
      [reg, '', unreg],
      ['', Number(reg.slice(1)), '+1 (202) 555-0000-081'],
      ['12', 'hello', '   '],
    ];
    const out = phoneCheck(input);
    expect(out).toEqual([
      [true, '', false],
      ['', true, false],
      ['invalid number: too short, at least 7 digits', 'invalid number: contains letters', ''],
    ]);
    expect(checkRequests()).toBe(2);
  });

  test('a single cell gives a single value; bad input gets a specific message', () => {
    emu = newAddon(services, { allowPhoneFormulas: true });
    expect(phoneCheck(registeredPhoneNumber(1))).toBe(true);
    expect(phoneCheck(unregisteredPhoneNumber(1))).toBe(false);
    expect(phoneCheck('')).toBe('');
    expect(phoneCheck()).toMatch(/Give a phone number or a range/);
    expect(phoneCheck(true)).toBe('invalid number: TRUE/FALSE, not a phone number');
    expect(phoneCheck(new Date(Date.UTC(2026, 0, 5)))).toBe('invalid number: a date, not a phone number');
    expect(phoneCheck('020 7946 0000')).toBe('invalid number: add the country code, e.g. +44 20 7946 0000');
    expect(phoneCheck(12.5)).toBe('invalid number: not a whole number');
    // Valid here, refused by the service (1002): kept, so asking again costs nothing.
    expect(phoneCheck('+1234567')).toBe('invalid number');
    const before = checkRequests();
    expect(phoneCheck('+1234567')).toBe('invalid number');
    expect(checkRequests()).toBe(before);
  });

  test('the national trunk prefix written as (0) after the country code is dropped, not sent', () => {
    emu = newAddon(services, { allowPhoneFormulas: true });
    expect(phoneCheck([['+44 (0) 20 7946 0000'], ['0044 (0)20 7946 0001'], ['+49(0)30 1234567']])).toEqual([
      [true],
      [false],
      [false],
    ]);
    const sent = emu.fetchLog.map((r) => new URL(r.url).searchParams.get('phone'));
    expect(sent).toEqual(['+442079460000', '+442079460001', '+49301234567']);
  });

  test('a number without its country code is refused for free; digits that start with one are checked', () => {
    emu = newAddon(services, { allowPhoneFormulas: true });
    const national = 'invalid number: add the country code, e.g. +44 20 7946 0000';
    // Read as +5551234567 it would reach Brazil's code, but Brazilian numbers have 10+ digits: refused instead.
    expect(
      phoneCheck([['(555) 123-4567'], ['555-123-4567'], [5551234567], ['07946 095 8'], [2125550123]]),
    ).toEqual([[national], [national], [national], [national], [national]]);
    expect(checkRequests()).toBe(0);
    // A number cell loses its +: digits that begin with a country code and enough digits after it are sent.
    expect(phoneCheck([[4930123456], ['44 20 7946 0002'], [12025550124]])).toEqual([[true], [true], [true]]);
    const sent = emu.fetchLog.map((r) => new URL(r.url).searchParams.get('phone'));
    expect(sent).toEqual(['+4930123456', '+442079460002', '+12025550124']);
  });

  test('recalculation makes 0 requests and spends nothing', async () => {
    emu = newAddon(services, { allowPhoneFormulas: true });
    const list = numbers(20);
    const input = list.map((p) => [p]);
    const first = phoneCheck(input);
    expect(checkRequests()).toBe(20);
    emu.fetchLog.length = 0;
    expect(phoneCheck(input)).toEqual(first);
    expect(phoneCheck(input.slice(3, 9))).toEqual(first.slice(3, 9));
    expect(emu.fetchLog.length).toBe(0);
    const stats = await control(services.sandbox.phoneUrl, 'GET', '/stats');
    expect(stats.charged.phoneCredits[DEMO_KEYS.phone]).toBe(20);
  });

  test('shares results with the menu action both ways', () => {
    emu = newAddon(services, { allowPhoneFormulas: true });
    const list = numbers(6);
    const sheet = emu.spreadsheet.getSheets()[0];
    sheet.getRange('A1:A4').setValues([['Phone'], ...list.slice(0, 3).map((p) => [p])]);
    sheet.getRange('A2:A4').activate();
    emu.run('checkSelectedPhones', [], { kind: 'menu' });
    expect(checkRequests()).toBe(3);
    // Checked by the menu: answered from the store.
    expect(phoneCheck(list.slice(0, 3).map((p) => [p]))).toEqual([[true], [false], [true]]);
    expect(checkRequests()).toBe(3);
    // Checked by the formula: the menu action finds them known (no confirmation, no request).
    expect(phoneCheck(list.slice(3).map((p) => [p]))).toEqual([[false], [true], [false]]);
    expect(checkRequests()).toBe(6);
    sheet.getRange('A5:A7').setValues(list.slice(3).map((p) => [p]));
    sheet.getRange('A2:A7').activate();
    emu.ui.reset();
    emu.run('checkSelectedPhones', [], { kind: 'menu' });
    expect(emu.ui.alerts).toEqual([]);
    expect(checkRequests()).toBe(6);
    expect(
      sheet
        .getRange('B2:B7')
        .getValues()
        .map((r) => r[0]),
    ).toEqual([
      'registered',
      'not registered',
      'registered',
      'not registered',
      'registered',
      'not registered',
    ]);
  });

  test('cells not reached within the 30 s limit say so; the next recalculation goes on without paying twice', () => {
    emu = newAddon(services, { allowPhoneFormulas: true, fetchLatencyMs: 5000 });
    const list = numbers(600);
    const input = list.map((p) => [p]);
    const first = phoneCheck(input);
    const waiting = first.filter((r) => r[0] === NOT_CHECKED_YET).length;
    expect(waiting).toBeGreaterThan(0);
    expect(checkRequests()).toBe(600 - waiting);
    expect(emu.executions[emu.executions.length - 1].status).toBe('completed');
    const second = phoneCheck(input);
    expect(second.filter((r) => r[0] === NOT_CHECKED_YET).length).toBe(0);
    expect(second).toEqual(list.map((_, i) => [i % 2 === 0]));
    expect(checkRequests()).toBe(600);
  });

  test('a slow service: no round is started that cannot end before the 30 s limit (a paid answer is never lost)', async () => {
    emu = newAddon(services, { allowPhoneFormulas: true, fetchLatencyMs: 10_200 });
    const list = numbers(300);
    const input = list.map((p) => [p]);
    const first = phoneCheck(input);
    expect(emu.executions[emu.executions.length - 1].status).toBe('completed');
    const answered = first.filter((r) => r[0] !== NOT_CHECKED_YET).length;
    expect(answered).toBe(checkRequests());
    expect(phoneCheck(input)).toEqual(list.map((_, i) => [i % 2 === 0]));
    expect(checkRequests()).toBe(300);
    const stats = await control(services.sandbox.phoneUrl, 'GET', '/stats');
    expect(stats.charged.phoneCredits[DEMO_KEYS.phone]).toBe(300);
  });

  test('a large new range on a slow service: answers are stored per batch and no batch outlives the 30 s', async () => {
    // 15 s per round trip; the first three checks fail with 1006 (not charged) and would be retried after 1 s.
    emu = newAddon(services, { allowPhoneFormulas: true, fetchLatencyMs: 15_000 });
    await control(services.sandbox.phoneUrl, 'POST', '/faults', {
      path: '/api/wa/check',
      count: 3,
      kind: 'phone-code',
      code: 1006,
    });
    const list = numbers(300, 700);
    const input = list.map((p) => [p]);
    const first = phoneCheck(input);
    const execution = emu.executions.at(-1);
    expect(execution.status).toBe('completed');
    expect(execution.endMs - execution.startMs).toBeLessThan(30_000);
    const answered = first.filter(([a]) => a === true || a === false).length;
    expect(answered).toBeGreaterThan(0);
    const paid = async () =>
      (await control(services.sandbox.phoneUrl, 'GET', `/phone-checks?key=${DEMO_KEYS.phone}`)).checks.filter(
        (c) => c.charged,
      );
    expect(await paid()).toHaveLength(answered);
    // Every paid answer was kept: recalculations finish the range without paying for any number twice.
    for (let i = 0; i < 10 && phoneCheck(input).some(([a]) => a === NOT_CHECKED_YET); i++);
    expect(phoneCheck(input)).toEqual(list.map((_, i) => [i % 2 === 0]));
    const charged = await paid();
    expect(charged).toHaveLength(300);
    expect(new Set(charged.map((c) => c.phone)).size).toBe(300);
  });

  test('1006 after the retries gives an error text; recalculation checks it again', async () => {
    emu = newAddon(services, { allowPhoneFormulas: true });
    await control(services.sandbox.phoneUrl, 'POST', '/faults', {
      path: '/api/wa/check',
      count: 4,
      kind: 'phone-code',
      code: 1006,
    });
    expect(phoneCheck(registeredPhoneNumber(3))).toMatch(/^error: .*temporary failure \(code 1006\)/);
    expect(phoneCheck(registeredPhoneNumber(3))).toBe(true);
    expect(checkRequests()).toBe(5);
  });

  test('no credits (1004): says what to do; known numbers are still answered', async () => {
    emu = newAddon(services, { allowPhoneFormulas: true });
    expect(phoneCheck(registeredPhoneNumber(1))).toBe(true);
    await control(services.sandbox.phoneUrl, 'POST', '/accounts', { key: DEMO_KEYS.phone, credits: 0 });
    expect(
      phoneCheck([[registeredPhoneNumber(1)], [registeredPhoneNumber(2)], [unregisteredPhoneNumber(3)]]),
    ).toEqual([
      [true],
      ['no phone-check credits left: add credits, then recalculate'],
      ['no phone-check credits left: add credits, then recalculate'],
    ]);
  });

  test('no key: a clear text pointing to Settings (known numbers still answered); a refused key says so', () => {
    emu = newAddon(services, { allowPhoneFormulas: true });
    expect(phoneCheck(registeredPhoneNumber(1))).toBe(true);
    emu.run('saveSettings', [{ phoneApiKey: '' }], { kind: 'webapp' });
    emu.fetchLog.length = 0;
    expect(phoneCheck([[registeredPhoneNumber(1)], [registeredPhoneNumber(2)]])).toEqual([[true], [NO_KEY]]);
    expect(emu.runCustomFunction('PHONE_CREDITS', [])).toBe(NO_KEY);
    expect(emu.fetchLog.length).toBe(0);
    emu.run('saveSettings', [{ phoneApiKey: 'wrong-phone-key' }], { kind: 'webapp' });
    expect(phoneCheck(registeredPhoneNumber(2))).toMatch(
      /API key was refused: check it in Extensions › Outreach › Settings/,
    );
    expect(emu.runCustomFunction('PHONE_CREDITS', [])).toMatch(/API key was refused/);
    const everything = JSON.stringify(emu.snapshot()) + JSON.stringify(emu.logs);
    expect(everything).not.toContain('wrong-phone-key');
  });
});

describe('checks running at the same time never pay for a number twice', () => {
  test('two PHONE_CHECK cells with the same number, the second while the first is on the wire', async () => {
    emu = newAddon(services, { allowPhoneFormulas: true });
    const list = numbers(5);
    let second;
    onFirstCheck(emu, () => (second = phoneCheck(list[2])));
    const first = phoneCheck(list.map((p) => [p]));
    expect(first).toEqual([[true], [false], [true], [false], [true]]);
    expect([true, NOT_CHECKED_YET]).toContain(second);
    expect(checkRequests()).toBe(5);
    expect(phoneCheck(list[2])).toBe(true);
    expect(checkRequests()).toBe(5);
    const stats = await control(services.sandbox.phoneUrl, 'GET', '/stats');
    expect(stats.charged.phoneCredits[DEMO_KEYS.phone]).toBe(5);
  });

  test('PHONE_CHECK while the menu action checks the same number; the menu then uses what PHONE_CHECK found', async () => {
    emu = newAddon(services, { allowPhoneFormulas: true });
    const list = numbers(80);
    const sheet = emu.spreadsheet.getSheets()[0];
    sheet.getRange('A1:A81').setValues([['Phone'], ...list.map((p) => [p])]);
    sheet.getRange('A2:A81').activate();
    let during;
    // While the first chunk (numbers 0-49) is on the wire: a formula asks for one of them and for five of
    // the second chunk (50-79), which the menu has not reached yet.
    onFirstCheck(emu, () => (during = phoneCheck([[list[10]], ...list.slice(60, 65).map((p) => [p])])));
    emu.run('checkSelectedPhones', [], { kind: 'menu' });
    expect(during.slice(1)).toEqual(list.slice(60, 65).map((_, i) => [(60 + i) % 2 === 0]));
    expect([true, NOT_CHECKED_YET]).toContain(during[0][0]);
    expect(checkRequests()).toBe(80);
    const stats = await control(services.sandbox.phoneUrl, 'GET', '/stats');
    expect(stats.charged.phoneCredits[DEMO_KEYS.phone]).toBe(80);
    expect(
      sheet
        .getRange('B2:B81')
        .getValues()
        .map((r) => r[0]),
    ).toEqual(list.map((_, i) => (i % 2 === 0 ? 'registered' : 'not registered')));
  });
});

describe('claims of an execution that was stopped', () => {
  test('a number claimed elsewhere is not paid for again; the claim runs out after 30 s', () => {
    emu = newAddon(services, { allowPhoneFormulas: true });
    const phone = registeredPhoneNumber(4);
    const expiry = Math.ceil((emu.clock.now() + 30_000) / 1000).toString(36);
    emu.properties.document.setProperty('phoneClaims', `${phone}=${expiry}`);
    expect(phoneCheck(phone)).toBe(NOT_CHECKED_YET);
    expect(checkRequests()).toBe(0);
    emu.clock.advance(31_000);
    expect(phoneCheck(phone)).toBe(true);
    expect(checkRequests()).toBe(1);
    expect(emu.properties.document.getProperty('phoneClaims')).toBe('');
  });

  test('the menu action waits for a claimed number, then checks it', () => {
    emu = newAddon(services, { allowPhoneFormulas: true });
    const list = numbers(3);
    const expiry = Math.ceil((emu.clock.now() + 30_000) / 1000).toString(36);
    emu.properties.document.setProperty('phoneClaims', `${list[1]}=${expiry}`);
    const sheet = emu.spreadsheet.getSheets()[0];
    sheet.getRange('A1:A4').setValues([['Phone'], ...list.map((p) => [p])]);
    sheet.getRange('A2:A4').activate();
    emu.run('checkSelectedPhones', [], { kind: 'menu' });
    expect(checkRequests()).toBe(3);
    expect(
      sheet
        .getRange('B2:B4')
        .getValues()
        .map((r) => r[0]),
    ).toEqual(['registered', 'not registered', 'registered']);
  });
});

describe('=PHONE_CREDITS', () => {
  test('returns the credits left', () => {
    emu = newAddon(services, { allowPhoneFormulas: true });
    expect(emu.runCustomFunction('PHONE_CREDITS', [])).toBe(1000);
    phoneCheck(numbers(4).map((p) => [p]));
    expect(emu.runCustomFunction('PHONE_CREDITS', [])).toBe(996);
  });
});

describe('result store', () => {
  test('kept in document properties under 9 KB per value; old entries pruned', () => {
    emu = newAddon(services, { allowPhoneFormulas: true });
    const props = emu.properties.document;
    // Shards full of results checked 40 days ago (expired) and 10 days ago (fresh).
    const minute = (ms) => Math.floor(ms / 60000).toString(36);
    const old = minute(emu.clock.now() - 40 * 24 * 3600 * 1000);
    const fresh = minute(emu.clock.now() - 10 * 24 * 3600 * 1000);
    const filler = (tag) =>
      Array.from({ length: 330 }, (_, i) => `+4930${String(i).padStart(8, '0')}=R${tag}`).join(',');
    for (let i = 0; i < 16; i++) props.setProperty(`phoneResults.${i}`, i % 2 ? filler(fresh) : filler(old));
    const list = numbers(200, 5000);
    phoneCheck(list.map((p) => [p]));
    const all = props.getProperties();
    for (let i = 0; i < 16; i++) {
      expect(all[`phoneResults.${i}`].length).toBeLessThanOrEqual(8000);
      expect(all[`phoneResults.${i}`]).not.toContain(`=R${old}`);
    }
    // Everything just checked is answered without a request.
    emu.fetchLog.length = 0;
    expect(phoneCheck(list.map((p) => [p]))).toEqual(list.map((_, i) => [i % 2 === 0]));
    expect(emu.fetchLog.length).toBe(0);
  });
});
