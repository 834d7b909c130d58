'use strict';
// Through the built bundle, two users in one document: a send that Bob, an editor, scheduled
// for later with a key that cannot pay (no key, a key the service refuses, too few e-mail credits), or that
// his runs stopped starting, no longer holds the sheet until it is due: his hourly run writes what it found
// where Ann sees it, and Ann may cancel it or schedule her own, which replaces it. While his key can pay, it
// stays his alone; a late run of his never starts a send long past due.
const { useServices, control, newAddon, DEMO_KEYS } = require('../support/harness');
const { people, peopleRows } = require('../support/sheets');
const { listWithMail } = require('../support/sent-mail');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const ANN = 'ann@example.com';
const BOB = 'bob@example.com';
const BOB_KEY = 'sandbox-bob-key';
const HOUR = 3600_000;
const MAIL = { campaign: 'Spring offer', subject: 'Hello {{Name}}', body: 'Dear {{Name}}, our offer.' };

const wallTime = (ms) => new Date(ms).toISOString().slice(0, 16);
const asBob = { kind: 'webapp', user: BOB };
const asAnn = { kind: 'webapp' };
const scheduleProperty = () =>
  emu.properties.document.getProperty(`schedule.${emu.spreadsheet.getSheetByName('Later').getSheetId()}`);

async function mailsOf(key) {
  return (await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${key}`)).mails;
}

/** Ann owns the document (her key: sandbox-paid); Bob has his own key with `edm` e-mail credits; Bob schedules "Later" (3 rows) in 2 days. */
async function bobSchedules(edm) {
  emu = newAddon(services, { users: { owner: ANN, active: ANN } });
  await control(services.sandbox.outreachUrl, 'POST', '/accounts', { key: BOB_KEY, addonEdm: edm });
  emu.run(
    'saveSettings',
    [{ outreachBaseUrl: services.sandbox.outreachUrl, outreachApiKey: BOB_KEY }],
    asBob,
  );
  listWithMail(emu, 'Later', peopleRows(people(3)), MAIL);
  const at = services.clock.now() + 48 * HOUR;
  emu.run('scheduleSend', [wallTime(at)], asBob);
  return { question: emu.ui.alerts.at(-1).message, at };
}

test('no e-mail credits: the editor is told any editor may cancel it; Ann cancels it and her own send goes instead', async () => {
  const { question, at } = await bobSchedules(0);
  expect(question).toMatch(/The usable e-mail credits \(EDM\) are 3 short/);
  expect(question).toMatch(/any editor may cancel this send or schedule their own instead/);

  const view = emu.run('getComposeState', [], asAnn).schedule;
  expect(view.cancellable).toBe(true);
  expect(view.text).toMatch(
    /scheduled by another editor to start .* It cannot run: the scheduling editor's key has too few e-mail credits \(EDM\) for its 3 e-mails: 0 usable\. You may cancel it, or schedule your own/,
  );
  const cancelled = emu.run('cancelScheduledSend', [], asAnn);
  expect(cancelled.message).toBe(
    `The send another editor scheduled for "Later" was cancelled (it could not run: the scheduling editor's key has too few e-mail credits (EDM) for its 3 e-mails: 0 usable): nothing will be sent. You may schedule your own.`,
  );
  expect(scheduleProperty()).toBeNull();

  emu.run('scheduleSend', [wallTime(at)], asAnn);
  expect(emu.run('getComposeState', [], asAnn).schedule).toMatchObject({ cancellable: true });
  expect(emu.run('getComposeState', [], asBob).schedule.text).toMatch(
    /scheduled by another editor .* Only they can change or cancel it/,
  );
  emu.advanceTime(50 * HOUR);
  expect((await mailsOf(DEMO_KEYS.paid)).map((m) => m.recipientEmail).sort()).toEqual(people(3));
  expect(await mailsOf(BOB_KEY)).toEqual([]);
});

test('a key the service refuses: found by his hourly run, and Ann schedules her own, which replaces his', async () => {
  const { at } = await bobSchedules(1000);
  // While his key can pay, the send is his alone.
  expect(emu.run('getComposeState', [], asAnn).schedule.cancellable).toBe(false);
  expect(emu.run('cancelScheduledSend', [], asAnn).message).toMatch(
    /scheduled by another editor: only they can cancel it while their key can pay for it/,
  );
  expect(() => emu.run('scheduleSend', [wallTime(at)], asAnn)).toThrow(
    /Another editor scheduled the send of "Later": only they can change or cancel it while their key can pay for it/,
  );

  await control(services.sandbox.outreachUrl, 'POST', '/accounts', { key: BOB_KEY, revoked: true });
  emu.advanceTime(HOUR); // Bob's hourly run checks his key
  expect(JSON.parse(scheduleProperty()).check).toMatchObject({ cannot: 'key-refused' });
  const summary = emu.spreadsheet.getSheetByName('Tracking summary');
  expect(summary.getDataRange().getValues().flat().join('\n')).toMatch(
    /"Later" is scheduled to start .* It cannot run: the service refuses the scheduling editor's outreach API key; any editor may cancel it/,
  );

  const answer = emu.run('scheduleSend', [wallTime(at)], asAnn);
  expect(emu.ui.alerts.at(-1).message).toMatch(
    /It replaces the send another editor scheduled, which cannot run: the service refuses the scheduling editor's outreach API key\.\n\nSchedule this send\?$/,
  );
  expect(answer.message).toMatch(/^Scheduled: 3 e-mails from "Later" start /);
  emu.advanceTime(50 * HOUR);
  expect(await mailsOf(DEMO_KEYS.paid)).toHaveLength(3);
});

test('no key in his Settings any more: Ann cancels it from the menu; credits found again make it his alone again', async () => {
  await bobSchedules(1000);
  emu.run('saveSettings', [{ outreachApiKey: '' }], asBob);
  emu.advanceTime(HOUR);
  expect(JSON.parse(scheduleProperty()).check).toMatchObject({ cannot: 'no-key' });
  // His key back: his next run says it can run, and Ann can no longer cancel it.
  emu.run('saveSettings', [{ outreachApiKey: BOB_KEY }], asBob);
  emu.advanceTime(HOUR);
  expect(JSON.parse(scheduleProperty()).check.cannot).toBeUndefined();
  expect(emu.run('getComposeState', [], asAnn).schedule.cancellable).toBe(false);

  emu.run('saveSettings', [{ outreachApiKey: '' }], asBob);
  emu.advanceTime(HOUR);
  emu.ui.queue('YES');
  emu.run('cancelWaitingOrScheduledSend', [], { kind: 'menu' });
  expect(emu.ui.alerts.at(-1).message).toBe(
    `Another editor scheduled a send of "Later" that cannot run: the scheduling editor's Settings have no outreach API key. Cancel it? Nothing of it is sent, and you may schedule your own.`,
  );
  expect(scheduleProperty()).toBeNull();
  emu.advanceTime(50 * HOUR);
  expect(await mailsOf(BOB_KEY)).toEqual([]);
});

test('his runs stopped (his permission needed again): past due it expires, anyone may cancel it, and his late run does not send it', async () => {
  const { at } = await bobSchedules(1000);
  emu.authorizationRequired = true; // his hourly runs do nothing until he grants it again
  emu.advanceTime(48 * HOUR + 7 * HOUR);
  emu.authorizationRequired = false; // he grants it; his next hourly run comes later
  const view = emu.run('getComposeState', [], asAnn).schedule;
  expect(view.cancellable).toBe(true);
  expect(view.text).toMatch(
    /It cannot run: it was due at \d{4}-\d\d-\d\d \d\d:\d\d and has not started since/,
  );

  emu.advanceTime(2 * HOUR);
  expect(await mailsOf(BOB_KEY)).toEqual([]);
  expect(scheduleProperty()).toBeNull();
  const summary = emu.spreadsheet.getSheetByName('Tracking summary');
  expect(summary.getDataRange().getValues().flat().join('\n')).toMatch(
    /The send scheduled for "Later" did not start: it was due at .* and has not started since\. Schedule it again\./,
  );
  expect(at).toBeLessThan(services.clock.now());
});
