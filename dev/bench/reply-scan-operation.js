'use strict';
// Reply detection (issue 36) on a large running sequence, in the build with Gmail (dist-local-gmail/),
// run by the hourly trigger as Apps Script would run it. Set-up (not measured): n rows sent through the
// add-on with three follow-ups, 3 % of them answering (1 % reply., 1 % ooo., 0.5 % unsub., 0.5 % bounce.,
// an hour after their mail, from the sandbox's mailbox), the hour's refresh owed after the send done, the
// switch turned on. Measured: the first scan (every answer since the send, and 30 other messages in the
// inbox), then a steady hour (30 other messages, no answer): one trigger run each; the trigger-minutes a day
// are the first run and 23 steady ones (a steady day: 24 steady ones). Minimum: no outreach request (the step is not due); Gmail: 1 list + 1 get per
// message (the inbox plan). See dev/bench/README.md.
const { control, newAddon, DEMO_KEYS } = require('../../test/support/harness');
const { Measurement, BENCH_EMULATOR } = require('./measure');

const HOUR = 3600_000;
const USER = 'owner@example.com';
/** Other mail a business inbox gets in an hour (not answers to the campaign). */
const OTHER_PER_HOUR = 30;
const PREFIXES = [
  [0.01, 'reply.'],
  [0.01, 'ooo.'],
  [0.005, 'unsub.'],
  [0.005, 'bounce.'],
];

function replyScanOperation({ runJob, sheetRows }) {
  return {
    id: 'reply-scan',
    name: 'Reply scan',
    unit: 'rows',
    requires: ['saveTemplate', 'sendAllUnsentRows', 'continueJob', 'onHourlyTimer'],
    sizes: { full: [1000, 10000], quick: [200] },
    async run(ctx, count) {
      const emu = await gmailAddon(ctx, count, runJob);
      const answers = Math.round(count * 0.03);
      emu.advanceTime(HOUR + 5 * 60_000); // the owed refresh of the send; the answers are in the mailbox
      emu.run('saveSettings', [{ detectReplies: true }], { kind: 'webapp' });
      const first = await measuredRun(ctx, emu, answers + OTHER_PER_HOUR, 'first scan');
      const steady = await measuredRun(ctx, emu, OTHER_PER_HOUR, 'steady hour');
      const list = sheetRows(emu, emu.spreadsheet.getSheets()[0].getName());
      const decided = list.filter((r) => /^(Stopped|Paused)/.test(String(r.Sequence))).length;
      if (decided < answers * 0.9)
        ctx.note(`reply scan ${count}: ${decided} rows decided of ${answers} answers`);
      first.details.rowsDecided = decided;
      // The day holding the first scan: it and 23 steady hours; a steady day: 24 of them.
      first.triggerMinutesPerDay = (first.modeledMs + 23 * steady.modeledMs) / 60_000;
      steady.triggerMinutesPerDay = (24 * steady.modeledMs) / 60_000;
      return [first, steady];
    },
  };
}

/** A fresh document of the Gmail build, `count` rows sent with three follow-ups (set-up). */
async function gmailAddon(ctx, count, runJob) {
  const { outreachUrl } = ctx.services.sandbox;
  await control(outreachUrl, 'POST', '/reset');
  await control(outreachUrl, 'POST', '/accounts', {
    key: DEMO_KEYS.paid,
    monthlyEdm: 0,
    addonEdm: 1_000_000,
  });
  const emu = newAddon(ctx.services, { gmail: true, ...BENCH_EMULATOR });
  ctx.track(emu);
  const rows = [['Name', 'E-mail', 'Company']];
  for (let i = 1; i <= count; i++)
    rows.push([`Person ${i}`, `${prefixOf(i, count)}person${i}@co${i}.example.com`, `Co ${i}`]);
  const sheet = emu.spreadsheet.getSheets()[0];
  if (sheet.getMaxRows() < rows.length)
    sheet.insertRowsAfter(sheet.getMaxRows(), rows.length - sheet.getMaxRows());
  sheet.getRange(1, 1, rows.length, 3).setValues(rows);
  emu.spreadsheet.setActiveSheet(sheet);
  const followUps = [1, 2, 3].map((n) => ({ afterDays: 2 * n, body: `Note ${n}, {{Name}}.` }));
  const template = {
    campaign: 'Bench',
    subject: 'Hello {{Name}}',
    body: 'Dear {{Name}}',
    bodyFormat: 'text',
    followUps,
  };
  emu.run('saveTemplate', [template], { kind: 'webapp' });
  runJob(emu, 'sendAllUnsentRows', 'send');
  return emu;
}

/** Row i's answer prefix: the shares of PREFIXES spread over the list. */
function prefixOf(i, count) {
  let from = 0;
  for (const [share, prefix] of PREFIXES) {
    const n = Math.round(count * share);
    if (i > from && i <= from + n) return prefix;
    from += n;
  }
  return '';
}

function deliverOther(emu, n) {
  const now = emu.clock.now();
  for (let i = 0; i < n; i++)
    emu.gmail.deliver(USER, {
      from: `news${i}@vendor${i}.com`,
      subject: `Update ${i}`,
      date: now - Math.round(((i + 0.5) * HOUR) / n), // spread over the hour since the last run
      body: 'Unrelated mail.',
    });
}

/** One hourly trigger run, the hour's other mail delivered first, measured; its Gmail calls and units. */
async function measuredRun(ctx, emu, messages, variant) {
  const trigger = emu.triggers.find((t) => t.eventType === 'CLOCK');
  ctx.services.clock.set(Math.max(ctx.services.clock.now(), trigger.nextRunMs));
  deliverOther(emu, OTHER_PER_HOUR);
  const unitsBefore = emu.gmail.unitsUsed(USER);
  const m = await new Measurement(ctx, emu).start();
  const runs = emu.fireDueTriggers();
  const units = emu.gmail.unitsUsed(USER) - unitsBefore;
  const row = await m.finish({
    minimum: { outreach: 0 },
    minimumFormula: `no outreach request; Gmail: 1 list + ${messages} metadata gets (the inbox plan)`,
    chunks: 1,
    extra: { gmailCalls: units / 5, gmailUnits: units },
    details: { runStatuses: runs.map((r) => r.status), gmailMinimumCalls: 1 + messages },
  });
  return { variant, label: `${emu.spreadsheet.getSheets()[0].getLastRow() - 1} rows`, ...row };
}

module.exports = { replyScanOperation };
