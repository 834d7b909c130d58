'use strict';
// The offline world of reply detection, through the built add-on: mails sent by the Gmail build
// (dist-local-gmail/) to reply./ooo./unsub./bounce. addresses are answered by the sandbox an hour later, and
// the answers arrive in the Gmail of the user whose key sent them (test/support/harness.js wires it).
const { useServices, newAddon, DEMO_KEYS } = require('../support/harness');
const { sendFromSheet } = require('../support/sent-mail');

const services = useServices();
const HOUR = 3600000;
const LIST = [
  'reply.ann@acme.com',
  'ooo.bob@beta.de',
  'unsub.cy@gamma.org',
  'bounce.dan@delta.net',
  'quiet.eve@epsilon.com',
];

/** Gmail as the add-on's code sees it (test side: not counted, no quota). */
const gmailOf = (emu) => emu.services.Gmail.Users.Messages;
function found(emu, q) {
  const gmail = gmailOf(emu);
  return (gmail.list('me', { q }).messages || []).map((m) =>
    gmail.get('me', m.id, {
      format: 'metadata',
      metadataHeaders: ['From', 'Subject', 'Auto-Submitted', 'X-Failed-Recipients'],
    }),
  );
}
const header = (message, name) => (message.payload.headers.find((h) => h.name === name) || {}).value;

test('the answers to the add-on’s mails reach the sender’s Gmail an hour later, each as Gmail shows it', () => {
  const emu = newAddon(services, { gmail: true });
  sendFromSheet(emu, LIST);
  const sentAt = Math.floor(services.clock.now() / 1000);
  const q = `{from:${LIST.slice(0, 3).join(' from:')} from:mailer-daemon@googlemail.com} after:${sentAt - 60}`;
  expect(found(emu, q)).toEqual([]);

  services.clock.advance(HOUR + 60000);
  const answers = found(emu, q).reverse();
  expect(answers.map((m) => header(m, 'Subject'))).toEqual([
    'Re: Hello Reply.ann',
    'Abwesenheitsnotiz',
    'Re: Hello Unsub.cy',
    'Delivery Status Notification (Failure)',
  ]);
  expect(header(answers[1], 'Auto-Submitted')).toBe('auto-replied');
  expect(answers[1].snippet).toMatch(/zurück am \d{2}\.\d{2}\.\d{4}/);
  expect(answers[2].snippet).toMatch(/Please remove me from your list/);
  expect(header(answers[3], 'X-Failed-Recipients')).toBe('bounce.dan@delta.net');
  expect(emu.gmail.messages(emu.users.active)).toHaveLength(4);
});

test('another user’s Gmail gets only the answers to the mails of their own key', () => {
  const emu = newAddon(services, { gmail: true });
  sendFromSheet(emu, LIST.slice(0, 1));
  const editor = 'editor@example.com';
  emu.properties.forUser(editor).setProperty('settings.outreachApiKey', DEMO_KEYS.free);
  services.clock.advance(HOUR + 60000);
  expect(gmailOf(emu).list('me', {}).messages).toHaveLength(1);
  emu.setActiveUser(editor);
  expect(gmailOf(emu).list('me', {})).toEqual({ resultSizeEstimate: 0 });
});

test('the default build has no Gmail', () => {
  const emu = newAddon(services);
  expect(emu.gmailSymbol).toBeNull();
  expect(emu.services.Gmail).toBeUndefined();
});
