'use strict';
// Issue 46 item 1 through the built bundle, against the sandbox and its clock: a list whose mails fail above the
// threshold the payer confirmed pauses once 20 of them are final (counted from what Tracking reads), nothing more
// of it goes, first mails or steps, until its payer resumes it, and a resumed list mails each row once.
const { useServices, control, newAddon, DEMO_KEYS } = require('../support/harness');
const { listWithMail } = require('../support/sent-mail');
const { rowsOf, summaryCell } = require('../support/sheets');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const ANN = 'ann@example.com';
const BOB = 'bob@example.com';
const MAIL = { campaign: 'Spike', subject: 'Hello {{Name}}', body: 'Hi {{Name}},', bodyFormat: 'text' };

async function mails() {
  return (await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${DEMO_KEYS.paid}`)).mails;
}

/** `n` people, every fifth one's address bouncing (20 %). */
function people(n) {
  return Array.from({ length: n }, (_, i) => [`P${i}`, `${i % 5 === 4 ? 'bounce.' : ''}p${i}@example.com`]);
}

const statuses = () => rowsOf(emu, 'Leads').map((r) => r['Mail status']);
const paused = (rate) => statuses().filter((s) => s === `Paused: ${rate}`).length;

function send() {
  emu.ui.queue('YES');
  emu.run('sendAllUnsentRows', [], { kind: 'menu' });
  return emu.ui.alerts.find((a) => a.title === 'Send e-mails');
}

/** The alerts of a menu action of Ann's (each answered with its default button). */
function menuAlerts(name) {
  const before = emu.ui.alerts.length;
  emu.ui.respond((a) => (a.buttons === 'YES_NO' ? 'YES' : 'OK'));
  emu.run(name, [], { kind: 'menu', user: ANN });
  return emu.ui.alerts.slice(before);
}

/** Ann resumes "Leads" (the active sheet) from the menu, answering its question `answer`. */
function resume(answer = 'YES', user = ANN) {
  const before = emu.ui.alerts.length;
  emu.ui.respond((a) => (a.buttons === 'YES_NO_CANCEL' ? answer : 'OK'));
  emu.run('resumePausedList', [], { kind: 'menu', user });
  return emu.ui.alerts.slice(before);
}

describe('The bounce guard', () => {
  test('a paced list of 300 with 20 % bouncing pauses once its first chunk is final; only Ann resumes it; each row is mailed once', async () => {
    emu = newAddon(services, { users: { owner: ANN, active: ANN } });
    listWithMail(emu, 'Leads', [['Name', 'Email'], ...people(300)], { ...MAIL, hourlyLimit: 100 });
    const confirmation = send();
    expect(confirmation.message).toContain(
      'Bounce guard: the list pauses if more than 5 % of its mails fail (judged once 20 are delivered or failed)',
    );
    expect(await mails()).toHaveLength(100);

    // The hourly run refreshes what went first (auto-refresh off): 20 of 100 failed, so nothing more goes.
    emu.advanceTime(HOUR);
    expect(await mails()).toHaveLength(100);
    expect(paused('bounce rate 20 % (20 of 100)')).toBe(200);
    const summary = rowsOf(emu, 'Tracking summary', 8).find((r) => r.Campaign === 'Spike');
    expect(summary).toMatchObject({
      Failed: 20,
      Delivered: 80,
      Sending: 'Paused: bounce rate 20 % (20 of 100)',
    });
    emu.advanceTime(3 * HOUR);
    expect(await mails()).toHaveLength(100);

    // Bob, an editor, cannot resume it: the pause is in Ann's record.
    const bobs = resume('YES', BOB);
    expect(bobs.map((a) => a.message)).toEqual([
      expect.stringMatching(
        /^"Leads" was paused by its bounce guard \(bounce rate 20 % \(20 of 100\)\) for the editor who sent it: only they can resume it/,
      ),
    ]);
    emu.advanceTime(HOUR);
    expect(await mails()).toHaveLength(100);

    // Ann's next menu action says it once; her Resume asks first, naming the failed rows (no notice before it).
    const told = menuAlerts('refreshTracking');
    expect(told.map((a) => a.title)).toEqual(['Paused: too many mails failed (1)']);
    expect(told[0].message).toMatch(/^"Leads" is paused: bounce rate 20 % \(20 of 100\)\./);
    expect(menuAlerts('refreshTracking')).toEqual([]); // said once
    const asked = resume('YES');
    expect(asked.map((a) => a.title)).toEqual(['Resume a paused list']);
    expect(asked[0].message).toMatch(/above the 5 % you confirmed\.\nFailed: 20 rows \(6, 11, 16, 21, /);
    expect(asked[0].message).toMatch(/\nNo: first add the next contact of each failed row's company/);
    expect(statuses().filter((s) => s === 'Queued')).toHaveLength(200);

    // The next 100 go; their bounces pause the list again (judged from the resume on); resumed, it ends.
    emu.advanceTime(HOUR);
    expect(await mails()).toHaveLength(200);
    emu.advanceTime(HOUR);
    expect(await mails()).toHaveLength(200);
    expect(paused('bounce rate 20 % (20 of 100)')).toBe(100);
    expect(resume('YES').map((a) => a.title)).toEqual(['Resume a paused list']);
    expect(resume('YES').at(-1).message).toBe('"Leads" is not paused.');
    for (let hour = 0; hour < 4; hour++) emu.advanceTime(HOUR);
    const all = await mails();
    expect(all).toHaveLength(300);
    expect(new Set(all.map((m) => m.recipientEmail)).size).toBe(300);
    expect(statuses().filter((s) => /^(Paused|Queued|Waiting)/.test(s))).toEqual([]);
  });

  test('the threshold set in Compose is what Ann confirmed: at 30 % the list goes on; Bob raising it holds the send', async () => {
    emu = newAddon(services, { users: { owner: ANN, active: ANN } });
    listWithMail(emu, 'Leads', [['Name', 'Email'], ...people(60)], {
      ...MAIL,
      hourlyLimit: 20,
      bounceLimit: 30,
    });
    expect(send().message).toContain('the list pauses if more than 30 % of its mails fail');
    emu.advanceTime(HOUR);
    expect(await mails()).toHaveLength(40); // 4 of 20 failed: under 30 %
    emu.run('saveTemplate', [{ ...MAIL, hourlyLimit: 20, bounceLimit: 50 }], { kind: 'webapp', user: BOB });
    emu.advanceTime(2 * HOUR);
    expect(await mails()).toHaveLength(40);
    expect(statuses().filter((s) => s.startsWith('Held until the sender reviews the mail'))).toHaveLength(20);
  });

  test('follow-up steps of a paused list wait, saying why, and go on once Ann resumes', async () => {
    emu = newAddon(services, { users: { owner: ANN, active: ANN } });
    listWithMail(emu, 'Leads', [['Name', 'Email'], ...people(40)], {
      ...MAIL,
      followUps: [{ afterDays: 1, body: 'Again, {{Name}}.' }],
    });
    send();
    expect(await mails()).toHaveLength(40);
    services.clock.advance(60_000); // final at the service
    emu.run('refreshTracking', [], { kind: 'menu' });
    expect(summaryCell(emu, 'Result')).toMatch(/^Tracking refreshed/);
    emu.advanceTime(DAY + HOUR);
    expect(await mails()).toHaveLength(40); // no step of the paused list
    const sequence = rowsOf(emu, 'Leads').map((r) => r.Sequence);
    expect(
      sequence.filter((s) =>
        /is due and waits: the list is paused, bounce rate 20 % \(8 of 40\); it goes on when the user who sent it resumes the list$/.test(
          s,
        ),
      ),
    ).toHaveLength(40);
    resume('YES');
    emu.advanceTime(HOUR);
    const all = await mails();
    expect(all).toHaveLength(72); // each delivered row's step once; the failed rows get none
    expect(all.filter((m) => m.recipientEmail.startsWith('bounce.'))).toHaveLength(8);
  });
});
