'use strict';
// Through the built bundle: "Check phone numbers in selection" against the sandbox's phone service.
// Sandbox rule: a valid number (E.164 or 8-15 digits) is registered iff its last digit is even.
const {
  useServices,
  onFirstCheck,
  control,
  controlSync,
  newAddon,
  everythingWritten,
  DEMO_KEYS,
  jobKey,
  driveToEnd,
} = require('../support/harness');
const {
  registeredPhoneNumber,
  unregisteredPhoneNumber,
  isRegisteredPhone,
} = require('../../dev/sandbox/rules');

const services = useServices();
let emu;

afterEach(() => emu && emu.dispose());

const HEADER = 'Phone check';
const checkRequests = () => emu.fetchLog.filter((r) => r.url.includes('/api/wa/check')).length;
const creditRequests = () => emu.fetchLog.filter((r) => r.url.includes('/api/user/credits')).length;
const sheet = () => emu.spreadsheet.getSheets()[0];
const column = (letter, rows) =>
  sheet()
    .getRange(`${letter}1:${letter}${rows}`)
    .getValues()
    .map((r) => r[0]);
const alerts = () => emu.ui.alerts;
const lastAlert = () => alerts()[alerts().length - 1];

function fill(a1, rows) {
  sheet().getRange(a1).setValues(rows);
}

function select(a1) {
  emu.spreadsheet.setActiveSheet(sheet());
  sheet().getRange(a1).activate();
}

/** Answers YES/NO questions with `answer` (or answer(request)); OK alerts get OK. */
function runMenu(answer = 'YES') {
  const respond = typeof answer === 'function' ? answer : () => answer;
  emu.ui.respond((request) => {
    const given = respond(request);
    return request.buttons === 'YES_NO' ? given : undefined;
  });
  return emu.run('checkSelectedPhones', [], { kind: 'menu' });
}

/** n distinct numbers, alternating registered / not registered. */
function numbers(n, start = 0) {
  return Array.from({ length: n }, (_, i) =>
    i % 2 === 0 ? registeredPhoneNumber(start + i) : unregisteredPhoneNumber(start + i),
  );
}

/** n numbers under a "Phone" header in column A, selected (A2:A<n+1>). */
function selectNumbers(n) {
  const list = numbers(n);
  fill(`A1:A${n + 1}`, [['Phone'], ...list.map((p) => [p])]);
  select(`A2:A${n + 1}`);
  return list;
}

const expected = (phone) => (isRegisteredPhone(phone) ? 'registered' : 'not registered');

describe('Check phone numbers in selection', () => {
  test('normalisation variants and duplicates: one check per distinct number, results right of the numbers', () => {
    emu = newAddon(services);
    const reg = registeredPhoneNumber(1); // +12025550000012
    const unreg = unregisteredPhoneNumber(2); // +12025550000021
    const digits = (p) => p.slice(1);
    fill('A1:A10', [
      ['Phone'],
      [reg],
      [`+1 (202) 555-0000-012`],
      [`00${digits(reg)}`],
      [Number(digits(reg))], // a number cell lost its +
      [`+1.202.555.0000.021`],
      [unreg],
      [''],
      [`  ${digits(unreg)}  `],
      ['call me'],
    ]);
    sheet().getRange('C8').setValue('no phone yet'); // a blank number cell; a fully blank row would end the list
    select('A1:A10');
    let confirmText = '';
    runMenu((request) => {
      confirmText = request.message;
      return 'YES';
    });
    expect(confirmText).toMatch(/8 cells with 2 distinct numbers \(1 cell not valid: not checked\)\./);
    expect(confirmText).toMatch(/0 already known/);
    expect(confirmText).toMatch(/2 checks needed: 2 credits/);
    expect(confirmText).toMatch(/Credits left: 1,000\./);
    expect(checkRequests()).toBe(2);
    expect(creditRequests()).toBe(1);
    expect(column('B', 10)).toEqual([
      HEADER,
      'registered',
      'registered',
      'registered',
      'registered',
      'not registered',
      'not registered',
      '',
      'not registered',
      'invalid number: contains letters',
    ]);
    // The number cells are untouched.
    expect(column('A', 10)[4]).toBe(Number(digits(reg)));
    const stats = await_stats();
    expect(stats.charged.phoneCredits[DEMO_KEYS.phone]).toBe(2);
    expect(emu.ui.toasts.map((t) => t.message).join('\n')).toMatch(/2 of 2 numbers checked \(2 credits used/);
  });

  test('a number cell formatted to show leading zeros is read as shown: no paid check of the wrong number', () => {
    emu = newAddon(services);
    fill('A1:A4', [['Phone'], [7911123456], [4930123456], [12025550000012]]);
    sheet().getRange('A2').setNumberFormat('00000000000'); // shows 07911123456: a national number
    sheet().getRange('A3').setNumberFormat('"00"0'); // shows 004930123456: international
    sheet().getRange('A4').setNumberFormat('0.00E+00'); // shows 1.20E+13: the value has every digit
    select('A2:A4');
    runMenu();
    expect(
      emu.fetchLog
        .filter((r) => r.url.includes('/api/wa/check'))
        .map((r) => new URL(r.url).searchParams.get('phone')),
    ).toEqual(['+4930123456', '+12025550000012']);
    expect(column('B', 4).slice(1)).toEqual([
      'invalid number: add the country code, e.g. +44 20 7946 0000',
      'registered',
      'registered',
    ]);
  });

  test('a second run costs 0 checks and 0 requests, reuses the results column', () => {
    emu = newAddon(services);
    const list = selectNumbers(10);
    runMenu();
    expect(checkRequests()).toBe(10);
    const before = sheet().getLastColumn();
    emu.fetchLog.length = 0;
    emu.ui.reset();
    runMenu();
    expect(checkRequests()).toBe(0);
    expect(emu.fetchLog.length).toBe(0);
    expect(emu.ui.alerts.length).toBe(0); // nothing to pay: no confirmation
    expect(emu.ui.toasts.at(-1).message).toBe('All 10 numbers were already checked (no credits used).');
    expect(sheet().getLastColumn()).toBe(before);
    expect(column('B', 11)).toEqual([HEADER, ...list.map(expected)]);
  });

  test('100 numbers with 30% duplicates: requests and spreadsheet calls', () => {
    emu = newAddon(services);
    const distinct = numbers(70);
    const cells = [...distinct, ...distinct.slice(0, 30)];
    fill('A1:A101', [['Phone'], ...cells.map((p) => [p])]);
    select('A2:A101');
    emu.resetStats();
    runMenu();
    expect(checkRequests()).toBe(70);
    expect(emu.stats.urlFetch.requests).toBe(71); // + the credits
    expect(emu.callCount('Range.setValues')).toBe(2); // 2 chunks of 50 numbers, 1 results column
    // The plan, the cost, then one read per chunk: results are written next to the numbers the rows hold
    // when the chunk comes back (the user may have sorted meanwhile).
    expect(emu.callCount('Range.getValues')).toBe(4);
    // Each read also reads the formulas (a formula or its output is never written): one getFormulas more.
    expect(emu.callCount('Range.getFormulas')).toBe(4);
    // 46 at most: with the one look at the document's id a menu action makes to read the ledger (a list
    // the bounce guard paused is said once, at the payer's next menu action).
    expect(emu.stats.spreadsheet.calls).toBeLessThanOrEqual(46);
    expect(column('B', 101).slice(1)).toEqual(cells.map(expected));
    console.log(
      `100 cells / 70 distinct: ${emu.stats.urlFetch.requests} requests in ${emu.stats.urlFetch.calls} fetch calls; ` +
        `spreadsheet ${JSON.stringify(emu.stats.spreadsheet)}; properties ${JSON.stringify(emu.stats.properties)}`,
    );
  });

  test('several columns: results right of each; asks before inserting next to unrelated data', () => {
    emu = newAddon(services);
    const a = numbers(3, 0);
    const b = numbers(3, 10);
    fill('A1:C4', [
      ['Mobile', 'Office', 'Notes'],
      [a[0], b[0], 'keep 1'],
      [a[1], b[1], 'keep 2'],
      [a[2], b[2], 'keep 3'],
    ]);
    select('A2:B4');
    // Declined: nothing changes, nothing is spent.
    runMenu('NO');
    expect(lastAlert().title).toBe('Insert a results column?');
    expect(lastAlert().message).toMatch(/Column B, C next to the phone numbers holds other data/);
    expect(checkRequests()).toBe(0);
    expect(sheet().getRange('A1:C1').getValues()[0]).toEqual(['Mobile', 'Office', 'Notes']);

    // Accepted: two columns inserted, the notes move right intact.
    emu.ui.reset();
    runMenu('YES');
    expect(alerts().map((x) => x.title)).toEqual(['Insert a results column?', 'Check phone numbers']);
    // The cost counts the number cells where they are before the inserts (not the notes).
    expect(alerts()[1].message).toMatch(/^6 cells with 6 distinct numbers\./);
    expect(sheet().getRange('A1:E1').getValues()[0]).toEqual(['Mobile', HEADER, 'Office', HEADER, 'Notes']);
    expect(column('B', 4).slice(1)).toEqual(a.map(expected));
    expect(column('D', 4).slice(1)).toEqual(b.map(expected));
    expect(column('E', 4).slice(1)).toEqual(['keep 1', 'keep 2', 'keep 3']);
    expect(checkRequests()).toBe(6);
  });

  test('a selection of several areas (Ctrl-click): every area is checked, nothing outside them', () => {
    emu = newAddon(services);
    const a = numbers(9);
    const c = numbers(2, 50);
    fill('A1:A10', [['Phone'], ...a.map((p) => [p])]);
    fill('C1:C3', [['Office'], ...c.map((p) => [p])]);
    emu.select('A2:A4', 'A8:A10', 'C2:C3');
    let confirmText = '';
    runMenu((request) => {
      confirmText = request.message;
      return 'YES';
    });
    expect(confirmText).toMatch(/8 cells with 8 distinct numbers/);
    expect(checkRequests()).toBe(8);
    expect(sheet().getRange('A1:D1').getValues()[0]).toEqual(['Phone', HEADER, 'Office', HEADER]);
    expect(column('B', 10).slice(1)).toEqual(a.map((p, i) => (i >= 3 && i <= 5 ? '' : expected(p))));
    expect(column('D', 3).slice(1)).toEqual(c.map(expected));
    // The same areas again: nothing to pay, nothing asked.
    emu.ui.reset();
    emu.fetchLog.length = 0;
    emu.select('A2:A4', 'A8:A10', 'C2:C3');
    runMenu();
    expect(alerts()).toEqual([]);
    expect(emu.fetchLog.length).toBe(0);
  });

  test('an empty column right of the numbers gets the header; no question asked', () => {
    emu = newAddon(services);
    fill('A1:A3', [['Phone'], [registeredPhoneNumber(5)], [unregisteredPhoneNumber(6)]]);
    fill('C1:C3', [['Notes'], ['x'], ['y']]);
    select('A2:A3');
    runMenu();
    expect(alerts().map((x) => x.title)).toEqual(['Check phone numbers']);
    expect(sheet().getRange('A1:C1').getValues()[0]).toEqual(['Phone', HEADER, 'Notes']);
    expect(column('B', 3).slice(1)).toEqual(['registered', 'not registered']);
  });

  test('invalid numbers: local reasons cost nothing; the service 1002 is written as invalid number', () => {
    emu = newAddon(services);
    fill('A1:A7', [
      ['Phone'],
      ['12'],
      ['020 7946 0000'],
      ['+1 555 abc'],
      ['+1 234 567'],
      [registeredPhoneNumber(1)],
      [true],
    ]);
    select('A1:A7');
    runMenu();
    // '+1 234 567' is 7 digits: the add-on accepts E.164 from 7 digits, the service asks for 8 → 1002.
    expect(checkRequests()).toBe(2);
    expect(column('B', 7)).toEqual([
      HEADER,
      'invalid number: too short, at least 7 digits',
      'invalid number: add the country code, e.g. +44 20 7946 0000',
      'invalid number: contains letters',
      'invalid number',
      'registered',
      expect.stringMatching(/^invalid number/),
    ]);
    // The 1002 answer is kept too: checking again costs nothing.
    emu.fetchLog.length = 0;
    runMenu();
    expect(checkRequests()).toBe(0);
  });

  test('no credits (1004) at the start: says so, checks nothing', () => {
    emu = newAddon(services, { phoneKey: DEMO_KEYS.phoneEmpty });
    fill('A1:A3', [['Phone'], [registeredPhoneNumber(1)], [registeredPhoneNumber(2)]]);
    select('A2:A3');
    runMenu();
    expect(lastAlert().title).toBe('No phone-check credits');
    expect(lastAlert().message).toMatch(/Credits left: 0/);
    expect(lastAlert().message).toMatch(/Add credits/);
    expect(checkRequests()).toBe(0);
    expect(emu.properties.document.getProperty(jobKey(emu, 'phone'))).toBeNull();
  });

  test('credits running out mid-run (1004) stop it; unchecked cells keep no stale data', () => {
    emu = newAddon(services);
    const list = numbers(6);
    fill('A1:B7', [[`Phone`, HEADER], ...list.map((p) => [p, 'stale value'])]);
    select('A2:A7');
    runMenu((request) => {
      if (request.title === 'Check phone numbers') {
        controlSync(services.sandbox.phoneUrl, 'POST', '/accounts', { key: DEMO_KEYS.phone, credits: 2 });
      }
      return 'YES';
    });
    expect(lastAlert().title).toBe('Phone check stopped');
    expect(lastAlert().message).toMatch(/No phone-check credits left/);
    expect(lastAlert().message).toMatch(/4 numbers not checked/);
    const results = column('B', 7).slice(1);
    expect(results.filter((v) => v === '').length).toBe(4);
    expect(results).not.toContain('stale value');
    results.forEach((value, i) => {
      if (value !== '') expect(value).toBe(expected(list[i]));
    });
    expect(emu.properties.document.getProperty(jobKey(emu, 'phone'))).toBeNull();
  });

  test('a refused key (1003) stops the run with what to do', () => {
    emu = newAddon(services, { phoneKey: 'not-a-real-key' });
    fill('A1:A2', [['Phone'], [registeredPhoneNumber(1)]]);
    select('A2');
    runMenu();
    expect(lastAlert().message).toMatch(/refused the API key/);
    expect(lastAlert().message).toMatch(/Settings/);
    expect(checkRequests()).toBe(0);
    expect(everythingWritten(emu) + JSON.stringify(emu.logs)).not.toContain('not-a-real-key');
  });

  test('1006 is retried; after the retries the error is written on the row, and a new run retries it', async () => {
    emu = newAddon(services);
    const list = selectNumbers(3);
    await control(services.sandbox.phoneUrl, 'POST', '/faults', {
      path: '/api/wa/check',
      count: 1,
      kind: 'phone-code',
      code: 1006,
    });
    runMenu();
    expect(checkRequests()).toBe(4);
    expect(column('B', 4).slice(1)).toEqual(list.map(expected));

    // A number that fails 4 times in a row (1 try + 3 retries).
    fill('A5', [[registeredPhoneNumber(40)]]);
    select('A5');
    await control(services.sandbox.phoneUrl, 'POST', '/faults', {
      path: '/api/wa/check',
      count: 4,
      kind: 'phone-code',
      code: 1006,
    });
    emu.fetchLog.length = 0;
    runMenu();
    expect(checkRequests()).toBe(4);
    expect(sheet().getRange('B5').getValue()).toMatch(/^error: .*temporary failure \(code 1006\)/);
    // Failed checks cost nothing, are not stored: the next run checks it.
    emu.fetchLog.length = 0;
    runMenu();
    expect(checkRequests()).toBe(1);
    expect(sheet().getRange('B5').getValue()).toBe('registered');
  });

  test('1005 from the service is waited out and retried', async () => {
    emu = newAddon(services);
    fill('A1:A2', [['Phone'], [registeredPhoneNumber(3)]]);
    select('A2');
    await control(services.sandbox.phoneUrl, 'POST', '/faults', {
      path: '/api/wa/check',
      count: 1,
      kind: 'status',
      status: 429,
      code: 1005,
      retryAfter: 2,
    });
    runMenu();
    expect(checkRequests()).toBe(2);
    expect(sheet().getRange('B2').getValue()).toBe('registered');
  });

  test('the hourly budget used up: the run pauses, says when to go on, and resumes then', async () => {
    emu = newAddon(services);
    await control(services.sandbox.phoneUrl, 'POST', '/accounts', { key: DEMO_KEYS.phone, credits: 5000 });
    const many = numbers(995);
    fill('A1:A996', [['Phone'], ...many.map((p) => [p])]);
    select('A2:A996');
    runMenu();
    expect(checkRequests()).toBe(995);
    // 996 of the 1000 requests of this hour are used (995 checks + the credits).
    const more = numbers(10, 2000);
    fill('D1:D11', [['Phone'], ...more.map((p) => [p])]);
    select('D2:D11');
    emu.ui.reset();
    runMenu();
    expect(checkRequests()).toBe(998);
    expect(lastAlert().title).toBe('Phone check paused');
    expect(lastAlert().message).toMatch(
      /1,000 checks per hour is reached: run "Check phone numbers in selection" again on the same cells after \d{4}-\d\d-\d\d \d\d:\d\d/,
    );
    const saved = JSON.parse(emu.properties.document.getProperty(jobKey(emu, 'phone')));
    expect(saved.status).toMatchObject({ is: 'paused' });
    expect(saved.status.until).toBeGreaterThan(emu.clock.now());
    expect(column('E', 11).slice(1)).toEqual([...more.slice(0, 3).map(expected), ...new Array(7).fill('')]);
    // A progress step before that time does not call the service.
    const early = emu.run('continueJob', ['phone'], { kind: 'webapp' });
    expect(early).toMatchObject({ status: 'paused', finished: true });
    expect(early.error).toMatch(/1,000 checks per hour/);
    expect(checkRequests()).toBe(998);
    // Neither does the menu action on the same cells: it says when.
    const sent = emu.fetchLog.length;
    emu.ui.reset();
    runMenu();
    expect(emu.ui.alerts.map((x) => x.title)).toEqual(['Phone check paused']);
    expect(emu.fetchLog.length).toBe(sent);

    emu.clock.advance(3600 * 1000 + 5000);
    runMenu();
    expect(checkRequests()).toBe(1005);
    expect(column('E', 11).slice(1)).toEqual(more.map(expected));
    expect(emu.properties.document.getProperty(jobKey(emu, 'phone'))).toBeNull();
  });

  test('rows hidden by a filter are skipped', () => {
    emu = newAddon(services);
    const list = numbers(4);
    fill('A1:B5', [
      ['Phone', 'Tag'],
      [list[0], 'keep'],
      [list[1], 'skip'],
      [list[2], 'keep'],
      [list[3], 'skip'],
    ]);
    sheet()
      .getRange('A1:B5')
      .createFilter()
      .setColumnFilterCriteria(
        2,
        emu.services.SpreadsheetApp.newFilterCriteria().setHiddenValues(['skip']).build(),
      );
    select('A2:A5');
    runMenu((request) => (request.title === 'Insert a results column?' ? 'YES' : 'YES'));
    expect(checkRequests()).toBe(2);
    // Column B held the tags: a results column was inserted after asking.
    expect(sheet().getRange('A1:C1').getValues()[0]).toEqual(['Phone', HEADER, 'Tag']);
    expect(column('B', 5).slice(1)).toEqual([expected(list[0]), '', expected(list[2]), '']);
  });

  test('many rows hidden by a filter stay skipped in later steps (the job property stays under 9 KB)', () => {
    emu = newAddon(services, { fetchLatencyMs: 60_000 });
    const visible = numbers(300);
    const hidden = numbers(900, 5000);
    // 1800 rows: every other row hidden by the filter, so the hidden rows are 900 separate runs.
    const rows = [];
    for (let i = 0; i < 900; i++) {
      rows.push([visible[i % 300], 'keep']);
      rows.push([hidden[i], 'skip']);
    }
    sheet().insertRowsAfter(sheet().getMaxRows(), 1000);
    fill('A1:C1', [['Phone', HEADER, 'Tag']]);
    sheet()
      .getRange('A2:A1801')
      .setValues(rows.map((r) => [r[0]]));
    sheet()
      .getRange('C2:C1801')
      .setValues(rows.map((r) => [r[1]]));
    sheet()
      .getRange('A1:C1801')
      .createFilter()
      .setColumnFilterCriteria(
        3,
        emu.services.SpreadsheetApp.newFilterCriteria().setHiddenValues(['skip']).build(),
      );
    select('A2:A1801');
    runMenu();
    expect(checkRequests()).toBeLessThan(300);
    const { progress } = driveToEnd(emu, 'phone', 20);
    expect(progress.error).toBeUndefined();
    expect(checkRequests()).toBe(300);
    const results = column('B', 1801).slice(1);
    rows.forEach(([phone, tag], i) => expect(results[i]).toBe(tag === 'keep' ? expected(phone) : ''));
  });

  test('rows sorted while a chunk is on the wire: every result lands next to its own number', () => {
    emu = newAddon(services);
    selectNumbers(120);
    // The user sorts the numbers and their results (descending) while the first chunk is checked.
    const sorted = onFirstCheck(emu, () => sheet().getRange('A2:B121').sort({ column: 1, ascending: false }));
    runMenu();
    expect(sorted()).toBe(true);
    expect(checkRequests()).toBe(120);
    const numbersNow = column('A', 121).slice(1);
    expect(column('B', 121).slice(1)).toEqual(numbersNow.map((n) => expected(String(n))));
  });

  test('a column inserted before the results column mid-run: the run stops, nothing lands in the new column', () => {
    emu = newAddon(services);
    selectNumbers(120);
    // The user adds a column between the numbers and their results while the first chunk is checked.
    const moved = onFirstCheck(emu, () => sheet().insertColumnBefore(2));
    runMenu();
    expect(moved()).toBe(true);
    expect(checkRequests()).toBe(50);
    expect(lastAlert().title).toBe('Phone check stopped');
    expect(lastAlert().message).toMatch(/"Phone check" column right of column A has moved/);
    expect(column('B', 121).every((v) => v === '')).toBe(true);
    expect(emu.properties.document.getProperty(jobKey(emu, 'phone'))).toBeNull();
    // The 50 numbers paid for are kept: checking the selection again pays for the 70 others only.
    emu.onFetch = null;
    let text = '';
    runMenu((request) => {
      if (request.title === 'Check phone numbers') text = request.message;
      return 'YES';
    });
    expect(text).toMatch(/50 already known/);
    expect(checkRequests()).toBe(120);
  });

  test('the sheet deleted between progress-dialog steps: the next step stops and says so', () => {
    emu = newAddon(services, { fetchLatencyMs: 60_000 });
    selectNumbers(300);
    runMenu();
    expect(emu.ui.dialog.title).toBe('Checking phone numbers');
    const name = sheet().getName();
    emu.spreadsheet.insertSheet('Other');
    emu.spreadsheet.deleteSheet(emu.spreadsheet.getSheetByName(name));
    const before = checkRequests();
    const progress = emu.run('continueJob', ['phone'], { kind: 'webapp' });
    expect(progress.finished).toBe(true);
    expect(progress.error).toBe(`The sheet "${name}" is gone: select the numbers and run the check again.`);
    expect(checkRequests()).toBe(before); // nothing is paid for numbers nobody can see
    expect(emu.properties.document.getProperty(jobKey(emu, 'phone'))).toBeNull();
  });

  test('a run cut by the time limit continues in progress-dialog steps without checking a number twice', () => {
    emu = newAddon(services, { fetchLatencyMs: 60_000 });
    const list = selectNumbers(300);
    runMenu();
    const first = checkRequests();
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(300);
    expect(emu.ui.dialog.title).toBe('Checking phone numbers');
    const job = JSON.parse(emu.properties.document.getProperty(jobKey(emu, 'phone')));
    expect(job.data.sheetName).toBe(sheet().getName());
    expect(job.data.selection).toContain('A2:A301');
    // What is done is in the sheet already.
    expect(column('B', 301).slice(1, first + 1)).toEqual(list.slice(0, first).map(expected));

    const { progress, steps } = driveToEnd(emu, 'phone', 20);
    expect(progress.error).toBeUndefined();
    expect(progress.done).toBe(300);
    expect(progress.total).toBe(300);
    expect(steps).toBeGreaterThan(0);
    expect(checkRequests()).toBe(300);
    expect(column('B', 301).slice(1)).toEqual(list.map(expected));
    expect(emu.properties.document.getProperty(jobKey(emu, 'phone'))).toBeNull();
    expect(emu.executions.every((x) => x.status === 'completed')).toBe(true);
  });

  test('running the menu action again on the same selection resumes an unfinished run', () => {
    emu = newAddon(services, { fetchLatencyMs: 60_000 });
    const list = selectNumbers(300);
    runMenu();
    const first = checkRequests();
    expect(first).toBeLessThan(300);
    let text = '';
    runMenu((request) => {
      text = request.message;
      return 'YES';
    });
    expect(text).toMatch(/Resuming the unfinished check/);
    expect(text).toMatch(new RegExp(`${first} already known`));
    expect(text).toMatch(new RegExp(`${300 - first} checks needed`));
    let progress = { finished: !emu.properties.document.getProperty(jobKey(emu, 'phone')) };
    while (!progress.finished) progress = emu.run('continueJob', ['phone'], { kind: 'webapp' });
    expect(checkRequests()).toBe(300);
    expect(column('B', 301).slice(1)).toEqual(list.map(expected));
  });

  test('short of credits: offers to check as many as the credits allow', async () => {
    emu = newAddon(services);
    await control(services.sandbox.phoneUrl, 'POST', '/accounts', { key: DEMO_KEYS.phone, credits: 3 });
    const list = selectNumbers(5);
    runMenu();
    expect(alerts()[0].title).toBe('Not enough credits');
    expect(alerts()[0].message).toMatch(/check the first 3 numbers now/);
    expect(checkRequests()).toBe(3);
    expect(column('B', 6).slice(1)).toEqual([...list.slice(0, 3).map(expected), '', '']);
    expect(emu.ui.toasts.map((t) => t.message).join('\n')).toMatch(
      /2 numbers not checked: the credits were used up/,
    );
  });

  test.each([
    ['one execution', 150, 50],
    ['progress-dialog steps', 300, 60_000],
  ])('a full result store (its oldest entries dropped) never makes a run pay twice: %s', (_, n, latency) => {
    emu = newAddon(services, { fetchLatencyMs: latency });
    // Every shard nearly full of results younger than this run's: each save drops this run's oldest results.
    const minute = Math.floor((emu.clock.now() + 24 * 3600 * 1000) / 60000).toString(36);
    for (let i = 0; i < 16; i++) {
      const filler = Array.from(
        { length: 378 },
        (_, k) => `+4930${String(i * 1000 + k).padStart(8, '0')}=R${minute}`,
      );
      emu.properties.document.setProperty(`phoneResults.${i}`, filler.join(','));
    }
    const list = numbers(n);
    fill(`A1:A${n + 1}`, [['Phone'], ...list.map((p) => [p])]);
    select(`A2:A${n + 1}`);
    runMenu();
    for (let steps = 0; emu.properties.document.getProperty(jobKey(emu, 'phone')) && steps < 20; steps++) {
      emu.run('continueJob', ['phone'], { kind: 'webapp' });
    }
    expect(checkRequests()).toBe(n);
    expect(column('B', n + 1).slice(1)).toEqual(list.map(expected));
  });

  test('results older than 30 days may be checked again', () => {
    emu = newAddon(services);
    fill('A1:A2', [['Phone'], [registeredPhoneNumber(1)]]);
    select('A2');
    runMenu();
    emu.clock.advance(29 * 24 * 3600 * 1000);
    emu.fetchLog.length = 0;
    runMenu();
    expect(checkRequests()).toBe(0);
    emu.clock.advance(2 * 24 * 3600 * 1000);
    runMenu();
    expect(checkRequests()).toBe(1);
  });

  test('missing key: the action opens Settings instead of failing', () => {
    emu = newAddon(services, { phoneKey: null });
    fill('A1:A2', [['Phone'], [registeredPhoneNumber(1)]]);
    select('A2');
    runMenu();
    expect(emu.ui.dialog.title).toBe('Outreach settings');
    expect(emu.fetchLog.length).toBe(0);
  });

  test('the key never appears in a log, a cell, a URL or a document property', () => {
    emu = newAddon(services);
    const list = selectNumbers(4);
    runMenu();
    emu.runCustomFunction('PHONE_CHECK', [[[list[0]], [registeredPhoneNumber(99)]]]);
    emu.runCustomFunction('PHONE_CREDITS', []);
    const text =
      everythingWritten(emu) +
      JSON.stringify(emu.logs) +
      JSON.stringify(emu.fetchLog.map((r) => r.url)) +
      JSON.stringify(emu.properties.document.getProperties()) +
      JSON.stringify(emu.ui);
    expect(text).not.toContain(DEMO_KEYS.phone);
    // It travels only in the x-api-key header.
    expect(emu.fetchLog.every((r) => r.headers['x-api-key'] === DEMO_KEYS.phone)).toBe(true);
  });
});

/** The sandbox's counters, read synchronously (the execution is over). */
function await_stats() {
  return controlSync(services.sandbox.phoneUrl, 'GET', '/stats');
}
