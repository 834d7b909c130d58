// The "Tracking summary" sheet: a status block (last refresh, its result, the last error, the auto-refresh
// switch and its last run: what a trigger could not say in a dialog), the mails per status, and one row per
// campaign from row 9 with its rates first (delivered %, failed %, opened %: per mail where each task holds one
// mail, per task where the service counts a task's opens only, said in "Opens counted"), and below the table a
// bar per campaign of the shares of its mails waiting, sent, delivered and failed (100 % each: a campaign of
// 50 mails reads like one of 7,000); one chart, moved below the last campaign on each refresh, never a second.
// Every count comes from every mail on the Tracking sheet, not from what one refresh read: a refresh with
// another key, or one that reads nothing, leaves them as they are. Rows that are not a mail of this document
// (ids an editor typed: never read) are not counted.
import {
  addressKey,
  cellText,
  CellValue,
  textCell,
  SUMMARY_ANSWER_COLUMNS,
  TRACKING_SUMMARY,
  Table,
  isFinal,
  MailState,
  parseState,
} from '../../sheets';
import { lastRefreshOutcome, type RefreshOutcome } from './tracking-store';
import { hourlyStatus } from './hourly-status';
import { lastRun } from '../jobs';
import { type OpensRow, tasksWithOpensToCome } from './tracking-opens';
import { countDay, type DayCounts, sendingOf, writeDailyChart } from './tracking-health';
import { whenText, spreadsheetZone } from '../words';
import { formatCount } from '../../platform';
import { type AnswerCode } from '../outbox';
import { replyDetectionLine, INBOX_TEXTS, replyDetection, type ReplyDetectionView } from '../inbox';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** Where the mails-per-status block is. */
const COUNTS_A1 = 'D1:E6';
/** Reply detection's line (a build with Gmail only). */
const REPLIES_A1 = 'D7:E7';
/** The chart's series: the campaign rows' Waiting, Sent, Delivered and Failed columns, in colours. */
const CHART_SERIES = { first: 'waiting', last: 'failed' };
const CHART_COLOURS = ['#9e9e9e', '#fbc02d', '#43a047', '#e53935'];
/**
 * The chart's size in pixels: title, legend (above the bars: the part a short window must not cut) and axis,
 * then a bar per campaign; four campaigns still fit below the table in a 768 px laptop window.
 */
const CHART_SIZE = { width: 640, frame: 100, bar: 24, maxHeight: 520 };
/** Widths a new summary gets: campaign names and the status labels (A), the status texts, wrapped (B), Reply % (F). */
const COLUMN_WIDTHS = { A: 200, B: 340, D: 220, F: 190 };

interface MailCounts {
  waiting: number;
  sent: number;
  delivered: number;
  failed: number;
  otherKey: number;
}

interface CampaignRow extends MailCounts {
  tasks: Set<string>;
  mails: number;
  /** Task id → its opens (the task's openedCount, the same on each of its rows). */
  opens: Map<string, number>;
  /** Task id → its mails on Tracking (a task of one mail counts its opens per mail). */
  taskMails: Map<string, number>;
  firstSent?: Date;
  lastSent?: Date;
  /** Recipient → the latest answer read in Gmail ('' none): each person counted once. */
  people: Map<string, AnswerCode | ''>;
}

/** The answer read in Gmail from a recipient (features/inbox), if any. */
type AnswerOf = (recipient: string) => AnswerCode | undefined;

const emptyCounts = (): MailCounts => ({ waiting: 0, sent: 0, delivered: 0, failed: 0, otherKey: 0 });

function countOf(state: MailState): keyof MailCounts {
  const kind = state.kind;
  return kind === 'delivered' || kind === 'failed' || kind === 'sent' || kind === 'otherKey'
    ? kind
    : 'waiting';
}

/** This summary's chart: its first range is the campaign names (A8:A…). */
const CHART_RANGE = /^A8:A\d+$/;

/** The summary sheet as read before a refresh's writes: where its rows end, its chart, the time zone. */
export interface SummaryRead {
  sheet: GoogleAppsScript.Spreadsheet.Sheet;
  created: boolean;
  lastRow: number;
  chart: GoogleAppsScript.Spreadsheet.EmbeddedChart | null;
  zone: string;
}

/** What the counts need of the summary sheet, read before anything is written (a read after writes flushes). */
export function readSummary(
  spreadsheet: Spreadsheet,
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  created: boolean,
): SummaryRead {
  const chart = created
    ? null
    : sheet.getCharts().find((c) => c.getRanges().some((r) => CHART_RANGE.test(r.getA1Notation()))) || null;
  const lastRow = created ? 0 : sheet.getLastRow();
  return { sheet, created, lastRow, chart, zone: spreadsheetZone(spreadsheet) };
}

/** The mails per status and per campaign of these Tracking rows (every row of the sheet). */
interface MailSummary {
  counts: MailCounts;
  campaigns: Map<string, CampaignRow>;
  /** Every mail is final and no open can still be counted (14 days after a send): nothing will change. */
  allFinal: boolean;
  /** Delivered, failed and opened mails per day (UTC day number). */
  days: Map<number, DayCounts>;
}

export function summarize(rows: Iterable<Record<string, unknown>>, answerOf?: AnswerOf): MailSummary {
  const counts = emptyCounts();
  const campaigns = new Map<string, CampaignRow>();
  let allFinal = true;
  const counted: OpensRow[] = [];
  const days = new Map<number, DayCounts>();
  for (const values of rows) {
    if (cellText(values.mailId) === '') continue;
    const state = parseState(values.mailStatus);
    counted.push({ state, taskId: values.taskId, taskOpens: values.taskOpens, sentAt: values.sentAt });
    if (state.kind === 'notThisDocument') continue;
    if (!isFinal(state)) allFinal = false;
    counts[countOf(state)]++;
    addToCampaign(campaigns, values, countOf(state), answerOf);
    countDay(days, values);
  }
  if (allFinal && tasksWithOpensToCome(counted).size > 0) allFinal = false;
  return { counts, campaigns, allFinal, days };
}

/** Writes the counts, the chart, the campaign rows and the status block (no read: see readSummary). */
export function writeSummary(read: SummaryRead, summary: MailSummary, outcome: RefreshOutcome): void {
  writeCountsAndChart(read, summary.counts, summary.campaigns.size);
  writeCampaignRows(read, summary.campaigns);
  writeDailyChart(read.sheet.getParent(), summary.days);
  writeStatusRows(read.sheet, read.zone, outcome);
}

function addToCampaign(
  campaigns: Map<string, CampaignRow>,
  values: Record<string, unknown>,
  which: keyof MailCounts,
  answerOf?: AnswerOf,
): void {
  const name = cellText(values.campaign);
  const campaign: CampaignRow = campaigns.get(name) || {
    ...emptyCounts(),
    tasks: new Set(),
    mails: 0,
    opens: new Map(),
    taskMails: new Map(),
    people: new Map(),
  };
  const recipient = addressKey(cellText(values.recipient));
  if (recipient && !campaign.people.get(recipient))
    campaign.people.set(recipient, (answerOf && answerOf(recipient)) || '');
  campaign[which]++;
  campaign.mails++;
  const taskId = cellText(values.taskId);
  campaign.tasks.add(taskId);
  campaign.taskMails.set(taskId, (campaign.taskMails.get(taskId) || 0) + 1);
  const opens = Number(values.taskOpens);
  if (values.taskOpens !== '' && Number.isFinite(opens)) campaign.opens.set(taskId, opens);
  const sentAt = values.sentAt;
  if (sentAt instanceof Date) {
    if (!campaign.firstSent || sentAt < campaign.firstSent) campaign.firstSent = sentAt;
    if (!campaign.lastSent || sentAt > campaign.lastSent) campaign.lastSent = sentAt;
  }
  campaigns.set(name, campaign);
}

function writeCampaignRows(read: SummaryRead, campaigns: Map<string, CampaignRow>): void {
  const sheet = read.sheet;
  const headerRow = TRACKING_SUMMARY.headerRow || 1;
  const columns = [
    ...TRACKING_SUMMARY.columns,
    ...(replyDetection().available ? SUMMARY_ANSWER_COLUMNS : []),
  ];
  const header = sheet.getRange(headerRow, 1, 1, columns.length);
  header.setValues([columns.map((c) => c.header)]);
  // Headers and notes of the columns (what "Tasks" or "Opened %" count), each header whole on its lines.
  header.setNotes([columns.map((c) => c.note || '')]).setWrap(true);
  if (read.created) header.setFontWeight('bold');
  const sending = sendingOf(read.zone);
  const replyRate = replyRateOf(replyDetection());
  const grid: CellValue[][] = [...campaigns].map(([name, c]) => {
    const opened = [...c.opens.values()].reduce((n, v) => n + v, 0);
    const record: Record<string, CellValue> = {
      ...rates(c, opened),
      campaign: textCell(name || '(no campaign name)'),
      tasks: c.tasks.size,
      mails: c.mails,
      waiting: c.waiting,
      sent: c.sent,
      delivered: c.delivered,
      failed: c.failed,
      otherKey: c.otherKey,
      opened,
      firstSent: c.firstSent || '',
      lastSent: c.lastSent || '',
      sending: sending(name),
      replyRate: replyRate(c),
      ...answers(c),
    };
    return columns.map((column) => record[column.key]);
  });
  const old = read.lastRow - headerRow;
  if (old > grid.length)
    sheet.getRange(headerRow + 1 + grid.length, 1, old - grid.length, columns.length).clearContent();
  if (grid.length === 0) return;
  const range = sheet.getRange(headerRow + 1, 1, grid.length, columns.length);
  range.setNumberFormats(grid.map(() => columns.map((c) => c.format || 'General')));
  range.setValues(grid);
}

/**
 * A campaign's rates: delivered and failed of its mails, opened of those that reached the service (sent or
 * delivered); "Opens counted" says whether the opens are the mails' own (each task one mail) or the
 * service's count per task (which mail was opened is not known).
 */
function rates(c: CampaignRow, opened: number): Record<string, CellValue> {
  const reached = c.sent + c.delivered;
  const perMail = [...c.taskMails.values()].every((n) => n === 1);
  return {
    deliveredRate: c.mails ? c.delivered / c.mails : '',
    failedRate: c.mails ? c.failed / c.mails : '',
    openedRate: reached ? Math.min(1, opened / reached) : '',
    opensCounted: perMail ? 'per mail' : 'per task of several mails', // the header's note says what it means
  };
}

/** The campaign's people by the answer read in Gmail (the columns of a build that reads it). */
function answers(c: CampaignRow): Record<string, CellValue> {
  const n = (code: AnswerCode) => [...c.people.values()].filter((a) => a === code).length;
  return { replies: n('replied'), outOfOffice: n('outOfOffice'), unsubscribed: n('optedOut') };
}

/** The share of the campaign's people who replied, where replies are read; else the words of what is missing. */
function replyRateOf(detection: ReplyDetectionView): (c: CampaignRow) => CellValue {
  const missing = !detection.available
    ? INBOX_TEXTS.replyRateMissing.build
    : !detection.on
      ? INBOX_TEXTS.replyRateMissing.off
      : detection.refused
        ? INBOX_TEXTS.replyRateMissing.refused
        : '';
  if (missing) return () => missing;
  return (c) => {
    const codes = [...c.people.values()];
    return codes.length ? codes.filter((a) => a === 'replied').length / codes.length : '';
  };
}

function writeCountsAndChart(read: SummaryRead, counts: MailCounts, campaigns: number): void {
  const sheet = read.sheet;
  if (read.created) {
    sheet.setColumnWidth(1, COLUMN_WIDTHS.A);
    sheet.setColumnWidth(2, COLUMN_WIDTHS.B);
    sheet.setColumnWidth(4, COLUMN_WIDTHS.D);
    sheet.setColumnWidth(6, COLUMN_WIDTHS.F); // Reply %, which may say why it is not counted
  }
  const range = sheet.getRange(COUNTS_A1);
  range.setValues([
    ['Mail status', 'Mails'],
    ['Waiting to be sent', counts.waiting],
    ['Sent (delivery not confirmed yet)', counts.sent],
    ['Delivered (confirmed)', counts.delivered],
    ['Failed', counts.failed],
    ['Sent with another key', counts.otherKey],
  ]);
  const total = counts.waiting + counts.sent + counts.delivered + counts.failed + counts.otherKey;
  writeChart(read, campaigns, total);
}

/**
 * The chart of the campaign rows (names, then Waiting, Sent, Delivered, Failed), each bar 100 % of its
 * campaign's mails, anchored a few pixels below the last campaign so that it never covers the table.
 */
function writeChart(read: SummaryRead, campaigns: number, total: number): void {
  const sheet = read.sheet;
  const headerRow = TRACKING_SUMMARY.headerRow || 1;
  const columns = TRACKING_SUMMARY.columns.map((c) => c.key);
  const first = columns.indexOf(CHART_SERIES.first) + 1;
  const last = columns.indexOf(CHART_SERIES.last) + 1;
  const rows = Math.max(1, campaigns);
  const existing = read.chart;
  const chart = (existing ? existing.modify() : sheet.newChart())
    .setChartType(Charts.ChartType.BAR)
    .clearRanges()
    .addRange(sheet.getRange(headerRow, 1, rows + 1, 1))
    .addRange(sheet.getRange(headerRow, first, rows + 1, last - first + 1))
    .setNumHeaders(1)
    .setPosition(headerRow + rows + 1, 1, 0, 6)
    .setOption('isStacked', 'percent')
    .setOption('colors', CHART_COLOURS)
    .setOption('legend', { position: 'top' })
    .setOption('width', CHART_SIZE.width)
    .setOption('height', Math.min(CHART_SIZE.maxHeight, CHART_SIZE.frame + CHART_SIZE.bar * rows))
    .setOption(
      'title',
      `Share of each campaign's mails: waiting, sent, delivered, failed (${formatCount(total)} mails)`,
    )
    .build();
  if (existing) sheet.updateChart(chart);
  else sheet.insertChart(chart);
}

/**
 * The status block (A1:B7): last refresh, result, last error, auto-refresh (every editor's own switch) and
 * its last run, and the sends scheduled or waiting for the quota.
 */
export function writeStatusBlock(spreadsheet: Spreadsheet): void {
  const zone = spreadsheetZone(spreadsheet);
  const outcome = lastRefreshOutcome();
  writeStatusRows(Table.open(spreadsheet, TRACKING_SUMMARY).sheet, zone, outcome);
}

function writeStatusRows(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  zone: string,
  outcome: RefreshOutcome | null,
): void {
  const time = (ms: number) => whenText(ms, zone);
  const hourly = hourlyStatus(zone);
  const run = lastRun('tracking');
  const lastError = (run && run.error) || (outcome && outcome.error) || '';
  const rows = [
    ['Tracking', ''],
    [
      'Last refresh',
      // Not 'menu' is automatic: an outcome saved by an earlier version has the hourly origin's former name.
      outcome
        ? `${time(outcome.at)} (${outcome.origin === 'menu' ? 'from the menu' : 'automatic'})`
        : 'never',
    ],
    ['Result', outcome ? outcome.message : ''],
    ['Last error', lastError],
    [
      'Auto-refresh',
      // Off, yet an automatic run: the refresh the hourly run owes after a send it made.
      run && !hourly.autoOn
        ? `${hourly.autoRefresh} The last automatic run was the one refresh the hourly run makes after a waiting or scheduled send, auto-refresh off or not.`
        : hourly.autoRefresh,
    ],
    [
      'Last automatic run',
      run
        ? `${time(run.at)}: ${[run.message, run.error].filter((t, i, all) => t && all.indexOf(t) === i).join(' ')}`
        : 'none yet',
    ],
    ['Waiting and scheduled sends', hourly.waitingAndScheduled],
  ];
  // The texts wrap in their column: the mails-per-status block beside them would cut them off.
  sheet
    .getRange(1, 1, rows.length, 2)
    .setValues(rows.map(([label, value]) => [label, textCell(value)]))
    .setWrap(true);
  // Below the mails per status; wrapped, as the texts above: a column of the campaigns' table may follow it.
  const replies = replyDetectionLine(zone);
  if (replies !== null)
    sheet
      .getRange(REPLIES_A1)
      .setValues([[INBOX_TEXTS.summaryLabel, textCell(replies)]])
      .setWrap(true);
}
