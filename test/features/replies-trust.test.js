'use strict';
// Issue 43, item 5: only the mail system bounces, only the recipient replies, and no flood hides a reply.
// Through the built bundle with reply detection (dist-local-gmail/), against the sandbox: a two-step sequence
// to people the sandbox does not answer for, and messages put into the payer's Gmail by hand (emu.gmail.deliver,
// with Gmail's trace headers: Return-Path, Authentication-Results) as anyone could send them.
const { useServices, newAddon, DEMO_KEYS, control } = require('../support/harness');
const { listWithMail } = require('../support/sent-mail');
const { rowsOf } = require('../support/sheets');
const { GoogleJsonResponseException } = require('../emulator/gmail');

const services = useServices();
let emu;
afterEach(() => emu && emu.dispose());

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const OWNER = 'owner@example.com';

const PEOPLE = [
  ['Eve', 'eve@quiet.com', 'Quiet'],
  ['Fay', 'fay@field.com', 'Field'],
  ['Gus', 'gus@grove.com', 'Grove'],
];
const STEPS = [
  { afterDays: 2, body: 'Step one, {{Name}}.' },
  { afterDays: 3, body: 'Step two, {{Name}}.' },
];

/** The payer's three-person sequence, sent now; reply detection on (unless `detect` is false). */
function sendSequence({ detect = true } = {}) {
  emu = newAddon(services, { gmail: true });
  if (detect) emu.run('saveSettings', [{ detectReplies: true }], { kind: 'webapp' });
  listWithMail(emu, 'Spring', [['Name', 'Email', 'Company'], ...PEOPLE], {
    campaign: 'Spring',
    subject: 'Hello {{Name}}',
    body: 'Dear {{Name}}',
    bodyFormat: 'text',
    followUps: STEPS,
  });
  emu.ui.queue('YES');
  emu.run('sendAllUnsentRows', [], { kind: 'menu' });
  return emu.clock.now();
}

/** Recipient → how many mails the service took for them. */
async function counts() {
  const { mails } = await control(services.sandbox.outreachUrl, 'GET', `/mails?key=${DEMO_KEYS.paid}`);
  const got = {};
  for (const m of mails) got[m.recipientEmail] = (got[m.recipientEmail] || 0) + 1;
  return got;
}
const listed = () =>
  emu.spreadsheet.getSheetByName('Do not contact')
    ? rowsOf(emu, 'Do not contact').map((r) => r['E-mail'])
    : [];
const column = (name) => Object.fromEntries(rowsOf(emu, 'Spring').map((r) => [r.Email, r[name]]));
const deliver = (mail) => emu.gmail.deliver(OWNER, { date: emu.clock.now(), ...mail });

/** A delivery report (RFC 3464) as a mail system writes one, about the mail `to` got; `over` changes a part. */
function report(to, over = {}) {
  const {
    from = 'Mail Delivery Subsystem <mailer-daemon@googlemail.com>',
    failed = to,
    originalTo = to,
  } = over;
  const text = `Address not found. Your message wasn't delivered to ${failed}. 550 5.1.1 The email account does not exist.`;
  return {
    from,
    subject: 'Delivery Status Notification (Failure)',
    returnPath: '',
    contentType: 'multipart/report; report-type=delivery-status',
    headers: { 'X-Failed-Recipients': failed, 'Auto-Submitted': 'auto-replied' },
    body: text,
    parts: [
      { mimeType: 'text/plain', body: text },
      {
        mimeType: 'message/delivery-status',
        body: `Reporting-MTA: dns; googlemail.com\r\n\r\nFinal-Recipient: rfc822; ${failed}\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 The email account that you tried to reach does not exist`,
      },
      { mimeType: 'text/rfc822-headers', body: `To: ${originalTo}\r\nSubject: Hello\r\nMessage-ID: <m1@x>` },
    ],
  };
}

describe('Only the mail system bounces', () => {
  test('an ordinary address with a bounce-like subject and X-Failed-Recipients, or a look-alike mailer-daemon, fails nobody', async () => {
    sendSequence();
    emu.advanceTime(HOUR);
    deliver({
      from: 'Mail Delivery <notices@mallory.example>',
      subject: 'Undeliverable: Hello Eve',
      headers: { 'X-Failed-Recipients': 'eve@quiet.com' },
      body: 'Delivery has failed to these recipients: eve@quiet.com. 550 5.1.1 User unknown',
    });
    // A report in every part, from a mail system's name at a domain that is nobody's mail system.
    deliver(report('fay@field.com', { from: 'MAILER-DAEMON <mailer-daemon@random.example>' }));
    emu.advanceTime(2 * DAY + 2 * HOUR); // read, then step 1 goes
    expect(column('Mail status')['eve@quiet.com']).not.toMatch(/^Failed/);
    expect(column('Mail status')['fay@field.com']).not.toMatch(/^Failed/);
    expect(await counts()).toEqual({ 'eve@quiet.com': 2, 'fay@field.com': 2, 'gus@grove.com': 2 });
  });

  test('a delivery report of the mail system about a sent mail fails exactly that row, its reason in Mail status, kept by the refresh', async () => {
    sendSequence();
    emu.advanceTime(10 * 60_000);
    deliver(report('eve@quiet.com'));
    // The same mail system's report whose original went to someone else names Gus: it fails nobody.
    deliver(report('gus@grove.com', { originalTo: 'someone@else.example' }));
    emu.advanceTime(HOUR);
    expect(column('Mail status')['eve@quiet.com']).toMatch(
      /^Failed: returned as undeliverable \(550 5\.1\.1\)/,
    );
    expect(column('Sequence')['eve@quiet.com']).toBe('Stopped: the last mail failed');
    emu.run('refreshTracking', [], { kind: 'menu' }); // the service says delivered
    expect(column('Mail status')['gus@grove.com']).toMatch(/^Delivered/);
    expect(column('Mail status')['eve@quiet.com']).toMatch(/^Failed: returned as undeliverable/);
    emu.advanceTime(2 * DAY + 2 * HOUR);
    expect(await counts()).toEqual({ 'eve@quiet.com': 1, 'fay@field.com': 2, 'gus@grove.com': 2 });
    expect(column('Mail status')['eve@quiet.com']).toMatch(/^Failed: returned as undeliverable/);
  });
});

describe('Only the recipient replies', () => {
  test('a removal request naming other addresses, under a bounce-like subject, stops only its sender', async () => {
    sendSequence();
    emu.advanceTime(HOUR);
    deliver({
      from: 'Fay <fay@field.com>',
      subject: 'Returned mail: see transcript',
      body: 'Please remove me from your list. And gus@grove.com too, eve@quiet.com as well.',
    });
    emu.advanceTime(2 * DAY + 2 * HOUR);
    expect(listed()).toEqual(['fay@field.com']);
    expect(await counts()).toEqual({ 'eve@quiet.com': 2, 'fay@field.com': 1, 'gus@grove.com': 2 });
  });

  test('a message Gmail marks as failing authentication is ignored: a spoofed "please remove me" removes nobody', async () => {
    sendSequence();
    emu.advanceTime(HOUR);
    deliver({
      from: 'Gus <gus@grove.com>',
      subject: 'Re: Hello Gus',
      body: 'Please remove me from your list.',
      authentication: { spf: 'fail', dkim: 'none', dmarc: 'fail' },
    });
    deliver({
      from: 'Eve <eve@quiet.com>',
      subject: 'Re: Hello Eve',
      body: 'Sure, let us talk.',
      authentication: { dmarc: 'fail' },
    });
    emu.advanceTime(2 * DAY + 2 * HOUR);
    expect(listed()).toEqual([]);
    expect(column('Replied')['eve@quiet.com']).toBe(false);
    expect(await counts()).toEqual({ 'eve@quiet.com': 2, 'fay@field.com': 2, 'gus@grove.com': 2 });
  });
});

describe('No flood hides a reply', () => {
  test('2,400 look-alike notices just before a real reply: the reply stops the step', async () => {
    const sent = sendSequence();
    emu.advanceTime(2 * DAY - 2 * HOUR);
    for (let i = 0; i < 2400; i++)
      deliver({
        from: 'Mail Delivery System <mailer-daemon@random.example>',
        subject: 'Delivery Status Notification (Failure)',
        headers: { 'X-Failed-Recipients': `nobody${i}@random.example` },
        body: `Your message to nobody${i}@random.example could not be delivered.`,
        date: sent + 2 * DAY - 90 * 60_000 + i * 1000,
      });
    deliver({
      from: 'Eve <eve@quiet.com>',
      subject: 'Re: Hello Eve',
      body: 'Yes, call me.',
      date: sent + 2 * DAY - 45 * 60_000, // after the flood (one a second for 40 minutes)
    });
    emu.advanceTime(3 * HOUR); // step 1 comes due
    expect(column('Replied')['eve@quiet.com']).toBe(true);
    expect(column('Sequence')['eve@quiet.com']).toMatch(/^Stopped: replied /);
    emu.advanceTime(4 * DAY);
    expect(await counts()).toEqual({ 'eve@quiet.com': 1, 'fay@field.com': 3, 'gus@grove.com': 3 });
  });

  test('a step whose people’s mail could not be read waits, says so, and goes once it is read', async () => {
    sendSequence();
    emu.advanceTime(DAY);
    // Gmail refuses every call for two days (its per-user rate, as Apps Script throws it).
    const take = emu.gmail._take.bind(emu.gmail);
    let refusing = true;
    emu.gmail._take = (user, method, units) => {
      if (!refusing) return take(user, method, units);
      const message = 'User-rate limit exceeded.  Retry after 2026-12-31T00:00:00.000Z';
      throw new GoogleJsonResponseException(method, 429, message, 'userRateLimitExceeded', 'usageLimits');
    };
    emu.advanceTime(DAY + 2 * HOUR); // step 1 is due
    expect(column('Sequence')['eve@quiet.com']).toMatch(
      /^Next: step 1 is due and waits: its replies in Gmail are not all read up to its time yet/,
    );
    expect(await counts()).toEqual({ 'eve@quiet.com': 1, 'fay@field.com': 1, 'gus@grove.com': 1 });
    refusing = false;
    emu.advanceTime(HOUR + 5 * 60_000);
    expect(await counts()).toEqual({ 'eve@quiet.com': 2, 'fay@field.com': 2, 'gus@grove.com': 2 });
  });

  test('a reply read late, after a later step went, still stops what is left and marks the row', async () => {
    const sent = sendSequence({ detect: false });
    emu.advanceTime(DAY);
    deliver({
      from: 'Eve <eve@quiet.com>',
      subject: 'Re: Hello Eve',
      body: 'Interesting, tell me more.',
      date: sent + DAY,
    });
    emu.advanceTime(DAY + 2 * HOUR); // step 1 went to all: nothing read the reply
    expect(await counts()).toEqual({ 'eve@quiet.com': 2, 'fay@field.com': 2, 'gus@grove.com': 2 });
    // An editor clears Sent at (a view): the ledger still says when the first mail went.
    const list = emu.spreadsheet.getSheetByName('Spring');
    const sentAt = list.getRange(1, 1, 1, list.getLastColumn()).getValues()[0].indexOf('Sent at') + 1;
    list.getRange(2, sentAt, PEOPLE.length, 1).clearContent();
    emu.run('saveSettings', [{ detectReplies: true }], { kind: 'webapp' });
    emu.advanceTime(HOUR + 5 * 60_000);
    expect(column('Replied')['eve@quiet.com']).toBe(true);
    expect(column('Sequence')['eve@quiet.com']).toMatch(/^Stopped: replied /);
    emu.advanceTime(4 * DAY);
    expect(await counts()).toEqual({ 'eve@quiet.com': 2, 'fay@field.com': 3, 'gus@grove.com': 3 });
  });
});
