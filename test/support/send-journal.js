'use strict';
// The add-on's send journal as a test sees it (document properties `send.chunk.<tag>` and their parts), and
// the faults that leave a chunk in doubt.
const { control } = require('./harness');

/** The journal's properties, key → stored text: none once every batch is on its rows. */
function sendJournal(emu) {
  const all = emu.properties.document.toJSON();
  return Object.fromEntries(Object.entries(all).filter(([key]) => key.startsWith('send.chunk.')));
}

/** How much the journal holds now: its entries (heads), property values and characters. */
function journalSize(emu) {
  const journal = sendJournal(emu);
  const keys = Object.keys(journal);
  return {
    heads: keys.filter((key) => !key.includes('.part')).length,
    keys: keys.length,
    chars: keys.reduce((n, key) => n + journal[key].length, 0),
  };
}

/** The next send's answer is lost and the look-up of its tag fails once: its chunk stays in doubt. */
async function leaveNextSendInDoubt(outreachUrl) {
  await control(outreachUrl, 'POST', '/faults', {
    path: '/api/v1/emails/send/personalized',
    kind: 'lost-response',
    count: 1,
  });
  await control(outreachUrl, 'POST', '/faults', {
    path: '/api/v1/emails/tasks',
    kind: 'status',
    status: 400,
    count: 1,
  });
}

module.exports = { sendJournal, journalSize, leaveNextSendInDoubt };
