'use strict';
// The sandbox's mailbox (dev/sandbox/mailbox.js): reply., ooo., unsub. and bounce. addresses answer an hour
// (service clock) after their mail, read at GET /__sandbox/mailbox.
const { useSandbox, DEMO_KEYS } = require('./helpers');

const t = useSandbox();
const HOUR = 3600000;
const to = (email, subject = 'Our offer') => ({
  email,
  nickname: email.split('@')[0].split('.')[1],
  subject,
  content: 'Hello,\nwe make widgets.',
  body_format: 'text',
});
const send = (emails, key = DEMO_KEYS.paid) =>
  t.api('POST', '/api/v1/emails/send/personalized', { key, body: { emails } });
const mailbox = async (query = '') => (await t.control('GET', `/mailbox${query}`)).json.messages;

test('each kind of address answers one hour after its mail, the others never', async () => {
  const sent = await send([
    to('reply.ann@acme.com'),
    to('ooo.bob@beta.io'),
    to('unsub.cy@gamma.org'),
    to('bounce.dan@delta.net'),
    to('quiet.eve@epsilon.com'),
  ]);
  expect(sent.status).toBe(201);
  expect(await mailbox()).toEqual([]);
  t.clock.advance(HOUR);
  expect(await mailbox()).toEqual([]);
  t.clock.advance(10000);
  const answers = await mailbox();
  expect(answers.map((a) => a.kind)).toEqual(['reply', 'ooo', 'unsub', 'bounce']);
  const [reply, ooo, unsub, bounce] = answers;
  const mails = (await t.control('GET', `/mails?key=${DEMO_KEYS.paid}`)).json.mails;
  expect(reply).toMatchObject({
    from: 'ann <reply.ann@acme.com>',
    subject: 'Re: Our offer',
    inReplyTo: `<mail-${mails[0].mailId}@outreach.sandbox>`,
    key: DEMO_KEYS.paid,
    mailId: mails[0].mailId,
  });
  expect(reply.body).toContain('> Hello,');
  expect(reply.dateMs).toBe(Date.parse(mails[0].sentAt) + HOUR);
  expect(ooo).toMatchObject({ subject: 'Out of office', headers: { 'Auto-Submitted': 'auto-replied' } });
  const back = new Date(ooo.dateMs + 10 * 24 * HOUR);
  const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August'];
  const monthName = [...months, 'September', 'October', 'November', 'December'][back.getUTCMonth()];
  expect(ooo.body).toContain(`back on ${back.getUTCDate()} ${monthName} ${back.getUTCFullYear()}`);
  expect(unsub.body).toMatch(/Please remove me from your list\. Unsubscribe/);
  expect(bounce).toMatchObject({
    from: 'Mail Delivery Subsystem <mailer-daemon@googlemail.com>',
    subject: 'Delivery Status Notification (Failure)',
    headers: { 'X-Failed-Recipients': 'bounce.dan@delta.net' },
  });
  expect(bounce.body).toContain('550 5.1.1 <bounce.dan@delta.net>: Mailbox unavailable (550 hard bounce)');
});

test('answers in the recipient country language; since / until / key select', async () => {
  await send([to('ooo.jan@firma.de'), to('unsub.marie@societe.fr')]);
  await send([to('reply.x@other.com')], DEMO_KEYS.free);
  t.clock.advance(HOUR + 10000);
  const all = await mailbox();
  const [de, fr] = all.filter((a) => a.key === DEMO_KEYS.paid);
  expect(de.subject).toBe('Abwesenheitsnotiz');
  expect(de.body).toMatch(/zurück am \d{2}\.\d{2}\.\d{4}/);
  expect(fr.body).toContain('Désinscrire');
  expect(await mailbox(`?key=${DEMO_KEYS.paid}`)).toHaveLength(2);
  expect(await mailbox(`?since=${de.dateMs}`)).toHaveLength(all.filter((a) => a.dateMs > de.dateMs).length);
  expect(await mailbox(`?until=${de.dateMs - 1}`)).toEqual([]);
  expect((await t.control('GET', '/mailbox?since=abc')).status).toBe(400);
});
