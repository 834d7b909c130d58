'use strict';
// Mails sent through the add-on, as a user sends them, for the tracking tests and the bench: a mailing list
// (Name, Email), its template saved as Compose saves it, then "Send to all unsent rows" and the progress
// dialog's steps to the end. The sender writes the ids on the rows and the tasks in its send journal.
const { control, DEMO_KEYS, jobKey } = require('./harness');
const { rowsOf, writeList } = require('./sheets');

function nameOf(email) {
  const local = email.split('@')[0];
  return local.charAt(0).toUpperCase() + local.slice(1);
}

/**
 * `rows` (headers first) on the sheet `sheetName` (made when missing, grown to hold them), made the active
 * sheet, with its mail saved as Compose saves it (`template`: campaign, subject, body, bodyFormat).
 */
function listWithMail(emu, sheetName, rows, template) {
  const sheet = writeList(emu, sheetName, rows);
  emu.run('saveTemplate', [template], { kind: 'webapp' });
  return sheet;
}

/**
 * Sends one mail per address from the sheet `sheetName` (created, or replaced). Returns the sent rows:
 * [{ email, taskId, mailId }], and the distinct task ids.
 */
function sendFromSheet(
  emu,
  emails,
  { sheetName = 'Outreach', campaign = 'Spring launch', html = false } = {},
) {
  const rows = [['Name', 'Email'], ...emails.map((email) => [nameOf(email), email])];
  const template = html
    ? {
        subject: 'Hello {{Name}}',
        body: '<p>Hi <b>{{Name}}</b></p><script>alert(0)</script>',
        bodyFormat: 'html',
      }
    : { subject: 'Hello {{Name}}', body: 'Hi {{Name}},\n<b>not bold</b>', bodyFormat: 'text' };
  const sheet = listWithMail(emu, sheetName, rows, { campaign, ...template });
  emu.run('sendAllUnsentRows', [], { kind: 'menu' });
  for (let steps = 0; emu.properties.document.getProperty(jobKey(emu, 'send')) && steps < 100; steps++) {
    if (emu.run('continueJob', ['send'], { kind: 'webapp' }).finished) break;
  }
  const sent = rowsOf(emu, sheetName).map((row) => ({
    email: row.Email,
    taskId: row['Task ID'],
    mailId: row['Mail ID'],
  }));
  if (sent.some((row) => typeof row.mailId !== 'number'))
    throw new Error(`not every row of ${sheetName} was sent`);
  return { sheet, sent, taskIds: [...new Set(sent.map((row) => row.taskId))] };
}

/**
 * The document's mark (src/platform/document-mark.ts), made as the add-on makes it when the document has
 * none yet: a task posted at the sandbox for this document carries it in its tag, as the sender's do.
 */
function documentMarkOf(emu) {
  const properties = emu.properties.document;
  let mark = properties.getProperty('document.mark');
  if (!mark) {
    mark = require('node:crypto').randomBytes(3).toString('hex');
    properties.setProperty('document.mark', mark);
  }
  return mark;
}

/** A chunk tag of this document, as the sender makes it: # mark and 10 hex characters (here a counter). */
let tagCount = 0;
function tagOf(emu) {
  return `#${documentMarkOf(emu)}${(tagCount++).toString(16).padStart(10, '0')}`;
}

/**
 * The fast path for scale tests: sends of 100 posted straight to the sandbox (within its 60 requests per
 * minute), their ids written on a mailing list as the sender writes them (Mail status "Accepted", Task ID,
 * Mail ID, Sent at), each task tagged with the document's mark. Sending 10,000 rows through the add-on
 * takes minutes of real time in the emulator.
 */
async function sendAtSandboxToSheet(emu, services, emails, sheetName) {
  await topUpEdm(services, emails.length);
  const rows = [];
  for (let i = 0, posts = 0; i < emails.length; i += 100, posts++) {
    if (posts > 0 && posts % 50 === 0) services.clock.advance(61_000);
    const batch = emails.slice(i, i + 100);
    const response = await fetch(`${services.sandbox.outreachUrl}/api/v1/emails/send/personalized`, {
      method: 'POST',
      headers: { Authorization: `ApiKey ${DEMO_KEYS.paid}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        task_subject: `Big campaign · ${tagOf(emu)}`,
        emails: batch.map((email) => ({
          email,
          subject: `Hello ${nameOf(email)}`,
          content: 'Hi',
          body_format: 'text',
        })),
      }),
    });
    const answer = await response.json();
    if (response.status !== 201) throw new Error(`send failed: ${response.status} ${JSON.stringify(answer)}`);
    const at = new Date(services.clock.now());
    for (const t of answer.tasks) rows.push([nameOf(t.email), t.email, 'Accepted', t.task_id, t.mail_id, at]);
  }
  const sheet = emu.spreadsheet.insertSheet(sheetName);
  sheet.insertRowsAfter(sheet.getMaxRows(), rows.length + 1 - sheet.getMaxRows());
  const header = ['Name', 'Email', 'Mail status', 'Task ID', 'Mail ID', 'Sent at'];
  sheet.getRange(1, 1, rows.length + 1, header.length).setValues([header, ...rows]);
  return sheet;
}

/** EDM enough for `mails` more mails on the demo paid account. */
async function topUpEdm(services, mails) {
  await control(services.sandbox.outreachUrl, 'POST', '/accounts', {
    key: DEMO_KEYS.paid,
    addonEdm: mails + 1000,
  });
}

module.exports = {
  listWithMail,
  sendFromSheet,
  sendAtSandboxToSheet,
  topUpEdm,
  nameOf,
  documentMarkOf,
  tagOf,
};
