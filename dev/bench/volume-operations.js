'use strict';
// The bench rows at a real user's volume: a send over a filtered sheet, a refresh of a document that sent
// 100,000 mails, and a day of hourly auto-refresh runs on it. See dev/bench/README.md.
const { Measurement } = require('./measure');
const { trackingMinimum } = require('./floors');
const { addresses, postMails, appendRows } = require('./volume');

const LIST = 'Outreach';
/** Share of the mails of the large document that were final at its last refresh. */
const FINAL_SHARE = 0.9;

/** Operations share these with operations.js (passed in to keep one definition). */
function volumeOperations({ freshAddon, mailingListAddon, runJob, sheetRows, alertsText }) {
  const sendFiltered = {
    id: 'send-filter',
    name: 'Send e-mails (filter hides half)',
    unit: 'rows',
    requires: ['saveTemplate', 'sendAllUnsentRows', 'continueJob'],
    sizes: { full: [10000], quick: [200] },
    async run(ctx, count) {
      const rows = [['Name', 'E-mail', 'Company', 'Region']];
      for (let i = 1; i <= count; i++) {
        rows.push([`Person ${i}`, `person${i}@example.com`, `Company ${i % 9}`, i % 2 ? 'North' : 'South']);
      }
      const { emu, sheet } = await mailingListAddon(ctx, rows, 'Dear {{Name}}');
      const criteria = emu.services.SpreadsheetApp.newFilterCriteria().setHiddenValues(['South']).build();
      sheet
        .getRange(1, 1, count + 1, 4)
        .createFilter()
        .setColumnFilterCriteria(4, criteria);
      const visible = Math.ceil(count / 2);
      const chunks = Math.ceil(visible / 100);
      const m = await new Measurement(ctx, emu).start();
      const run = runJob(emu, 'sendAllUnsentRows', 'send');
      const statuses = sheetRows(emu, sheet.getName()).map((r) => r['Mail status']);
      const accepted = statuses.filter((s) => s === 'Accepted').length;
      const row = await m.finish({
        minimum: { outreach: 1 + chunks },
        minimumFormula: `1 balance + ceil(${visible} visible rows / 100 per send)`,
        chunks,
        details: {
          progressSteps: run.steps,
          accepted,
          isRowHiddenByFilterCalls: emu.callCount('Sheet.isRowHiddenByFilter'),
          alerts: alertsText(emu),
        },
      });
      if (accepted !== visible)
        ctx.note(`send over a filter, ${count} rows: ${accepted} accepted, ${visible} visible`);
      return [{ variant: 'run', label: `${count} rows`, ...row }];
    },
  };

  const trackingLarge = {
    id: 'tracking-large',
    name: 'Tracking refresh',
    unit: 'mails',
    requires: ['refreshTracking', 'continueJob', 'toggleAutoRefresh'],
    sizes: { full: [100000], quick: [1000] },
    async run(ctx, count) {
      const emu = await freshAddon(ctx);
      const known = Math.round(count * FINAL_SHARE);
      appendRows(emu, LIST, await postMails(ctx.services, emu, addresses(0, known)));
      runJob(emu, 'refreshTracking', 'tracking'); // the last refresh: every mail it read is final
      const trackedBefore = sheetRows(emu, 'Tracking').length;
      // Sent since the last refresh: not final then (the sandbox delivers within 10 s, so they are new).
      const fresh = count - known;
      appendRows(emu, LIST, await postMails(ctx.services, emu, addresses(known, fresh)));

      const m = await new Measurement(ctx, emu).start();
      const { progress, steps } = runJob(emu, 'refreshTracking', 'tracking');
      const freshTasks = Math.ceil(fresh / 100);
      const knownTasks = Math.ceil(known / 100); // final, sent in the last 14 days: their opens can still grow
      const refresh = await m.finish({
        minimum: { outreach: trackingMinimum(freshTasks, fresh, knownTasks) },
        minimumFormula: `only what can still change: ceil((${freshTasks} tasks + ${knownTasks} tasks read for their opens) / 100) + ceil(${fresh} mails / 100) pages; the ${known} final mails are not read again`,
        chunks: Math.ceil(fresh / 1000),
        details: {
          progressSteps: steps,
          progress,
          trackedBefore,
          trackingRows: sheetRows(emu, 'Tracking').length,
          alerts: alertsText(emu),
        },
      });
      if (refresh.details.trackingRows !== count) {
        ctx.note(`tracking ${count}: ${refresh.details.trackingRows} rows on Tracking`);
      }
      const day = await autoRefreshDay(ctx, emu, count);
      return [
        { variant: '90% final', label: `${count} mails`, ...refresh },
        { variant: 'auto, 1 day', label: `${count} mails`, ...day },
      ];
    },
  };

  return [sendFiltered, trackingLarge];
}

/**
 * A day of the hourly trigger on the large document: each hour 1 % of the document's size more mails are
 * sent (a tenth of them bounce) and the trigger fires. The add-on turns auto-refresh off when every mail is
 * final (the sandbox delivers within 10 s); the user's next send turns it back on here (counted).
 */
/** As the user does: the menu item asks whether to turn it on (it is off), Yes. */
function turnAutoRefreshOn(emu) {
  emu.ui.queue('YES');
  emu.run('toggleAutoRefresh', [], { kind: 'menu' });
}

async function autoRefreshDay(ctx, emu, count) {
  const perHour = Math.max(100, Math.round(count / 100));
  turnAutoRefreshOn(emu);
  const m = await new Measurement(ctx, emu).start();
  const runs = [];
  let turnedOnAgain = 0;
  let next = count;
  for (let hour = 0; hour < 24; hour++) {
    appendRows(emu, LIST, await postMails(ctx.services, emu, addresses(next, perHour)));
    next += perHour;
    if (!hourlyTrigger(emu)) {
      turnAutoRefreshOn(emu);
      turnedOnAgain++;
    }
    const trigger = hourlyTrigger(emu);
    if (!trigger) throw new Error('auto-refresh is on but no time-driven trigger exists');
    ctx.services.clock.set(Math.max(ctx.services.clock.now(), trigger.nextRunMs));
    runs.push(...emu.fireDueTriggers());
  }
  const triggerExecutions = emu.executions.filter((x) => x.kind === 'trigger' && x.startMs >= m.clockFrom);
  const triggerMs = triggerExecutions.reduce((sum, x) => sum + (x.endMs - x.startMs), 0);
  const tasksPerHour = Math.ceil(perHour / 100);
  // Each run also reads again, for their opens, the tasks already final (all sent within 14 days).
  const tasksBefore = (hour) => Math.ceil(count / 100) + hour * tasksPerHour;
  let minimum = 0;
  for (let hour = 0; hour < 24; hour++) minimum += trackingMinimum(tasksPerHour, perHour, tasksBefore(hour));
  const row = await m.finish({
    minimum: { outreach: minimum },
    minimumFormula: `24 runs × (ceil((${tasksPerHour} new tasks + the tasks sent before, read for their opens) / 100) + ceil(${perHour} new mails / 100)): each run reads only what can change`,
    chunks: 24,
    minExecutions: 24,
    details: {
      mailsPerHour: perHour,
      triggerRuns: runs.length,
      handler: runs.length ? runs[0].handler : null,
      runStatuses: runs.map((r) => r.status),
      longestRunMs: triggerExecutions.reduce((mx, x) => Math.max(mx, x.endMs - x.startMs), 0),
      turnedOnAgain,
      trackingRows: null,
    },
    extra: { modeledMs: triggerMs, triggerMinutesPerDay: triggerMs / 60_000 },
  });
  return row;
}

/** The add-on's one time-driven trigger (whatever its handler is called). */
function hourlyTrigger(emu) {
  return emu.triggers.find((t) => t.eventType === 'CLOCK');
}

module.exports = { volumeOperations };
