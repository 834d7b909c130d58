'use strict';
// A follow-up step of a large list, run by the hourly trigger as Apps Script would run it: the
// first mail sent through the add-on with one follow-up (set-up, not measured), the clock moved past the
// delay, then the one trigger run that sends the step. Minimum: the previous mails' statuses read (100 ids a
// request), 1 balance, ceil(n / 100) sends. See dev/bench/README.md.
const { Measurement } = require('./measure');
const { userStoreChars } = require('./record-operation');

const DAY = 24 * 3600_000;

function sequenceOperation({ mailingListAddon, runJob, sheetRows, alertsText }) {
  return {
    id: 'sequence',
    name: 'Follow-up step',
    unit: 'rows',
    requires: ['saveTemplate', 'sendAllUnsentRows', 'continueJob', 'onHourlyTimer'],
    sizes: { full: [10000], quick: [200] },
    async run(ctx, count) {
      const rows = [['Name', 'E-mail', 'Company']];
      for (let i = 1; i <= count; i++) rows.push([`Person ${i}`, `person${i}@example.com`, `Company ${i}`]);
      const { emu, sheet } = await mailingListAddon(ctx, rows, 'Dear {{Name}}');
      emu.run(
        'saveTemplate',
        [
          {
            campaign: 'Bench',
            subject: 'Hello {{Name}}',
            body: 'Dear {{Name}}',
            bodyFormat: 'text',
            // Five steps: the ledger at its largest per person (the bench's figure for 10,000 × 5).
            followUps: [
              { afterDays: 1, body: 'Just checking in, {{Name}}.' },
              { afterDays: 2, body: 'Second note, {{Name}}.' },
              { afterDays: 3, body: 'Third note, {{Name}}.' },
              { afterDays: 4, body: 'Fourth note, {{Name}}.' },
              { afterDays: 5, body: 'Last note, {{Name}}.' },
            ],
          },
        ],
        { kind: 'webapp' },
      );
      runJob(emu, 'sendAllUnsentRows', 'send');
      // Past the delay, with no trigger run on the way: the next run finds the whole step due.
      emu.advanceTime(DAY + 5 * 60_000, { fireTriggers: false });
      const recordChars = userStoreChars(emu);
      const m = await new Measurement(ctx, emu).start();
      const runs = emu.fireDueTriggers();
      const chunks = Math.ceil(count / 100);
      const sequence = sheetRows(emu, sheet.getName()).map((r) => String(r.Sequence));
      const stepMails = sheetRows(emu, 'Outreach follow-ups').length;
      const row = await m.finish({
        minimum: { outreach: 2 * chunks + 1 },
        minimumFormula: `ceil(${count} previous mails / 100) status reads + 1 balance + ceil(${count} rows / 100) sends`,
        chunks,
        details: {
          triggerRuns: runs.length,
          runStatuses: runs.map((r) => r.status),
          stepMails,
          stepOneSent: sequence.filter((s) => s.startsWith('Step 1 of 5 sent')).length,
          // The payer's user properties (the outbox record and the rest) after the first send, and after the step.
          userPropertiesChars: { afterFirstSend: recordChars, afterStep: userStoreChars(emu) },
          clockTriggers: emu.triggers.filter((t) => t.eventType === 'CLOCK').length,
          alerts: alertsText(emu),
        },
      });
      if (stepMails !== count) ctx.note(`follow-up step ${count}: ${stepMails} step mails written`);
      return [{ variant: 'trigger', label: `${count} rows`, ...row }, await idleHour(ctx, emu, count)];
    },
  };
}

/**
 * What a running sequence costs the hourly run when nothing is due: the run after the step refreshes what it
 * sent (owed after any waiting or scheduled send); the one after it is measured. Minimum: no request.
 */
async function idleHour(ctx, emu, count) {
  const trigger = () => emu.triggers.find((t) => t.eventType === 'CLOCK');
  emu.advanceTime(3600_000 + 60_000); // the run that refreshes what the step sent
  ctx.services.clock.set(Math.max(ctx.services.clock.now(), trigger().nextRunMs));
  const m = await new Measurement(ctx, emu).start();
  const runs = emu.fireDueTriggers();
  const row = await m.finish({
    minimum: { outreach: 0 },
    minimumFormula: 'nothing due, nothing owed: no request',
    chunks: 1,
    details: { runStatuses: runs.map((r) => r.status), clockTriggers: emu.triggers.length },
  });
  return { variant: 'idle hour', label: `${count} rows`, ...row };
}

module.exports = { sequenceOperation };
