'use strict';
// Through the built bundle: the progress dialog's Stop, pressed while a step works in another
// execution (the emulator runs stopJob as its own execution while the step waits on the network), ends the
// job after the unit under way: no request that costs money afterwards, and the rows left say "Stopped".
// Close leaves the run under way going on in the background; the next menu action says what it did.
const { useServices, control, controlSync, newAddon, DEMO_KEYS } = require('../support/harness');
const { unlock } = require('../support/unlock');
const sheets = require('../support/sheets');
const { people, peopleRows } = sheets;
const { registeredPhoneNumber, unregisteredPhoneNumber } = require('../../dev/sandbox/rules');
const { leaveNextSendInDoubt, sendJournal } = require('../support/send-journal');
const { listWithMail } = require('../support/sent-mail');
const { takeRateSlots } = require('../support/rate-window');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const sheetNamed = (name) => emu.spreadsheet.getSheetByName(name);
const rowsOf = (name) => sheets.rowsOf(emu, name);
const requestsTo = (part, log = emu.fetchLog) => log.filter((r) => r.url.includes(part)).length;
const continueJob = (kind) => emu.run('continueJob', [kind], { kind: 'webapp' });

/** A slow service: each request of `part` takes `ms` (so a job needs several steps). */
function slow(part, ms) {
  emu.onFetch = (entries) => {
    if (entries.some((e) => e.url.includes(part))) services.clock.advance(ms);
  };
}

/**
 * While the next step works, the user presses Stop when the step sends its `nth` request of `part` (each
 * taking `ms`): stopJob runs as an execution of its own. Returns what stopJob answered and where the log
 * stood then.
 */
function stopDuringStep(kind, part, nth, ms) {
  const pressed = { answer: null, at: -1 };
  let seen = 0;
  emu.onFetch = (entries) => {
    const hits = entries.filter((e) => e.url.includes(part)).length;
    if (hits) services.clock.advance(ms);
    seen += hits;
    if (!pressed.answer && seen >= nth) {
      pressed.at = emu.fetchLog.length;
      pressed.answer = emu.run('stopJob', [kind], { kind: 'webapp' });
    }
  };
  return pressed;
}

/** OK to messages, NO to questions. */
const declineQuestions = () => emu.ui.respond((request) => (request.buttons === 'YES_NO' ? 'NO' : undefined));

const rowCount = (name) => (sheetNamed(name) ? rowsOf(name).length : 0);

function searchAndSelect(rows) {
  for (let from = 0; from < rows; from += 50) {
    emu.run(
      'searchCompanies',
      [{ products: 'a', operator: 'OR', industries: 'e', size: Math.min(50, rows - from), from }],
      { kind: 'webapp' },
    );
  }
  const target = sheetNamed('Companies');
  emu.spreadsheet.setActiveSheet(target);
  target.getRange(`A2:C${rows + 1}`).activate();
}

describe('Unlock', () => {
  test('Stop while a step unlocks in another execution: the unit under way ends, nothing more is charged, the rows left say Stopped', async () => {
    emu = newAddon(services);
    searchAndSelect(60);
    slow('/companies/unlock', 20_000); // 10 unlocks take 200 s: one unit per step
    unlock(emu);
    expect(emu.ui.dialogs.at(-1).title).toBe('Unlocking companies');
    const afterMenu = requestsTo('/companies/unlock');
    expect(afterMenu).toBe(10);

    const pressed = stopDuringStep('unlock', '/companies/unlock', 3, 20_000);
    const progress = continueJob('unlock');
    expect(pressed.answer).toMatchObject({ status: 'stopping', finished: false });
    expect(pressed.answer.message).toMatch(/Stopping after the batch under way/);
    // The unit under way (10 unlocks) was finished; no unlock was sent after it.
    expect(requestsTo('/companies/unlock')).toBe(20);
    const afterStop = emu.fetchLog.slice(pressed.at);
    expect(requestsTo('/companies/unlock', afterStop)).toBe(7);
    expect(progress).toMatchObject({ status: 'user-stopped', finished: true });
    expect(progress.error).toBe(
      'Stopped, as you asked. The batch on its way when you pressed Stop went through: it unlocked 10 companies (10 points). 40 companies were not unlocked, nothing charged for them: their Unlock status says "Stopped". The contacts of 10 companies already unlocked were not fetched: their Unlock status says so; select them and run Unlock again (free).',
    );
    // Those rows say so on their own row.
    const noContacts = rowsOf('Companies').filter((r) => /contacts not fetched/.test(r['Unlock status']));
    expect(noContacts).toHaveLength(10);
    expect(noContacts.every((r) => r['Company hash ID'] !== '')).toBe(true);
    expect(noContacts[0]['Unlock status']).toBe(
      'Unlocked; contacts not fetched (stopped): select the row and run Unlock again, free.',
    );
    const rows = rowsOf('Companies').slice(0, 60);
    expect(rows.filter((r) => r['Company hash ID'])).toHaveLength(20);
    const stopped = rows.filter((r) => /^Stopped: /.test(r['Unlock status']));
    expect(stopped).toHaveLength(40);
    expect(stopped.every((r) => r['Company hash ID'] === '')).toBe(true);
    expect(stopped[0]['Unlock status']).toBe(
      'Stopped: not unlocked, nothing charged. Select the row and run Unlock to unlock it.',
    );
    expect(rows.some((r) => r['Unlock status'] === 'Queued')).toBe(false);
    const { unlocks } = await control(services.sandbox.outreachUrl, 'GET', `/unlocks?key=${DEMO_KEYS.paid}`);
    expect(unlocks.filter((u) => u.charged)).toHaveLength(20);

    // The job is over: the dialog's next call finds nothing, and a new Unlock of the rows left works.
    emu.onFetch = null;
    expect(continueJob('unlock')).toMatchObject({ finished: true, message: 'Nothing left to do.' });
    emu.ui.reset();
    const { question } = unlock(emu);
    expect(question.text).toMatch(
      /^Unlock 40 companies of the 60 selected rows \(the other 20: see below\): at most 40 search points/,
    );
    expect(rowsOf('Companies').filter((r) => r['Company hash ID'])).toHaveLength(60);
  });

  test('the bar moves inside a unit of unlocks, and the elapsed time counts from the start of the job', () => {
    emu = newAddon(services);
    searchAndSelect(30);
    const start = services.clock.now();
    slow('/companies/unlock', 20_000); // 10 unlocks take 200 s: one unit per step
    unlock(emu);
    const first = emu.ui.dialogs.at(-1);
    expect(first.title).toBe('Unlocking companies');
    // What the dialog polls while the next step works, after each unlock of its unit.
    const polled = [];
    emu.onFetch = (entries) => {
      if (!entries.some((e) => e.url.includes('/companies/unlock'))) return;
      services.clock.advance(20_000);
      polled.push(emu.run('getJobProgress', ['unlock'], { kind: 'webapp' }));
    };
    const progress = continueJob('unlock');
    emu.onFetch = null;
    expect(progress.finished).toBe(false);
    const done = polled.map((p) => p.done);
    // Inside the unit the bar goes up one unlock at a time (a unit counts 2 per company: unlock, contacts).
    expect(new Set(done).size).toBeGreaterThanOrEqual(5);
    for (let i = 1; i < done.length; i++) expect(done[i]).toBeGreaterThanOrEqual(done[i - 1]);
    expect(Math.max(...done)).toBeLessThan(progress.done + 1);
    // Elapsed: from the job's start (the menu's step included), not from this step's.
    const last = polled.at(-1);
    expect(last.elapsedMs).toBeGreaterThanOrEqual(200_000 + 180_000);
    expect(progress.elapsedMs).toBeGreaterThanOrEqual(last.elapsedMs);
    expect(progress.elapsedMs).toBeLessThanOrEqual(services.clock.now() - start);
  });

  test('Stop with no step working (between steps) ends the job at once and marks the rows left', () => {
    emu = newAddon(services);
    searchAndSelect(30);
    slow('/companies/unlock', 20_000);
    unlock(emu);
    emu.onFetch = null;
    const before = emu.fetchLog.length;
    const answer = emu.run('stopJob', ['unlock'], { kind: 'webapp' });
    expect(answer).toMatchObject({ status: 'user-stopped', finished: true });
    expect(answer.error).toMatch(/20 companies were not unlocked, nothing charged for them/);
    expect(emu.fetchLog.length).toBe(before);
    expect(rowsOf('Companies').filter((r) => /^Stopped: /.test(r['Unlock status']))).toHaveLength(20);
    expect(continueJob('unlock')).toMatchObject({ finished: true, message: 'Nothing left to do.' });
    expect(requestsTo('/companies/unlock', emu.fetchLog.slice(before))).toBe(0);
  });

  test('Close: the run under way goes on in the background, and the next Unlock says what it did', () => {
    emu = newAddon(services);
    searchAndSelect(40);
    slow('/companies/unlock', 10_000); // 10 unlocks take 100 s
    unlock(emu);
    expect(emu.ui.dialogs.at(-1).title).toBe('Unlocking companies');
    const inMenuStep = rowsOf('Companies').filter((r) => r['Company hash ID']).length;
    expect(inMenuStep).toBeLessThan(40);
    const contactsBefore = rowCount('Contacts');
    const profilesBefore = rowCount('Profiles');
    // The dialog asks for a step and is closed while it works: nobody gets its answer.
    emu.onFetch = null;
    const unseen = continueJob('unlock');
    expect(unseen.finished).toBe(true);
    const background = 40 - inMenuStep;
    const contacts = rowCount('Contacts') - contactsBefore;
    const filled = rowCount('Profiles') - profilesBefore;
    expect(contacts).toBeGreaterThan(0);

    emu.ui.reset();
    declineQuestions(); // the user then declines the next question (nothing is done)
    unlock(emu);
    const report = emu.ui.alerts[0];
    expect(report.title).toBe('Unlock: what happened after the dialog closed');
    expect(report.message).toBe(
      `The run that was under way when the progress dialog closed went on in the background: it unlocked ${background} companies (${background} points) and filled the contacts of ${filled} companies (${contacts} new contacts). The unlock has finished.`,
    );
    // Said once.
    emu.ui.reset();
    unlock(emu);
    expect(emu.ui.alerts.some((a) => /after the dialog closed/.test(a.title))).toBe(false);
  });

  test('a dialog that showed the end says so: the next Unlock reports nothing', () => {
    emu = newAddon(services);
    searchAndSelect(30);
    slow('/companies/unlock', 10_000);
    unlock(emu);
    emu.onFetch = null;
    expect(continueJob('unlock').finished).toBe(true);
    emu.run('jobEndShown', ['unlock'], { kind: 'webapp' });
    emu.ui.reset();
    declineQuestions();
    unlock(emu);
    expect(emu.ui.alerts.some((a) => /after the dialog closed/.test(a.title))).toBe(false);
  });
});

describe('Send', () => {
  // Watched by the progress dialog, a send posts its chunks of 100 a few a fetch (STOPPABLE_CHUNKS): Stop acts
  // before the next fetch.
  function makeList(n) {
    controlSync(services.sandbox.outreachUrl, 'POST', '/accounts', { key: DEMO_KEYS.paid, addonEdm: 20_000 });
    const template = {
      campaign: 'Stop test',
      subject: 'Hi {{Name}}',
      body: 'Hello {{Name}}',
      bodyFormat: 'text',
    };
    listWithMail(emu, 'Outreach', peopleRows(people(n)), template);
  }

  test('Stop while a chunk is posted in another execution: that chunk is recorded, no other is posted, the rows left say Stopped and are sent later, each once', async () => {
    emu = newAddon(services);
    makeList(2000);
    slow('/send/personalized', 100_000); // each post (a fetch of a few chunks) takes 100 s
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(emu.ui.dialogs.at(-1).title).toBe('Sending e-mails');
    const posted = requestsTo('/send/personalized');
    expect(posted).toBeGreaterThan(0); // the menu's execution posted what its time allowed
    expect(posted).toBeLessThan(20);

    const pressed = stopDuringStep('send', '/send/personalized', 1, 100_000);
    const progress = continueJob('send');
    expect(pressed.answer).toMatchObject({ status: 'stopping' });
    expect(requestsTo('/send/personalized', emu.fetchLog.slice(pressed.at))).toBe(0); // not one chunk more
    // The fetch on its way when Stop was pressed went: a few chunks at most.
    const onItsWay = requestsTo('/send/personalized') - posted;
    expect(onItsWay).toBeGreaterThan(0);
    expect(onItsWay).toBeLessThanOrEqual(4);
    const sent = (posted + onItsWay) * 100;
    const left = 2000 - sent;
    expect(left).toBeGreaterThan(0);
    expect(progress).toMatchObject({ status: 'user-stopped', finished: true });
    expect(progress.error).toBe(
      `Stopped, as you asked. The batch on its way when you pressed Stop went through: it sent ${onItsWay * 100} e-mails (${onItsWay * 100} e-mail credits). ${left} e-mails were not sent, nothing charged for them: their Mail status says "Stopped" and the next "Send to all unsent rows" sends them.`,
    );
    let rows = rowsOf('Outreach');
    expect(rows.filter((r) => r['Mail status'] === 'Accepted')).toHaveLength(sent);
    expect(rows.filter((r) => r['Mail status'] === 'Queued')).toHaveLength(0);
    const stopped = rows.filter((r) => /^Stopped: /.test(r['Mail status']));
    expect(stopped).toHaveLength(left);
    expect(stopped[0]['Mail status']).toBe('Stopped: not sent, nothing charged (the send was stopped)');

    // The dialog showed the end; "Send to all unsent rows" sends the stopped rows, and only them.
    emu.run('jobEndShown', ['send'], { kind: 'webapp' });
    emu.onFetch = null;
    emu.ui.reset();
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(emu.ui.alerts[0].message).toMatch(new RegExp(`^Send ${left} e-mails`));
    while (emu.ui.dialogs.at(-1) && !continueJob('send').finished);
    rows = rowsOf('Outreach');
    expect(rows.filter((r) => r['Mail status'] === 'Accepted')).toHaveLength(2000);
    const { mails } = await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${DEMO_KEYS.paid}`);
    expect(mails).toHaveLength(2000);
    expect(new Set(mails.map((m) => m.recipientEmail)).size).toBe(2000);
  });

  test('Stop pressed while the last chunk is on its way: it goes, and the end says Stop came too late for it', () => {
    emu = newAddon(services);
    makeList(300);
    const pressed = stopDuringStep('send', '/send/personalized', 3, 1000); // during the third and last post
    const outcome = emu.run('sendAllUnsentRows', [], { kind: 'menu' }); // the compose dialog's Send
    expect(pressed.answer).toMatchObject({ status: 'stopping' });
    expect(outcome.message).toMatch(
      /Sent 300 e-mails.* Stop came while the last requests were already on their way: they went through, and nothing was left to stop\./s,
    );
    expect(rowsOf('Outreach').filter((r) => r['Mail status'] === 'Accepted')).toHaveLength(300);
  });

  test('Stop while a batch waits for the rate window: nothing of it is posted, its rows say Stopped', async () => {
    emu = newAddon(services);
    makeList(600);
    // The user's sidebar made 55 requests this minute: 4 chunks go at once (the confirmation's balance took
    // the 56th slot); the next waits for the window, and the user presses Stop a few seconds into that wait.
    await takeRateSlots(emu, services, 55);
    let answer = null;
    emu.onSleep = (ms) => {
      if (!answer && ms >= 1000) answer = emu.run('stopJob', ['send'], { kind: 'webapp' });
    };
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(answer).toMatchObject({ status: 'stopping' });
    expect(requestsTo('/send/personalized')).toBe(4);
    const rows = rowsOf('Outreach');
    expect(rows.filter((r) => r['Mail status'] === 'Accepted')).toHaveLength(400);
    expect(rows.filter((r) => r['Mail status'] === 'Queued')).toHaveLength(0);
    expect(rows.filter((r) => /^Stopped: /.test(r['Mail status']))).toHaveLength(200);
    expect(emu.ui.alerts.at(-1).message).toMatch(/Stopped, as you asked\. 200 e-mails were not sent/);
    const { mails } = await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${DEMO_KEYS.paid}`);
    expect(mails).toHaveLength(400);
    expect(sendJournal(emu)).toEqual({});
  });

  test('Stop while a chunk is in doubt (answer lost, look-up failed): its rows stay Queued and the next send settles them, never posting them twice', async () => {
    emu = newAddon(services);
    makeList(650);
    const url = services.sandbox.outreachUrl;
    await takeRateSlots(emu, services, 55); // the user's sidebar made 55 requests this minute
    // fetchAll throws when one of its requests fails: every chunk of the batch is looked up by its tag, and
    // the first look-up fails.
    await leaveNextSendInDoubt(url);
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(emu.ui.alerts.at(-1).title).toBe('Send paused');
    const answer = emu.run('stopJob', ['send'], { kind: 'webapp' });
    expect(answer).toMatchObject({ status: 'user-stopped', finished: true });
    // The first batch was 4 chunks (the confirmation's balance took the 56th slot): 250 rows were left.
    expect(answer.error).toMatch(/250 e-mails were not sent/);
    let rows = rowsOf('Outreach');
    expect(rows.filter((r) => r['Mail status'] === 'Accepted')).toHaveLength(300);
    expect(rows.filter((r) => r['Mail status'] === 'Queued')).toHaveLength(100); // the chunk in doubt
    expect(rows.filter((r) => /^Stopped: /.test(r['Mail status']))).toHaveLength(250);

    await control(url, 'DELETE', '/faults');
    emu.ui.reset();
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(emu.ui.alerts[0].message).toMatch(/^Send 250 e-mails/);
    rows = rowsOf('Outreach');
    expect(rows.filter((r) => r['Mail status'] === 'Accepted')).toHaveLength(650);
    const { mails } = await control(url, 'GET', `/mails?key=${DEMO_KEYS.paid}`);
    expect(mails).toHaveLength(650);
    expect(new Set(mails.map((m) => m.recipientEmail)).size).toBe(650);
  });

  test('the next send says what a step did in the background after the dialog closed', async () => {
    emu = newAddon(services);
    makeList(700);
    await takeRateSlots(emu, services, 55); // the menu's step sends 4 chunks, the dialog's step the rest
    slow('/send/personalized', 150_000);
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(emu.ui.dialogs.at(-1).title).toBe('Sending e-mails');
    const before = rowsOf('Outreach').filter((r) => r['Mail status'] === 'Accepted').length;
    continueJob('send'); // the dialog was closed meanwhile
    const after = rowsOf('Outreach').filter((r) => r['Mail status'] === 'Accepted').length;
    expect(after).toBeGreaterThan(before);
    emu.ui.reset();
    declineQuestions();
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(emu.ui.alerts[0].title).toBe('Send: what happened after the dialog closed');
    expect(emu.ui.alerts[0].message).toMatch(
      new RegExp(
        `^The run that was under way when the progress dialog closed went on in the background: it sent ${after - before} e-mails \\(${after - before} e-mail credits\\)\\.`,
      ),
    );
  });
});

describe('Phone check', () => {
  test('Stop while numbers are checked in another execution: no check after that chunk, the numbers left say Stopped', () => {
    emu = newAddon(services);
    const target = emu.spreadsheet.getSheets()[0];
    const n = 400;
    const phones = Array.from({ length: n }, (_, i) =>
      i % 2 ? unregisteredPhoneNumber(i) : registeredPhoneNumber(i),
    );
    target.getRange(1, 1).setValue('Phone');
    target.getRange(2, 1, n, 1).setValues(phones.map((p) => [p]));
    emu.spreadsheet.setActiveSheet(target);
    target.getRange(`A2:A${n + 1}`).activate();
    slow('/api/wa/check', 100_000);
    emu.run('checkSelectedPhones', [], { kind: 'menu' });
    expect(emu.ui.dialogs.at(-1).title).toBe('Checking phone numbers');
    const checkedInMenu = requestsTo('/api/wa/check');

    const pressed = stopDuringStep('phone', '/api/wa/check', 1, 100_000);
    const progress = continueJob('phone');
    expect(pressed.answer).toMatchObject({ status: 'stopping' });
    const checked = requestsTo('/api/wa/check');
    // The unit under way (one round of checks sent together) is finished; none after it.
    const afterStop = requestsTo('/api/wa/check', emu.fetchLog.slice(pressed.at));
    expect(checked - checkedInMenu - afterStop).toBeGreaterThan(0);
    expect(progress).toMatchObject({ status: 'user-stopped', finished: true });
    const results = target
      .getRange(2, 2, n, 1)
      .getValues()
      .map((r) => r[0]);
    const stopped = results.filter((r) => r === 'Stopped: not checked, nothing charged');
    expect(stopped).toHaveLength(n - checked);
    // The round on its way when Stop came went through, and the end says what it checked.
    const underWay = /went through: it checked (\d+) numbers \((\d+) credits\)\. /.exec(progress.error);
    expect(Number(underWay[1])).toBeGreaterThan(0);
    expect(Number(underWay[1])).toBeLessThanOrEqual(checked - checkedInMenu);
    expect(underWay[2]).toBe(underWay[1]);
    expect(progress.error.replace(/ The batch on its way .*?\)\./, '')).toBe(
      `Stopped, as you asked. ${n - checked} numbers were not checked, nothing charged for them: their cells say "Stopped". Run the check again to check them.`,
    );
    expect(results.filter((r) => r === 'registered' || r === 'not registered')).toHaveLength(checked);
  });
});
