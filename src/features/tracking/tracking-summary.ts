// The "Tracking summary" sheet: a status block (last refresh, its result, the last error, the auto-refresh
// switch and its last run: what a trigger could not say in a dialog), the mails per status with a pie chart
// of them (one chart, updated on each refresh, never a second one), and one row per task from row 8 (written
// by the refresh as it reads the tasks).
import { autoRefresh, lastRefreshOutcome, saveSettledTasks } from './tracking-store';
import { cellText, textCell } from '../../sheets/cells';
import { TRACKING, TRACKING_SUMMARY } from '../../sheets/layouts';
import { Table } from '../../sheets/table';
import { lastRun } from '../jobs/reporters';
import type { TrackingData } from './tracking-data';
import { MAIL_STATE } from './tracking-rows';
import { TASK_STATUSES } from '../../api/outreach/email-schemas';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** Where the mails-per-status block is: the chart's data. */
const COUNTS_A1 = 'D1:E5';
/** The chart's top-left cell: row 1, right of the task table. */
const CHART_ROW = 1;
const CHART_COLUMN = 11;

export interface MailCounts {
  waiting: number;
  sent: number;
  delivered: number;
  failed: number;
}

/**
 * Counts the mails of the tracked tasks on the Tracking sheet, writes the counts and the chart, and keeps
 * the tasks whose mails are all final (not read again next time). Returns whether everything is final.
 */
export function writeMailCounts(spreadsheet: Spreadsheet, data: TrackingData): { allFinal: boolean } {
  const counts: MailCounts = { waiting: 0, sent: 0, delivered: 0, failed: 0 };
  const perTask = new Map<string, { rows: number; final: number }>();
  const table = Table.find(spreadsheet, TRACKING);
  for (const row of table ? table.readAll() : []) {
    const taskId = cellText(row.values.taskId);
    if (!data.tasks[taskId]) continue;
    const state = cellText(row.values.mailStatus);
    const final = state === MAIL_STATE.delivered || state === MAIL_STATE.failed;
    if (state === MAIL_STATE.delivered) counts.delivered++;
    else if (state === MAIL_STATE.failed) counts.failed++;
    else if (state === MAIL_STATE.sent) counts.sent++;
    else counts.waiting++;
    const entry = perTask.get(taskId) || { rows: 0, final: 0 };
    entry.rows++;
    if (final) entry.final++;
    perTask.set(taskId, entry);
  }
  const settled: Record<string, number> = {};
  for (const [taskId, [, status, total]] of Object.entries(data.tasks)) {
    const entry = perTask.get(taskId);
    const taskFinal = ['completed', 'partial', 'failed'].includes(TASK_STATUSES[status]);
    if (taskFinal && entry && entry.rows === total && entry.final === total) settled[taskId] = total;
  }
  saveSettledTasks(settled);
  writeCountsAndChart(spreadsheet, counts);
  return { allFinal: Object.keys(settled).length === Object.keys(data.tasks).length };
}

function writeCountsAndChart(spreadsheet: Spreadsheet, counts: MailCounts): void {
  const sheet = Table.open(spreadsheet, TRACKING_SUMMARY).sheet;
  const range = sheet.getRange(COUNTS_A1);
  range.setValues([
    ['Mail status', 'Mails'],
    ['Waiting to be sent', counts.waiting],
    ['Sent (delivery not confirmed yet)', counts.sent],
    ['Delivered (confirmed)', counts.delivered],
    ['Failed', counts.failed],
  ]);
  const total = counts.waiting + counts.sent + counts.delivered + counts.failed;
  const existing = sheet
    .getCharts()
    .find((chart) => chart.getRanges().some((r) => r.getA1Notation() === COUNTS_A1));
  const chart = (existing ? existing.modify() : sheet.newChart())
    .setChartType(Charts.ChartType.PIE)
    .clearRanges()
    .addRange(range)
    .setPosition(CHART_ROW, CHART_COLUMN, 0, 0)
    .setOption('title', `Mails by status (${total})`)
    .build();
  if (existing) sheet.updateChart(chart);
  else sheet.insertChart(chart);
}

/** The status block (A1:B6): last refresh, result, last error, auto-refresh and its last run. */
export function writeStatusBlock(spreadsheet: Spreadsheet): void {
  const zone = spreadsheet.getSpreadsheetTimeZone();
  const time = (ms: number) => Utilities.formatDate(new Date(ms), zone, 'yyyy-MM-dd HH:mm');
  const outcome = lastRefreshOutcome();
  const auto = autoRefresh();
  const run = lastRun('tracking');
  const lastError = (run && run.error) || (outcome && outcome.error) || '';
  let autoText = 'Off (Extensions › Outreach › Auto-refresh tracking: on / off).';
  if (auto && auto.on) {
    autoText = `On since ${time(auto.since)}: about every hour; it turns itself off when every mail is final, after 30 days, or if the API key is refused.`;
  } else if (auto && auto.offAt) autoText = `Off since ${time(auto.offAt)}: ${auto.offReason || ''}`;
  const rows = [
    ['Tracking', ''],
    [
      'Last refresh',
      outcome
        ? `${time(outcome.at)} (${outcome.origin === 'timer' ? 'automatic' : 'from the menu'})`
        : 'never',
    ],
    ['Result', outcome ? outcome.message : ''],
    ['Last error', lastError],
    ['Auto-refresh', autoText],
    [
      'Last automatic run',
      run
        ? `${time(run.at)}: ${[run.message, run.error].filter((t, i, all) => t && all.indexOf(t) === i).join(' ')}`
        : 'none yet',
    ],
  ];
  const sheet = Table.open(spreadsheet, TRACKING_SUMMARY).sheet;
  sheet.getRange(1, 1, rows.length, 2).setValues(rows.map(([label, value]) => [label, textCell(value)]));
}
