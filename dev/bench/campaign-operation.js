'use strict';
// Issue 46: a guarded campaign over its days. A list sent in a window (Monday–Friday 09:00–17:00 in the
// spreadsheet's zone) at an hourly limit, under a daily limit that ramps up, with the bounce guard on; the menu
// sends the first hour's mails on a Monday at 09:00 UTC, then the hourly trigger runs until the campaign is over.
// Two lists: one whose bounces stay under the threshold (it runs to its end), one whose later rows bounce at 25 %
// (it pauses, and nothing more goes). Minimum: 1 balance + ceil(each hour's mails / 100) sends + every mail read
// once by the refresh the next run owes before more go (trackingMinimum), each hour's mails as the limits allow
// them (plannedHours). See dev/bench/README.md.
const { Measurement } = require('./measure');
const { trackingMinimum } = require('./floors');
const { startOnMonday } = require('./timing-operation');
const { control, DEMO_KEYS } = require('../../test/support/harness');

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** Opens can still grow for 14 days after a send: the tasks of that age are read again with the new ones. */
const OPENS_DAYS = 14;
const WINDOW = { days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00', zone: 'spreadsheet' };
const WINDOW_HOURS = 8;
/** The service's default threshold, the one the campaign keeps. */
const BOUNCE_LIMIT = 5;
const GUARD_MIN_FINAL = 20;
const LIMITS = {
  full: { hourlyLimit: 300, dailyLimit: 500, dailyRamp: 20 },
  quick: { hourlyLimit: 30, dailyLimit: 60, dailyRamp: 50 },
};

function campaignOperations({ mailingListAddon, runJob, sheetRows }) {
  const operation = (id, name, spike) => ({
    id,
    name,
    unit: 'rows',
    requires: ['saveTemplate', 'sendAllUnsentRows', 'continueJob', 'onHourlyTimer'],
    sizes: { full: [10000], quick: [400] },
    run: (ctx, count) => runCampaign({ ctx, count, spike, mailingListAddon, runJob, sheetRows }),
  });
  return [
    operation('campaign', 'Guarded campaign', false),
    operation('campaign-spike', 'Guarded campaign, bounce spike', true),
  ];
}

async function runCampaign({ ctx, count, spike, mailingListAddon, runJob, sheetRows }) {
  const limits = count === 10000 ? LIMITS.full : LIMITS.quick;
  const planned = plannedHours(count, limits);
  // The spike: the rows from the third day on bounce at 25 % (2 % before, as in the other list).
  const spikeFrom = spike ? planned.filter((h) => h.day < 2).reduce((n, h) => n + h.mails, 0) : Infinity;
  const bounces = (i) => (i > spikeFrom ? i % 4 === 0 : i % 50 === 0);
  startOnMonday(ctx, 9);
  const rows = [['Name', 'E-mail', 'Company']];
  for (let i = 1; i <= count; i++)
    rows.push([`Person ${i}`, `${bounces(i) ? 'bounce.' : ''}person${i}@example.com`, `Company ${i}`]);
  const { emu, sheet } = await mailingListAddon(ctx, rows, 'Dear {{Name}}');
  const mail = { campaign: 'Bench', subject: 'Hello {{Name}}', body: 'Dear {{Name}}', bodyFormat: 'text' };
  emu.run('saveTemplate', [{ ...mail, sendWindow: WINDOW, ...limits }], { kind: 'webapp' });
  const goes = guardedHours(planned, bounces);
  const lastDay = planned[planned.length - 1].day;

  const m = await new Measurement(ctx, emu).start();
  runJob(emu, 'sendAllUnsentRows', 'send');
  const runs = hourlyRuns(ctx, emu, m.clockFrom + (lastDay + 2) * DAY);
  const days = triggerDays(emu, m.clockFrom);
  const sent = sheetRows(emu, sheet.getName()).filter((r) => typeof r['Mail ID'] === 'number').length;
  const posted = await postedMails(ctx, m.clockFrom);
  const chunks = goes.reduce((n, h) => n + Math.ceil(h.mails / 100), 0);
  const refreshes = hourRefreshes(goes);
  const statuses = new Set(sheetRows(emu, sheet.getName()).map((r) => String(r['Mail status'])));
  const row = await m.finish({
    minimum: { outreach: 1 + chunks + refreshes },
    minimumFormula: `1 balance + ${chunks} sends (ceil(each hour's mails / 100) over ${goes.length} hours: ${describePlan(goes, limits)}) + ${refreshes} for the refresh of each hour's mails in the next run (ceil(mails / 100) pages + 1 task request per 1,000 mails, the earlier tasks riding along for their opens)`,
    chunks,
    minExecutions: goes.length + 1,
    details: {
      limits,
      plannedPerDay: perDay(goes),
      postedPerDay: posted.perDay,
      postedPerHour: posted.perHour,
      sent,
      pausedRows: [...statuses].filter((s) => s.startsWith('Paused')),
      triggerRuns: runs.length,
      runStatuses: [...new Set(runs.map((r) => r.status))],
      triggerMinutesByDay: days.map((ms) => Math.round(ms / 600) / 100),
      summary: sendingCell(emu),
    },
    extra: { triggerMinutesPerDay: Math.max(0, ...days) / 60_000 },
  });
  const expected = goes.reduce((n, h) => n + h.mails, 0);
  if (sent !== expected)
    ctx.note(`${spike ? 'campaign-spike' : 'campaign'} ${count}: ${sent} rows sent, ${expected} planned`);
  return [{ variant: spike ? 'spike' : 'days', label: `${count} rows`, ...row }];
}

/**
 * The hours of mails the limits give, each { day, mails }: day 0 is the Monday of the menu's send; a weekday has
 * WINDOW_HOURS hours in the window (the menu's at 09:00, then the trigger's), each at most the hourly limit, the
 * day at most its cap (what the window cannot hold waits for the next day), the cap rising by the ramp each day (rounded up), weekend days included.
 */
function plannedHours(count, { hourlyLimit, dailyLimit, dailyRamp }) {
  const hours = [];
  let left = count;
  let cap = dailyLimit;
  for (let day = 0; left > 0; day++) {
    if (day % 7 < 5) {
      for (let today = Math.min(cap, left, WINDOW_HOURS * hourlyLimit); today > 0;) {
        const mails = Math.min(hourlyLimit, today);
        hours.push({ day, mails, first: count - left + 1 });
        today -= mails;
        left -= mails;
      }
    }
    if (dailyRamp) cap = Math.ceil(cap * (1 + dailyRamp / 100));
  }
  return hours;
}

/**
 * The planned hours that go under the bounce guard: each hour's mails are read before the next hour's go; once
 * GUARD_MIN_FINAL are read and more than BOUNCE_LIMIT % of them failed, nothing more goes.
 */
function guardedHours(planned, bounces) {
  let final = 0;
  let failed = 0;
  const goes = [];
  for (const hour of planned) {
    if (final >= GUARD_MIN_FINAL && failed * 100 > BOUNCE_LIMIT * final) break;
    goes.push(hour);
    final += hour.mails;
    for (let i = hour.first; i < hour.first + hour.mails; i++) if (bounces(i)) failed++;
  }
  return goes;
}

/** Requests of the refresh after each hour that posted: its mails, and the tasks of the last 14 days again. */
function hourRefreshes(goes) {
  let requests = 0;
  goes.forEach((hour, k) => {
    const tasks = Math.ceil(hour.mails / 100);
    const earlier = goes
      .slice(0, k)
      .filter((h) => hour.day - h.day < OPENS_DAYS)
      .reduce((n, h) => n + Math.ceil(h.mails / 100), 0);
    requests += trackingMinimum(tasks, hour.mails, earlier);
  });
  return requests;
}

/** The hourly trigger's runs, each at its time, until `until` or until the add-on has no trigger left. */
function hourlyRuns(ctx, emu, until) {
  const runs = [];
  for (;;) {
    const trigger = emu.triggers.find((t) => t.eventType === 'CLOCK');
    if (!trigger || trigger.nextRunMs > until) break;
    ctx.services.clock.set(Math.max(ctx.services.clock.now(), trigger.nextRunMs));
    runs.push(...emu.fireDueTriggers());
  }
  return runs;
}

/** The trigger executions' time on each day from `from` (ms a day). */
function triggerDays(emu, from) {
  const days = [];
  for (const x of emu.executions.filter((e) => e.kind === 'trigger' && e.startMs >= from)) {
    const day = Math.floor((x.startMs - from) / DAY);
    days[day] = (days[day] || 0) + (x.endMs - x.startMs);
  }
  return Array.from(days, (ms) => ms || 0);
}

/**
 * What the service took, from `from` (a control call, not the add-on's): mails per day, and each hour's mails and
 * tasks ([hours from `from`, mails, tasks]).
 */
async function postedMails(ctx, from) {
  const { mails } = await control(ctx.services.sandbox.outreachUrl, 'GET', `/mails?key=${DEMO_KEYS.paid}`);
  const days = [];
  const hours = new Map();
  for (const mail of mails) {
    const at = Date.parse(mail.createdAt) - from;
    const day = Math.floor(at / DAY);
    days[day] = (days[day] || 0) + 1;
    const hour = Math.floor(at / HOUR);
    if (!hours.has(hour)) hours.set(hour, { mails: 0, tasks: new Set() });
    hours.get(hour).mails++;
    hours.get(hour).tasks.add(mail.taskId);
  }
  return {
    perDay: Array.from(days, (n) => n || 0),
    perHour: [...hours].map(([hour, h]) => [hour, h.mails, h.tasks.size]),
  };
}

function perDay(hours) {
  const days = [];
  for (const h of hours) days[h.day] = (days[h.day] || 0) + h.mails;
  return Array.from(days, (n) => n || 0);
}

function describePlan(goes, { hourlyLimit, dailyLimit, dailyRamp }) {
  const days = perDay(goes).filter((n) => n > 0);
  return `${days.join(', ')} mails on the window's days (${dailyLimit} a day rising ${dailyRamp} %, at most ${hourlyLimit} an hour)`;
}

/** What the Tracking summary's Sending column says of the campaign. */
function sendingCell(emu) {
  const sheet = emu.spreadsheet.getSheetByName('Tracking summary');
  if (!sheet) return null;
  const values = sheet.getDataRange().getValues();
  const header = values.findIndex((r) => r.includes('Sending'));
  if (header < 0) return null;
  const column = values[header].indexOf('Sending');
  const campaign = values[header].indexOf('Campaign');
  const row = values.slice(header + 1).find((r) => r[campaign] === 'Bench');
  return row ? String(row[column]) : null;
}

module.exports = { campaignOperations, plannedHours };
