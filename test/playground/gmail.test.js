'use strict';
// The playground runs the build with reply detection (dist-local-gmail/), and its user's Gmail receives what
// the sandbox's mailbox answers to the mails sent with the demo key: the Demo menu's "Show my Gmail" lists them.
const { startPlayground } = require('../../dev/playground/start');
const { runDemo } = require('../../dev/playground/demo');
const { DEMO_KEYS } = require('../../dev/sandbox');

let pg;
beforeAll(async () => {
  pg = await startPlayground({ port: 0 });
}, 60000);
afterAll(() => pg && pg.stop());

const info = () => ({ outreachUrl: pg.outreachUrl, keys: [DEMO_KEYS.paid, DEMO_KEYS.phone] });

test('the demo shows the answers of reply., ooo., unsub. and bounce. addresses an hour after the mails', async () => {
  expect((await runDemo(pg.emulator, info(), 'inbox')).message).toMatch(/^Nothing in .*'s Gmail yet/);
  // Mails as the add-on sends them with the key saved in Settings (the sandbox's API, directly).
  const emails = ['reply.ann', 'ooo.bob', 'unsub.cy', 'bounce.dan'].map((local) => ({
    email: `${local}@example.com`,
    subject: 'Our offer',
    content: 'Hello',
    body_format: 'text',
  }));
  const sent = await fetch(`${pg.outreachUrl}/api/v1/emails/send/personalized`, {
    method: 'POST',
    headers: { Authorization: `ApiKey ${DEMO_KEYS.paid}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ emails }),
  });
  expect(sent.status).toBe(201);
  expect((await pg.emulator.call({ op: 'advance', ms: 3600000 + 60000 })).ok).toBe(true);
  const { message } = await runDemo(pg.emulator, info(), 'inbox');
  expect(message).toContain(
    'Mail Delivery Subsystem <mailer-daemon@googlemail.com>: "Delivery Status Notification (Failure)"',
  );
  expect(message).toContain(
    'unsub.cy@example.com: "Re: Our offer" (Please remove me from your list. Unsubscribe.)',
  );
  expect(message).toMatch(/ooo\.bob@example\.com: "Out of office" \(.*back on \d{1,2} [A-Z][a-z]+ \d{4}/);
  expect(message).toContain('reply.ann@example.com: "Re: Our offer"');
}, 60000);
