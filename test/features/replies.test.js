'use strict';
// Issue 36: replies, out-of-office answers, removal requests and bounces read from the user's Gmail, through the
// built bundle in the build with the Gmail advanced service (dist-local-gmail/: REPLY_DETECTION=gmail),
// against the sandbox, whose mailbox answers an hour after each mail to reply./ooo./unsub./bounce. addresses.
// A three-step sequence: each person gets exactly the steps they should (the out-of-office one after each
// return date), with executions killed mid-scan (while reading Gmail; after the sheets were written, before
// the record took the decisions), a refused Gmail permission and the default build among the tests.
const fs = require('node:fs');
const path = require('node:path');
const { TimeLimitError } = require('../emulator/errors');
const {
  useServices,
  control,
  newAddon,
  DEMO_KEYS,
  LOCAL_DIST,
  LOCAL_GMAIL_DIST,
} = require('../support/harness');
const { listWithMail } = require('../support/sent-mail');
const { rowsOf } = require('../support/sheets');

/** Mails per address once step 1 went: only the quiet one got it; the others stopped, the out-of-office one paused. */
const AFTER_STEP_1 = {
  'reply.ann@acme.com': 1,
  'bob@acme.com': 1,
  'ooo.cara@delta.de': 1,
  'unsub.dan@echo.com': 1,
  'bounce.tom@example.org': 1,
  'eve@quiet.com': 2,
};

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const HOUR = 3600_000;
const DAY = 24 * HOUR;

const READONLY = 'https://www.googleapis.com/auth/gmail.readonly';

/** The add-on built with Gmail, its users' mailboxes fed by the sandbox's answers to their mails. */
const gmailAddon = (options = {}) => newAddon(services, { gmail: true, ...options });

/** The Tracking summary's Reply % of the campaign "Spring", after a refresh from the menu. */
function replyRate() {
  emu.run('refreshTracking', [], { kind: 'menu' });
  return rowsOf(emu, 'Tracking summary', 8).find((r) => r.Campaign === 'Spring')['Reply %'];
}
const detectReplies = (on) => emu.run('saveSettings', [{ detectReplies: on }], { kind: 'webapp' });

const PEOPLE = [
  ['Ann', 'reply.ann@acme.com', 'Acme', 'H-ACME'],
  ['Bob', 'bob@acme.com', 'Acme', 'H-ACME'],
  ['Cara', 'ooo.cara@delta.de', 'Delta', 'H-DELTA'],
  ['Dan', 'unsub.dan@echo.com', 'Echo', 'H-ECHO'],
  ['Tom', 'bounce.tom@example.org', 'Fox', 'H-FOX'],
  ['Eve', 'eve@quiet.com', 'Quiet', 'H-QUIET'],
];
const STEPS = [
  { afterDays: 2, body: 'Step one, {{Name}}.' },
  { afterDays: 3, body: 'Step two, {{Name}}.' },
  { afterDays: 3, body: 'Step three, {{Name}}.' },
];

function sendSequence() {
  listWithMail(emu, 'Spring', [['Name', 'Email', 'Company', 'Company hash ID'], ...PEOPLE], {
    campaign: 'Spring',
    subject: 'Hello {{Name}}',
    body: 'Dear {{Name}}',
    bodyFormat: 'text',
    followUps: STEPS,
  });
  emu.ui.queue('YES');
  emu.run('sendAllUnsentRows', [], { kind: 'menu' });
}

/** Recipient → the times (ms) of the mails they were sent, oldest first. */
async function sentTimes() {
  const { mails } = await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${DEMO_KEYS.paid}`);
  const got = {};
  for (const m of mails.sort((a, b) => a.mailId - b.mailId))
    (got[m.recipientEmail] = got[m.recipientEmail] || []).push(Date.parse(m.createdAt || m.sentAt));
  return got;
}
const counts = async () =>
  Object.fromEntries(Object.entries(await sentTimes()).map(([k, v]) => [k, v.length]));
const column = (name) => Object.fromEntries(rowsOf(emu, 'Spring').map((r) => [r.Email, r[name]]));
const repliesLine = () => emu.spreadsheet.getSheetByName('Tracking summary').getRange('D7:E7').getValues()[0];

describe('Reply detection (a build with Gmail)', () => {
  test('reply, out of office, removal request, bounce and silence: each gets exactly the steps it should', async () => {
    emu = gmailAddon();
    expect(emu.run('getSettings', [], { kind: 'webapp' }).replyDetection).toEqual({
      available: true,
      on: false,
      refused: '',
    });
    detectReplies(true);
    sendSequence();
    const first = emu.clock.now();

    emu.advanceTime(DAY + 12 * HOUR); // every answer came (an hour after its mail) and was read
    const sequence = column('Sequence');
    expect(column('Replied')['reply.ann@acme.com']).toBe(true);
    expect(sequence['reply.ann@acme.com']).toMatch(/^Stopped: replied \d{4}-\d\d-\d\d$/);
    expect(sequence['ooo.cara@delta.de']).toMatch(/^Paused: out of office until \d{4}-\d\d-\d\d$/);
    expect(sequence['unsub.dan@echo.com']).toMatch(
      /^Stopped: on the do-not-contact list \(asked to be removed in a reply on \d{4}-\d\d-\d\d\)$/,
    );
    expect(column('Mail status')['bounce.tom@example.org']).toMatch(/^Failed: /);
    expect(rowsOf(emu, 'Do not contact')).toEqual([
      {
        'E-mail': 'unsub.dan@echo.com',
        Reason: expect.stringMatching(/^asked to be removed in a reply on /),
      },
    ]);
    // The return date the German answer gave ("zurück am dd.mm.yyyy": ten days after it).
    const until = Date.parse(sequence['ooo.cara@delta.de'].slice(-10));
    expect(until).toBeGreaterThan(first + 9 * DAY);
    expect(until).toBeLessThan(first + 12 * DAY);

    emu.advanceTime(34 * DAY); // the whole sequence, and the out-of-office person's three returns
    const times = await sentTimes();
    expect(await counts()).toEqual({
      'reply.ann@acme.com': 1, // replied: stopped
      'bob@acme.com': 1, // their company replied
      'ooo.cara@delta.de': 4, // paused, then every step
      'unsub.dan@echo.com': 1, // asked to be removed
      'bounce.tom@example.org': 1, // bounced
      'eve@quiet.com': 4, // said nothing: every step
    });
    // Each out-of-office step went after the return date its answer gave, never before.
    const cara = times['ooo.cara@delta.de'];
    expect(cara[1] - cara[0]).toBeGreaterThan(9 * DAY);
    expect(cara[2] - cara[1]).toBeGreaterThan(9 * DAY);
    expect(cara[3] - cara[2]).toBeGreaterThan(9 * DAY);
    const eve = times['eve@quiet.com'];
    expect(eve[1] - eve[0]).toBeLessThan(2 * DAY + 2 * HOUR);
    expect(column('Sequence')['bob@acme.com']).toMatch(
      /^Stopped: someone at Acme replied \(reply.ann@acme.com\)/,
    );
    expect(column('Sequence')['eve@quiet.com']).toMatch(/^Finished: /);

    // Seen where users look: the summary's line and the campaign's answers.
    emu.run('refreshTracking', [], { kind: 'menu' });
    expect(repliesLine()[0]).toBe('Replies from Gmail');
    expect(repliesLine()[1]).toMatch(
      /^on; last read .*: 1 reply, 1 out-of-office answer, 1 removal request, 1 bounce\.$/,
    );
    const campaign = rowsOf(emu, 'Tracking summary', 8).find((r) => r.Campaign === 'Spring');
    expect(campaign).toMatchObject({ Replies: 1, 'Out of office': 1, 'Asked to be removed': 1 });
    expect(campaign['Reply %']).toBeCloseTo(1 / 6);
    // Show mail of the row that replied says so.
    const list = emu.spreadsheet.getSheetByName('Spring');
    emu.spreadsheet.setActiveSheet(list);
    list.getRange('B2').activate();
    emu.run('showMailDetail', [], { kind: 'menu' });
    expect(emu.ui.dialogs.at(-1).html).toMatch(/replied on \d{4}-\d\d-\d\d \(read in Gmail\)/);
    // Nothing of a message is kept: no answer's words in any property or cell.
    const stored = JSON.stringify([emu.snapshot(), emu.properties.forUser(emu.users.active).getProperties()]);
    for (const words of ['this sounds interesting', 'zurück am', 'remove me', 'Address not found'])
      expect(stored).not.toContain(words);
    expect(emu.executions.filter((e) => e.kind === 'trigger').every((e) => e.status === 'completed')).toBe(
      true,
    );
  });

  test('an execution killed mid-scan: the next hourly run reads it again whole, nothing lost or done twice', async () => {
    emu = gmailAddon();
    detectReplies(true);
    sendSequence();
    emu.advanceTime(HOUR + 30 * 60_000); // the answers are in the mailbox; none read yet
    // Each Gmail call takes its quota units (test/emulator/gmail.js): the third call of the scan kills it.
    let calls = 0;
    let killed = false;
    const take = emu.gmail._take.bind(emu.gmail);
    emu.gmail._take = (...args) => {
      if (!killed && ++calls === 3) {
        killed = true;
        services.clock.advance(7 * 60_000); // past the 6-minute limit: the next service call dies
      }
      return take(...args);
    };
    emu.advanceTime(HOUR);
    expect(killed).toBe(true);
    expect(emu.executions.some((e) => e.kind === 'trigger' && e.status !== 'completed')).toBe(true);
    emu.advanceTime(3 * DAY); // the next runs read it all again, and step 1 goes
    expect(await counts()).toMatchObject(AFTER_STEP_1);
    expect(rowsOf(emu, 'Do not contact')).toHaveLength(1);
    expect(column('Replied')['reply.ann@acme.com']).toBe(true);
  });

  test('an execution killed after the sheets were written, before the record took the decisions: done again, never twice', async () => {
    emu = gmailAddon();
    detectReplies(true);
    sendSequence();
    emu.advanceTime(HOUR + 30 * 60_000); // the answers are in the mailbox; none read yet
    // Once the scan has read Gmail, the next write of the ledger (user properties) is its one change:
    // the execution dies there, after the lists and Do not contact were written.
    let read = false;
    let killed = false;
    const take = emu.gmail._take.bind(emu.gmail);
    emu.gmail._take = (...args) => {
      read = true;
      return take(...args);
    };
    const store = emu.properties.forUser('owner@example.com');
    const setProperties = store.setProperties.bind(store);
    store.setProperties = (...args) => {
      if (read && !killed) {
        killed = true;
        services.clock.advance(7 * 60_000);
        throw new TimeLimitError();
      }
      return setProperties(...args);
    };
    emu.advanceTime(HOUR);
    expect(killed).toBe(true);
    const recorded = () => JSON.stringify(store.toJSON()).includes('\\"answers\\"');
    expect(recorded()).toBe(false); // the ledger has none of the decisions
    expect(column('Replied')['reply.ann@acme.com']).toBe(true); // the sheets were written
    expect(rowsOf(emu, 'Do not contact')).toHaveLength(1);
    emu.advanceTime(3 * DAY); // the next run decides it all again, and step 1 goes
    expect(await counts()).toMatchObject(AFTER_STEP_1);
    expect(rowsOf(emu, 'Do not contact')).toHaveLength(1);
    expect(column('Sequence')['ooo.cara@delta.de']).toMatch(/^Paused: out of office until /);
    expect(recorded()).toBe(true);
  });

  test('a send without follow-ups, read at Refresh tracking: a removal request joins Do not contact, a bounce fails its row', async () => {
    emu = gmailAddon();
    detectReplies(true);
    listWithMail(emu, 'Plain', [['Name', 'Email'], ...PEOPLE.map(([name, email]) => [name, email])], {
      campaign: 'Plain',
      subject: 'Hello {{Name}}',
      body: 'Dear {{Name}}',
      bodyFormat: 'text',
    });
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    services.clock.advance(2 * HOUR); // the answers came; no hourly run here
    emu.run('refreshTracking', [], { kind: 'menu' });
    const status = Object.fromEntries(rowsOf(emu, 'Plain').map((r) => [r.Email, r['Mail status']]));
    expect(status['bounce.tom@example.org']).toMatch(/^Failed: /);
    expect(rowsOf(emu, 'Do not contact')).toEqual([
      {
        'E-mail': 'unsub.dan@echo.com',
        Reason: expect.stringMatching(/^asked to be removed in a reply on /),
      },
    ]);
    expect(repliesLine()[1]).toMatch(/1 reply, 1 out-of-office answer, 1 removal request, 1 bounce\.$/);
    const campaign = rowsOf(emu, 'Tracking summary', 8).find((r) => r.Campaign === 'Plain');
    expect(campaign).toMatchObject({ Replies: 1, 'Out of office': 1, 'Asked to be removed': 1 });
    // A later send from another list leaves out who asked to be removed.
    listWithMail(
      emu,
      'Later',
      [
        ['Name', 'Email'],
        ['Dan', 'unsub.dan@echo.com'],
        ['Fay', 'fay@quiet.com'],
      ],
      { campaign: 'Later', subject: 'Hi {{Name}}', body: 'Dear {{Name}}', bodyFormat: 'text' },
    );
    emu.ui.queue('YES');
    emu.run('sendAllUnsentRows', [], { kind: 'menu' });
    expect(await counts()).toMatchObject({ 'unsub.dan@echo.com': 1, 'fay@quiet.com': 1 });
  });

  test('a refused Gmail permission leaves Replied manual, says so once in the summary, and everything else works', async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(LOCAL_GMAIL_DIST, 'appsscript.json'), 'utf8'));
    emu = gmailAddon({ grantedScopes: manifest.oauthScopes.filter((s) => s !== READONLY) });
    detectReplies(true);
    sendSequence();
    emu.advanceTime(2 * DAY + 2 * HOUR); // step 1 goes to everyone who did not fail
    expect(await counts()).toMatchObject({
      'reply.ann@acme.com': 2,
      'bob@acme.com': 2,
      'ooo.cara@delta.de': 2,
      'unsub.dan@echo.com': 2,
      'bounce.tom@example.org': 1, // the service's own failure stops it
      'eve@quiet.com': 2,
    });
    expect(column('Replied')['reply.ann@acme.com']).toBe(false);
    expect(repliesLine()[1]).toMatch(
      /^Reply detection needs the permission "View your email messages and settings".*tick Replied by hand\.$/,
    );
    expect(replyRate()).toBe('Gmail permission refused');
    // Settings says it too, beside the switch.
    expect(emu.run('getSettings', [], { kind: 'webapp' }).replyDetection.refused).toMatch(
      /^Reply detection needs the permission "View your email messages and settings"/,
    );
    const failed = emu.executions.filter((e) => e.kind === 'trigger' && e.status !== 'completed');
    expect(failed).toEqual([]);
  });

  test('off by default: nothing is read, the steps go as before', async () => {
    emu = gmailAddon();
    sendSequence();
    emu.advanceTime(2 * DAY + 2 * HOUR);
    expect((await counts())['reply.ann@acme.com']).toBe(2);
    expect(emu.gmail.unitsUsed('owner@example.com')).toBe(0);
    expect(repliesLine()[1]).toMatch(/^off /);
    expect(replyRate()).toBe('reply detection is off');
  });
});

describe('The default build', () => {
  test('has no Gmail: no permission asked, no switch in Settings, no line in the summary', async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(LOCAL_DIST, 'appsscript.json'), 'utf8'));
    expect(JSON.stringify(manifest)).not.toMatch(/gmail/i);
    emu = newAddon(services);
    expect(emu.run('getSettings', [], { kind: 'webapp' }).replyDetection).toEqual({
      available: false,
      on: false,
      refused: '',
    });
    detectReplies(true); // ignored: this build cannot read Gmail
    expect(emu.run('getSettings', [], { kind: 'webapp' }).replyDetection.on).toBe(false);
    sendSequence();
    emu.advanceTime(2 * DAY + 2 * HOUR);
    expect((await counts())['ooo.cara@delta.de']).toBe(2);
    expect(repliesLine()).toEqual(['', '']);
    expect(replyRate()).toBe('only with Gmail reply detection');
  });
});
