// Campaign health on the Tracking summary (issue 46 item 3): whether each campaign is paused or still sending and
// about when its last mail goes (from the document's records of what runs: saved sends, sequences, schedules, and
// the mail's timing), and the delivered / failed / opened mails per day of the last 30 days, as a table and a chart
// on the sheet beside the summary. Views only: what is sent is decided by the ledger (outbox/).
import { cellText, type CellValue, TRACKING_SUMMARY, parseState, stateText } from '../../sheets';
import { OPENED_TEXTS } from './tracking-rows';
import { loadJob, otherJobs } from '../jobs';
import { DAY_MS, HOUR_MS } from '../../platform';
import {
  guardViews,
  pauseDetail,
  dayRoom,
  nextDay,
  Ledger,
  loadTemplate,
  type StoredTemplate,
  allSchedules,
  allSequences,
} from '../outbox';

/** The days the chart shows, today included. */
const DAYS = 30;
/** The sheet of the per-day table and chart. */
const TRACKING_PER_DAY = 'Tracking per day';
type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

const CHART_COLOURS = ['#43a047', '#e53935', '#1e88e5'];

export interface DayCounts {
  delivered: number;
  failed: number;
  opened: number;
}

/** A Tracking row counted on its day (UTC): delivered, failed, and opened where the mail's own open is known. */
export function countDay(days: Map<number, DayCounts>, values: Record<string, unknown>): void {
  const state = parseState(values.mailStatus);
  const at = values.sentAt instanceof Date ? values.sentAt : values.refreshedAt;
  if (!(at instanceof Date) || (state.kind !== 'delivered' && state.kind !== 'failed')) return;
  const day = Math.floor(at.getTime() / DAY_MS);
  const counts = days.get(day) || { delivered: 0, failed: 0, opened: 0 };
  counts[state.kind]++;
  if (cellText(values.opened) === OPENED_TEXTS.yes) counts.opened++;
  days.set(day, counts);
}

/**
 * The per-day table (the last 30 days, oldest first) and its chart, on a sheet of their own beside the summary
 * (the summary's campaign table reads to its last row and column: nothing more goes there).
 */
export function writeDailyChart(
  spreadsheet: Spreadsheet,
  days: Map<number, DayCounts>,
  now = Date.now(),
): void {
  const today = Math.floor(now / DAY_MS);
  const grid: CellValue[][] = [['Day (UTC)', 'Delivered', 'Failed', 'Opened']];
  for (let day = today - DAYS + 1; day <= today; day++) {
    const c = days.get(day) || { delivered: 0, failed: 0, opened: 0 };
    grid.push([new Date(day * DAY_MS), c.delivered, c.failed, c.opened]);
  }
  const existing = spreadsheet.getSheetByName(TRACKING_PER_DAY);
  const sheet = existing || newSheet(spreadsheet);
  const range = sheet.getRange(1, 1, grid.length, grid[0].length);
  range.setValues(grid);
  sheet.getRange(2, 1, grid.length - 1, 1).setNumberFormat('yyyy-mm-dd'); // days in UTC
  const chart = existing && existing.getCharts()[0];
  const built = (chart ? chart.modify() : sheet.newChart())
    .setChartType(Charts.ChartType.COLUMN)
    .clearRanges()
    .addRange(range)
    .setNumHeaders(1)
    .setPosition(1, grid[0].length + 2, 0, 0)
    .setOption('colors', CHART_COLOURS)
    .setOption('legend', { position: 'top' })
    .setOption('width', 640)
    .setOption('title', `Delivered, failed and opened mails per day, the last ${DAYS} days (UTC)`)
    .build();
  if (chart) sheet.updateChart(built);
  else sheet.insertChart(built);
}

/** The per-day sheet, made right of the summary, the user's selection kept (insertSheet activates it). */
function newSheet(spreadsheet: Spreadsheet): GoogleAppsScript.Spreadsheet.Sheet {
  const selection = spreadsheet.getActiveRangeList();
  const summary = spreadsheet.getSheetByName(TRACKING_SUMMARY.sheetName);
  const at = summary ? summary.getIndex() : spreadsheet.getSheets().length;
  const sheet = spreadsheet.insertSheet(TRACKING_PER_DAY, at);
  if (selection) selection.activate();
  return sheet;
}

/** What runs of a list: its rows still to post (a saved send, a schedule) and whether steps are to come. */
interface Running {
  rows: number;
  steps: boolean;
  /** When its posts start (a schedule's time; else now). */
  from: number;
}

/**
 * The Sending column's text for each campaign: "Paused: bounce rate …", "Sending: the last mail about
 * 2026-12-09" (its steps are campaigns of their own, "<campaign> · follow-up N"), or '' when nothing of it runs.
 */
export function sendingOf(zone: string, now = Date.now()): (name: string) => string {
  const paused = guardViews().filter((view) => view.paused);
  const running = runningLists();
  const byCampaign = new Map<string, string>();
  for (const [sheetId, run] of running) {
    const template = loadTemplate(sheetId);
    if (!template) continue;
    const last = lastMailAt(sheetId, template, run, now);
    byCampaign.set(
      template.campaign,
      `Sending: the last mail about ${Utilities.formatDate(new Date(last), zone, 'yyyy-MM-dd')}`,
    );
  }
  return (name) => {
    const of = (campaign: string) => name === campaign || name.startsWith(`${campaign} · follow-up`);
    const view = paused.find((v) => of(v.campaign));
    if (view) return stateText({ kind: 'waiting', code: 'bounce', detail: pauseDetail(view) });
    const sending = [...byCampaign].find(([campaign]) => of(campaign));
    return sending ? sending[1] : '';
  };
}

/** The lists with rows to post or steps to come, from the document's records (every editor's). */
function runningLists(): Map<number, Running> {
  const all = PropertiesService.getDocumentProperties().getProperties();
  const lists = new Map<number, Running>();
  const add = (sheetId: number, rows: number, steps: boolean, from = 0) => {
    const known = lists.get(sheetId) || { rows: 0, steps: false, from: 0 };
    lists.set(sheetId, {
      rows: known.rows + rows,
      steps: known.steps || steps,
      from: Math.max(known.from, from),
    });
  };
  type SavedSend = { units: Array<{ n: number }>; status?: { is: string }; data: { sheetId: number } };
  const sends = [loadJob<SavedSend>('send', all), ...otherJobs<SavedSend>('send', all)];
  for (const job of sends)
    if (job && job.units.length && (!job.status || job.status.is !== 'stopped'))
      add(
        job.data.sheetId,
        job.units.reduce((n, u) => n + u.n, 0),
        false,
      );
  for (const schedule of allSchedules()) add(schedule.sheetId, schedule.rows || 0, false, schedule.at);
  for (const sequence of allSequences(all))
    if (!sequence.state || sequence.state.rowsLeft > 0) add(sequence.sheetId, 0, true);
  return lists;
}

/**
 * About when a list's last mail goes: its rows left at its daily limit (and ramp: today's room and cap from the
 * ledger when the refresh is theirs, else a first day) or hourly limit, then its steps' delays.
 */
function lastMailAt(sheetId: number, template: StoredTemplate, run: Running, now: number): number {
  const timing = template.timing || {};
  let at = Math.max(now, run.from);
  if (timing.dailyLimit) {
    const list = Ledger.read().list(sheetId);
    const known =
      list && list.guard && list.guard.daily ? { room: dayRoom(list, at), ...nextDay(list, at) } : null;
    let cap = known ? known.cap : timing.dailyLimit;
    for (let left = run.rows - (known ? known.room : cap); left > 0; left -= cap) {
      if (timing.dailyRamp) cap = Math.ceil(cap * (1 + timing.dailyRamp / 100));
      at += DAY_MS;
    }
  } else if (timing.hourlyLimit) at += Math.max(0, Math.ceil(run.rows / timing.hourlyLimit) - 1) * HOUR_MS;
  if (run.steps || template.followUps)
    at += (template.followUps || []).reduce((d, s) => d + s.afterDays, 0) * DAY_MS;
  return at;
}
