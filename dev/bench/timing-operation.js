'use strict';
// Issue 37: a 10,000-row send with a send window in each recipient's time zone (four countries: a quarter
// each in New York, Berlin, Tokyo and Sydney), started on a Monday at 09:00 UTC from the menu; the hourly
// trigger posts each zone's rows in the first hour its window is open. Measured from the menu send to the end
// of the day's trigger runs. Minimum: 1 balance + ceil(rows of each zone / 100) sends, and every mail read once
// by the refreshes the hourly runs owe after each waiting or scheduled send (trackingMinimum each). See dev/bench/README.md.
const { Measurement } = require('./measure');
const { trackingMinimum } = require('./floors');
const { control, DEMO_KEYS } = require('../../test/support/harness');

const ZONES = ['US', 'DE', 'JP', 'AU'];

function timingOperation({ mailingListAddon, runJob, sheetRows, alertsText }) {
  return {
    id: 'send-zones',
    name: 'Send in the recipients’ time zones',
    unit: 'rows',
    requires: ['saveTemplate', 'sendAllUnsentRows', 'continueJob', 'onHourlyTimer'],
    sizes: { full: [10000], quick: [400] },
    async run(ctx, count) {
      startOnMonday(ctx, 9); // 04:00 in New York, 10:00 in Berlin, 18:00 in Tokyo, 20:00 in Sydney
      const rows = [['Name', 'E-mail', 'Company', 'Country']];
      for (let i = 1; i <= count; i++)
        rows.push([`Person ${i}`, `person${i}@example.com`, `Company ${i}`, ZONES[i % ZONES.length]]);
      const { emu, sheet } = await mailingListAddon(ctx, rows, 'Dear {{Name}}');
      const template = {
        campaign: 'Bench',
        subject: 'Hello {{Name}}',
        body: 'Dear {{Name}}',
        bodyFormat: 'text',
      };
      const sendWindow = { days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00', zone: 'recipient' };
      emu.run('saveTemplate', [{ ...template, sendWindow }], { kind: 'webapp' });
      const m = await new Measurement(ctx, emu).start();
      runJob(emu, 'sendAllUnsentRows', 'send');
      const afterMenu = accepted(sheetRows(emu, sheet.getName()));
      const { runs, triggerExecutions, triggerMs } = triggerDay(ctx, emu, m.clockFrom);
      const sent = accepted(sheetRows(emu, sheet.getName()));
      const perZone = Math.ceil(count / ZONES.length / 100);
      const timed = ZONES.length - 1; // Berlin's rows go from the menu; the three others from the trigger
      const refreshes = zoneRefreshes(count / ZONES.length);
      const row = await m.finish({
        minimum: { outreach: 1 + ZONES.length * perZone + refreshes.requests },
        minimumFormula: `1 balance + ${ZONES.length} zones × ceil(${count / ZONES.length} rows / 100) sends + ${refreshes.formula}`,
        chunks: ZONES.length * perZone,
        minExecutions: 1 + timed,
        details: {
          sentFromMenu: afterMenu,
          sent,
          triggerRuns: runs.length,
          runStatuses: [...new Set(runs.map((r) => r.status))],
          longestRunMs: triggerExecutions.reduce((mx, x) => Math.max(mx, x.endMs - x.startMs), 0),
          alerts: alertsText(emu),
        },
        extra: { triggerMinutesPerDay: triggerMs / 60_000 },
      });
      if (sent !== count) ctx.note(`send-zones ${count}: ${sent} rows accepted`);
      return [{ variant: 'day', label: `${count} rows`, ...row }];
    },
  };
}

const accepted = (rows) => rows.filter((r) => typeof r['Mail ID'] === 'number').length;

/**
 * The refreshes of the zones' mails: the run after each send that posted reads what it sent before anything more
 * goes (the bounce guard counts their failures first): Berlin's from the menu at 10:00, New York's at 15:00,
 * Tokyo's at 23:00, Sydney's at 01:00, each in chunks of 1,000 mails with their tasks asked first
 * (trackingMinimum), the tasks read before asked again for their opens.
 */
function zoneRefreshes(perZone) {
  const groups = [perZone, perZone, perZone, perZone];
  let tasksBefore = 0;
  let requests = 0;
  for (const mails of groups) {
    const tasks = Math.ceil(mails / 100);
    requests += trackingMinimum(tasks, mails, tasksBefore);
    tasksBefore += tasks;
  }
  const formula = `${groups.length} refreshes of ${groups.join(', ')} mails (each ceil(mails / 100) pages + 1 task request per 1,000 mails, the earlier tasks riding along for their opens)`;
  return { requests, formula };
}

/** The virtual clock moved on to the next Monday at `hour`:00 UTC. */
function startOnMonday(ctx, hour) {
  const day = new Date(ctx.services.clock.now());
  const ahead = ((8 - day.getUTCDay()) % 7) + 7;
  ctx.services.clock.set(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + ahead, hour));
}

/**
 * A subject test over a large list: 2 subjects on 20 % of the rows, decided after 4 hours, the winner sent to
 * the rest by the hourly trigger. Measured from the menu send until every row is sent (a day of trigger runs).
 * Minimum: 1 balance + each subject's rows in its own chunks + 1 read of the test's task counts + the rest in
 * chunks of 100, and every mail read once by the refresh after the winner's send (trackingMinimum).
 */
function subjectTestOperation({ mailingListAddon, runJob, sheetRows, alertsText }) {
  return {
    id: 'subject-test',
    name: 'Subject test',
    unit: 'rows',
    requires: ['saveTemplate', 'sendAllUnsentRows', 'continueJob', 'onHourlyTimer'],
    sizes: { full: [10000], quick: [400] },
    async run(ctx, count) {
      startOnMonday(ctx, 9);
      const rows = [['Name', 'E-mail', 'Company']];
      // One in three opens its mail (the sandbox opens a mail to an address with "open" in it).
      for (let i = 1; i <= count; i++)
        rows.push([`Person ${i}`, `${i % 3 ? 'person' : 'open'}${i}@example.com`, `Company ${i}`]);
      const { emu, sheet } = await mailingListAddon(ctx, rows, 'Dear {{Name}}');
      const template = {
        campaign: 'Bench',
        subject: 'Hello {{Name}}',
        body: 'Dear {{Name}}',
        bodyFormat: 'text',
      };
      const test = {
        subjectVariants: ['Hello {{Name}}', 'A question, {{Name}}'],
        subjectTest: { share: 20, decideAfterHours: 4 },
      };
      emu.run('saveTemplate', [{ ...template, ...test }], { kind: 'webapp' });
      const m = await new Measurement(ctx, emu).start();
      runJob(emu, 'sendAllUnsentRows', 'send');
      const inTest = accepted(sheetRows(emu, sheet.getName()));
      // Each subject's rows in chunks of their own: the test's chunks, from what the service took (a control call).
      const { mails } = await control(
        ctx.services.sandbox.outreachUrl,
        'GET',
        `/mails?key=${DEMO_KEYS.paid}`,
      );
      const hello = mails.filter((mail) => mail.subject.startsWith('Hello')).length;
      const { runs, triggerMs } = triggerDay(ctx, emu, m.clockFrom);
      const sent = accepted(sheetRows(emu, sheet.getName()));
      const testChunks = Math.ceil(hello / 100) + Math.ceil((inTest - hello) / 100);
      const restChunks = Math.ceil((count - inTest) / 100);
      const summary = emu.spreadsheet.getSheetByName('Tracking summary');
      const timed = summary
        ? summary
            .getDataRange()
            .getValues()
            .find((r) => r[0] === 'Waiting and scheduled sends')
        : null;
      // The test's mails are refreshed by the run after the menu's send (the bounce guard counts them before more
      // go), the rest by the run after the winner's send, the test's tasks riding along for their opens.
      const refresh =
        trackingMinimum(testChunks, inTest) + trackingMinimum(restChunks, count - inTest, testChunks);
      const row = await m.finish({
        minimum: { outreach: 1 + testChunks + 1 + restChunks + refresh },
        minimumFormula: `1 balance + ${testChunks} test chunks (one subject each) + 1 read of the test's tasks + ceil(${count - inTest} rows / 100) for the rest + the refresh of the test's ${inTest} mails after the menu's send and of the other ${count - inTest} after the winner's: ceil(mails / 100) mail pages + 1 task request per 1,000 mails each`,
        chunks: testChunks + restChunks,
        minExecutions: 2,
        details: {
          inTest,
          sent,
          triggerRuns: runs.length,
          runStatuses: [...new Set(runs.map((r) => r.status))],
          summary: timed ? String(timed[1]).match(/Subject test[^.]*\./)?.[0] : null,
          alerts: alertsText(emu),
        },
        extra: { triggerMinutesPerDay: triggerMs / 60_000 },
      });
      if (sent !== count) ctx.note(`subject-test ${count}: ${sent} rows accepted`);
      return [{ variant: 'day', label: `${count} rows`, ...row }];
    },
  };
}

/** A day of the hourly trigger (each run at its time, until none is left); its executions and their time. */
function triggerDay(ctx, emu, clockFrom) {
  const runs = [];
  for (let hour = 0; hour < 24; hour++) {
    const trigger = emu.triggers.find((t) => t.eventType === 'CLOCK');
    if (!trigger) break;
    ctx.services.clock.set(Math.max(ctx.services.clock.now(), trigger.nextRunMs));
    runs.push(...emu.fireDueTriggers());
  }
  const triggerExecutions = emu.executions.filter((x) => x.kind === 'trigger' && x.startMs >= clockFrom);
  const triggerMs = triggerExecutions.reduce((sum, x) => sum + (x.endMs - x.startMs), 0);
  return { runs, triggerExecutions, triggerMs };
}

module.exports = { timingOperation, subjectTestOperation, startOnMonday };
