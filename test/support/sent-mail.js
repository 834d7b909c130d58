'use strict';
// Sent tasks for tracking tests, made as the sender makes them: POST /api/v1/emails/send/personalized at the
// sandbox (task_subject "<campaign> · #tag"), then the answer's ids on the rows of a mailing list (Mail
// status "Accepted", Task ID, Mail ID, Sent at) and, optionally, the task in the send journal
// (document property send.tasks, the format of src/platform/large-property.ts).
const { control, DEMO_KEYS } = require('./harness');

const MAILING_HEADER = ['E-mail', 'Name', 'Mail status', 'Task ID', 'Mail ID', 'Sent at'];
let tags = 0;

/** One personalized send of `emails` (≤ 100): resolves to { taskId, tag, mails: [{email, mailId}] }. */
async function sendAtSandbox(services, emails, { campaign = 'Spring launch', html = false, key = DEMO_KEYS.paid } = {}) {
  const tag = `#${(++tags).toString(16).padStart(10, 'a')}`;
  const response = await fetch(`${services.sandbox.outreachUrl}/api/v1/emails/send/personalized`, {
    method: 'POST',
    headers: { Authorization: `ApiKey ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      task_subject: `${campaign} · ${tag}`,
      emails: emails.map((email, i) => ({
        email,
        nickname: nameOf(email),
        subject: `Hello ${nameOf(email)}`,
        content: html ? `<p>Hi <b>${nameOf(email)}</b></p><script>alert(${i})</script>` : `Hi ${nameOf(email)},\n<b>not bold</b>`,
        body_format: html ? 'html' : 'text',
      })),
    }),
  });
  const answer = await response.json();
  if (response.status !== 201) throw new Error(`send failed: ${response.status} ${JSON.stringify(answer)}`);
  return {
    taskId: answer.tasks[0].task_id,
    tag,
    campaign,
    mails: answer.tasks.map((t) => ({ email: t.email, mailId: t.mail_id, taskId: t.task_id })),
  };
}

/** Many sends of 100 at a time within the sandbox's 60 requests per minute (the clock is moved on). */
async function sendManyAtSandbox(services, emails, options = {}) {
  await control(services.sandbox.outreachUrl, 'POST', '/accounts', { key: DEMO_KEYS.paid, addonEdm: emails.length + 1000 });
  const sends = [];
  for (let i = 0; i < emails.length; i += 100) {
    if (sends.length > 0 && sends.length % 50 === 0) services.clock.advance(61_000);
    sends.push(await sendAtSandbox(services, emails.slice(i, i + 100), options));
  }
  services.clock.advance(61_000); // the sandbox's rate window empties before the add-on's requests
  return sends;
}

function nameOf(email) {
  const local = email.split('@')[0];
  return local.charAt(0).toUpperCase() + local.slice(1);
}

/** The sends' mails as rows of a mailing list named `sheetName` (created when missing). */
function writeMailingList(emu, sheetName, sends, sentAtMs) {
  const sheet = emu.spreadsheet.getSheetByName(sheetName) || emu.spreadsheet.insertSheet(sheetName);
  const rows = sends.flatMap((send) =>
    send.mails.map((m) => [m.email, nameOf(m.email), 'Accepted', m.taskId, m.mailId, new Date(sentAtMs)]),
  );
  if (sheet.getMaxRows() < rows.length + 1) sheet.insertRowsAfter(sheet.getMaxRows(), rows.length + 1 - sheet.getMaxRows());
  sheet.getRange(1, 1, rows.length + 1, MAILING_HEADER.length).setValues([MAILING_HEADER, ...rows]);
  return sheet;
}

/** The sends in the send journal, as the sender's closeChunk leaves them. */
function journal(emu, sends, sheet, atMs) {
  const tasks = sends.map((send) => ({
    taskId: send.taskId,
    tag: send.tag,
    campaign: send.campaign,
    sheetId: sheet.getSheetId(),
    sheetName: sheet.getName(),
    at: atMs,
    count: send.mails.length,
  }));
  const store = emu.properties.document;
  const text = JSON.stringify(tasks);
  if (text.length <= 8000) store.setProperty('send.tasks', text);
  else {
    const parts = Math.ceil(text.length / 8000);
    store.setProperty('send.tasks', `@parts:${parts + 1}`);
    for (let i = 0; i < parts; i++) store.setProperty(`send.tasks.part${i + 1}`, text.slice(i * 8000, (i + 1) * 8000));
  }
}

module.exports = { sendAtSandbox, sendManyAtSandbox, writeMailingList, journal, MAILING_HEADER };
