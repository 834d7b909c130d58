'use strict';
// Documents that have sent many mails, built fast for the large bench rows: sends of 100 posted straight to
// the sandbox (within its 60 requests per minute) and their ids written on a mailing list as the add-on's
// sender writes them (Mail status "Accepted", Task ID, Mail ID, Sent at). Sending 100,000 rows through the
// add-on would take most of the bench's time budget; the send itself is measured by its own rows.
const { DEMO_KEYS } = require('../../test/support/harness');
const { nameOf, tagOf, topUpEdm } = require('../../test/support/sent-mail');

const LIST_HEADER = ['Name', 'Email', 'Mail status', 'Task ID', 'Mail ID', 'Sent at'];
const PER_POST = 100;
/** Posts in a row before the sandbox's rate window must empty (it allows 60 a minute). */
const POSTS_PER_WINDOW = 50;

/** `count` addresses from `start` on; every tenth one bounces. */
function addresses(start, count) {
  return Array.from({ length: count }, (_, i) => {
    const n = start + i;
    return `${n % 10 === 0 ? 'bounce' : 'person'}${n}@example.com`;
  });
}

/**
 * Posts the mails in sends of 100 for the document of `emu` (its tasks tagged with its mark, as the sender
 * tags them) and returns their list rows. Moves the shared clock past rate windows.
 */
async function postMails(services, emu, emails) {
  await topUpEdm(services, emails.length);
  services.clock.advance(61_000); // the add-on's requests before these may fill the sandbox's window
  const rows = [];
  for (let i = 0, posts = 0; i < emails.length; i += PER_POST, posts++) {
    if (posts > 0 && posts % POSTS_PER_WINDOW === 0) services.clock.advance(61_000);
    const batch = emails.slice(i, i + PER_POST);
    const answer = await post(services, {
      task_subject: `Big campaign · ${tagOf(emu)}`,
      emails: batch.map((email) => ({
        email,
        subject: `Hello ${nameOf(email)}`,
        content: 'Hi',
        body_format: 'text',
      })),
    });
    const at = new Date(services.clock.now());
    for (const t of answer.tasks) rows.push([nameOf(t.email), t.email, 'Accepted', t.task_id, t.mail_id, at]);
  }
  services.clock.advance(61_000); // the sandbox's window and the add-on's budget start empty again
  return rows;
}

async function post(services, body) {
  const response = await fetch(`${services.sandbox.outreachUrl}/api/v1/emails/send/personalized`, {
    method: 'POST',
    headers: {
      Authorization: `ApiKey ${DEMO_KEYS.paid}`,
      'content-type': 'application/json',
      connection: 'close',
    },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (response.status !== 201) throw new Error(`send failed: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** Appends list rows to the sheet `name` (made with its header when missing), test side. */
function appendRows(emu, name, rows) {
  let sheet = emu.spreadsheet.getSheetByName(name);
  if (!sheet) {
    sheet = emu.spreadsheet.insertSheet(name);
    sheet.getRange(1, 1, 1, LIST_HEADER.length).setValues([LIST_HEADER]);
  }
  const first = sheet.getLastRow() + 1;
  const needed = first + rows.length - 1 - sheet.getMaxRows();
  if (needed > 0) sheet.insertRowsAfter(sheet.getMaxRows(), needed);
  if (rows.length) sheet.getRange(first, 1, rows.length, LIST_HEADER.length).setValues(rows);
  return sheet;
}

module.exports = { addresses, postMails, appendRows, LIST_HEADER };
