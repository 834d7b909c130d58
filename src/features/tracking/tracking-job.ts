// The tracking refresh on the job runner. It reads only what can still change: the mails of this document
// (Mail IDs of its sending rows and of the Tracking sheet) that Tracking does not show as final, in mail-id
// order, up to MAILS_PER_UNIT a unit: first the tasks of the Task IDs beside them, then the mails of the
// tasks this document sent (tracking-fetch.ts: in batches sized to the rate budget). Any editor can type ids
// into cells: a Mail ID whose task is not one this document sent is never read, and its rows say so (a
// final state, not asked again). The same works whatever the service grouped into tasks (one per chunk,
// one per mail).
// The sheets are read once per slice (the plan: which mails are open, kept in memory for the slice's units)
// and the unit's results are written once at its end (tracking-sheets.ts). The state is a cursor (the last
// Mail ID written): everything is free and read-only at the service, so what a cut-off slice read but did
// not write is simply read again by the next slice (the progress dialog, or the trigger's next run), and
// rows are upserted by Mail ID, never duplicated. The last unit also reads the opens of the tasks sent in
// the last 14 days whose opens can still grow (tracking-opens.ts). When every mail is final and no open can
// come any more, a refresh makes no request.
import { type ApiError, type MailRecord, type Task } from '../../api';
import {
  CellValue,
  TRACKING_SUMMARY,
  readListStates,
  writeStatesByMailId,
  isFinal,
  MailState,
} from '../../sheets';
import { outreachClient } from '../clients';
import { RefreshOrigin, saveRefreshOutcome } from './tracking-store';
import { JobDefinition, JobState, JobStop, SliceContext } from '../jobs';
import { existingMark, count } from '../../platform';
import { MAILS_PER_UNIT, type SentMail, type TrackingData, type TrackingUnit } from './tracking-data';
import { type ChunksRead, type Pace, readChunks } from './tracking-fetch';
import { opensRecords, opensToRead } from './tracking-opens';
import { MailIndex, nextMails, readMailIndex } from './tracking-plan';
import { Ledger, countFinalMails, loadTemplate } from '../outbox';
import {
  notThisDocumentRecord,
  otherKeyRecord,
  rowState,
  trackedState,
  trackingRecord,
} from './tracking-rows';
import {
  openTracking,
  readTracking,
  type TrackingRead,
  trimTrackingColumns,
  writeTracking,
  type TrackingValues,
} from './tracking-sheets';
import { readSummary, summarize, type SummaryRead, writeSummary } from './tracking-summary';
import { describe } from '../errors';
import { answerOfRecipient, bouncedMails } from '../inbox';

type TrackingState = JobState<TrackingUnit, TrackingData>;
type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** Time kept after the last request of a unit for writing its results. */
const WRITE_RESERVE_MS = 30_000;

interface UnitRead extends ChunksRead {
  index: MailIndex;
  /** Every open mail id of the unit, read or not. */
  planned: number[];
  /** The tasks whose opens can still grow, among those read (their rows' opens are written). */
  opens: Map<number, Task>;
  /** How many of the tasks read were asked for their opens only (none of their mails is read). */
  opensOnly: number;
}

/**
 * What the units of the slice under way share (the slice's memory, see SliceContext): the plan, read from the
 * sheets once a slice (each unit's writes are added to it), and the service's pace.
 */
interface SliceMemory {
  index: MailIndex;
  pace: Pace;
  /**
   * The refresh's first slice: only it asks for opens (a later slice cannot tell the tasks an earlier one
   * read for their opens, when their cells did not change: they would be asked twice).
   */
  firstStep: boolean;
}

/** The first slice's memory: the plan a new refresh was planned from (startJob's `memory`). */
export function firstStepMemory(index: MailIndex): Record<string, unknown> {
  const memory: SliceMemory = { index, pace: { batchMs: 0 }, firstStep: true };
  return { tracking: memory };
}

function memoryOf(context: SliceContext): SliceMemory {
  const kept = context.memory.tracking as SliceMemory | undefined;
  if (kept) return kept;
  const index = readMailIndex(SpreadsheetApp.getActiveSpreadsheet(), Ledger.read().postedMails());
  const memory: SliceMemory = { index, pace: { batchMs: 0 }, firstStep: false };
  context.memory.tracking = memory;
  return memory;
}

export const TRACKING_JOB: JobDefinition<TrackingUnit, TrackingData, UnitRead> = {
  kind: 'tracking',
  name: 'Tracking refresh',
  title: 'Refreshing tracking',
  action: 'Refresh tracking',
  service: 'outreach',
  free: true,
  unitMs: () => 30_000,
  size: (unit) => unit.left,
  work: (unit, state, context) => readUnit(unit.after, state, context),
  record: (_unit, result, state) => recordUnit(result, state),
  summary: trackingSummary,
};

function readUnit(after: number, state: TrackingState, context: SliceContext): UnitRead {
  const { index, pace, firstStep } = memoryOf(context);
  if (after === 0) state.data.finalSkipped = index.final;
  const planned = nextMails(index, after, MAILS_PER_UNIT);
  const deadlineMs = context.deadline.at - WRITE_RESERVE_MS;
  const client = outreachClient({ deadlineMs });
  // The last unit also asks again the tasks whose opens can still grow, in the same task requests.
  const claimed = new Set(planned.flatMap((id) => index.claims.get(id) || []));
  const extraTasks = firstStep && planned.length < MAILS_PER_UNIT ? opensToRead(index.opens, claimed) : [];
  const toRead = { ids: planned, claims: index.claims, mark: existingMark(), extraTasks };
  const read = readChunks(client, toRead, deadlineMs, pace, (mails) => context.progress(mails));
  // Out of time before any chunk was complete: nothing to write; the next slice reads this unit again.
  if (read.cutShort && read.asked.length === 0) throw read.cutShort;
  const opens = new Map<number, Task>();
  for (const [id, task] of read.tasks) if (index.opens.has(id)) opens.set(id, task);
  const extra = new Set(extraTasks);
  const opensOnly = [...read.tasks.keys()].filter((id) => extra.has(id)).length;
  return { ...read, index, planned, opens, opensOnly };
}

function recordUnit(read: UnitRead, state: TrackingState): TrackingUnit[] {
  const data = state.data;
  const whole = read.asked.length === read.planned.length;
  const cursor = read.asked.length > 0 ? read.asked[read.asked.length - 1] : 0;
  const left = whole && read.planned.length < MAILS_PER_UNIT ? 0 : openAfter(read.index, cursor);
  const last = !read.error && left === 0;
  const written = writeUnit(read, last);
  data.rowsUpdated += written.rowsUpdated;
  data.mailsRead += read.mails.length;
  data.tasksRead += read.tasks.size - read.opensOnly;
  data.otherKey += read.asked.length - read.mails.length - read.notThisDocument.length;
  data.notThisDocument = (data.notThisDocument || 0) + read.notThisDocument.length;
  data.opensRead = (data.opensRead || 0) + read.opens.size;
  countFinal(read);
  if (read.error) stop(read.error, data.origin);
  if (!last) return [{ after: cursor, left }];
  // The last unit: the summary is written in the same slice, counted from every Tracking row.
  const summary = summarize(written.rows, answerOfRecipient());
  const outcome = {
    at: Date.now(),
    origin: data.origin,
    message: trackingSummary(state, true),
    allFinal: summary.allFinal,
  };
  saveRefreshOutcome(outcome);
  if (written.summary) writeSummary(written.summary, summary, outcome);
  return [];
}

/**
 * The bounce guard counts the final mails the unit read (outbox/bounce-guard.ts): what Tracking reads anyway,
 * no request more. A mail a delivery report in Gmail failed counts as failed.
 */
function countFinal(read: UnitRead): void {
  const bounced = bouncedMails(read.mails);
  const final = read.mails.filter((m) => bounced.has(m.mailId) || isFinal(trackedState(m)));
  if (final.length === 0) return;
  const mails = final.map((m) => ({
    mailId: m.mailId,
    email: m.recipientEmail,
    failed: m.status === 'failed' || bounced.has(m.mailId),
    sheetId: read.index.sent.get(m.mailId)?.sheetId,
  }));
  countFinalMails(mails, (sheetId) => loadTemplate(sheetId)?.campaign || '');
}

function openAfter(index: MailIndex, after: number): number {
  return index.open.length - index.open.filter((id) => id <= after).length;
}

/**
 * Writes a unit's mails: the Tracking rows and the Mail status of their sending rows. The sheets missing
 * are created first, then every read is made, then every write (a read after a write waits for Sheets to
 * commit). The last unit also reads the summary sheet, for writeSummary.
 */
function writeUnit(
  read: UnitRead,
  last: boolean,
): { rows: TrackingValues[]; rowsUpdated: number; summary: SummaryRead | null } {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const records = trackingRecords(read);
  const trackingTable = openTracking(spreadsheet, records.size > 0);
  const summarySheet = last ? summarySheetOrNew(spreadsheet) : null;

  const tracking = trackingTable && readTracking(trackingTable);
  const wanted = statesWanted(read.index.sent, read.mails, read.notThisDocument);
  const lists = [...wanted].map(([sheetId, statuses]) => ({
    list: readListStates(spreadsheet, sheetId),
    statuses,
  }));
  const summary = summarySheet && readSummary(spreadsheet, summarySheet.sheet, summarySheet.created);

  if (tracking) addOpens(records, tracking, read.opens);
  const rows = tracking ? writeTracking(tracking, records) : [];
  for (const key of records.keys()) read.index.tracked.add(Number(key));
  let rowsUpdated = 0;
  for (const { list, statuses } of lists) if (list) rowsUpdated += writeStatesByMailId(list, statuses);
  if (tracking && last) trimTrackingColumns(tracking);
  return { rows, rowsUpdated, summary };
}

/** The Opened and Task opens cells of the rows of the tasks read for their opens, where they change. */
function addOpens(
  records: Map<string, Record<string, CellValue>>,
  tracking: TrackingRead,
  opens: Map<number, Task>,
): void {
  if (opens.size === 0) return;
  for (const [mailId, record] of opensRecords(
    tracking.rows.map((row) => row.values),
    opens,
  ))
    if (!records.has(mailId)) records.set(mailId, record);
}

/** The summary sheet, created (at the end, the user's selection kept) when missing. */
function summarySheetOrNew(spreadsheet: Spreadsheet): { sheet: Sheet; created: boolean } {
  const sheet = spreadsheet.getSheetByName(TRACKING_SUMMARY.sheetName);
  if (sheet) return { sheet, created: false };
  // insertSheet activates the new sheet: keep the user where they were, selection included.
  const selection = spreadsheet.getActiveRangeList();
  const created = spreadsheet.insertSheet(TRACKING_SUMMARY.sheetName, spreadsheet.getSheets().length);
  if (selection) selection.activate();
  return { sheet: created, created: true };
}

/**
 * The Tracking rows of the unit by Mail ID. Not a mail of this document → a row that says so (details
 * emptied). A mail whose task the service did not return with this key: new to Tracking → a row that says
 * so; already there → kept as it was.
 */
function trackingRecords(read: UnitRead): Map<string, Record<string, CellValue>> {
  const now = new Date();
  const records = new Map<string, Record<string, CellValue>>();
  for (const mail of read.mails) {
    records.set(String(mail.mailId), trackingRecord(mail, read.tasks.get(mail.taskId), now));
  }
  const stated = new Set(read.notThisDocument);
  for (const id of stated) {
    const sent = read.index.sent.get(id);
    const record = notThisDocumentRecord(id, now);
    if (!read.index.tracked.has(id) && sent && sent.taskId !== null) record.taskId = sent.taskId;
    records.set(String(id), record);
  }
  const returned = new Set(read.mails.map((m) => m.mailId));
  for (const id of read.asked) {
    const sent = read.index.sent.get(id);
    if (returned.has(id) || stated.has(id) || read.index.tracked.has(id) || !sent) continue;
    records.set(String(id), otherKeyRecord(id, sent.taskId, now));
  }
  return records;
}

/**
 * The Mail status each sending sheet should show, by sheet id and Mail ID: the mails read (not sent yet:
 * none), and the ids that are not mails of this document.
 */
function statesWanted(
  sent: Map<number, SentMail>,
  mails: MailRecord[],
  notThisDocument: number[],
): Map<number, Map<string, MailState>> {
  const bySheet = new Map<number, Map<string, MailState>>();
  const want = (mailId: number, state: MailState | null) => {
    const where = sent.get(mailId);
    if (!where || !state) return;
    const wanted = bySheet.get(where.sheetId) || new Map<string, MailState>();
    wanted.set(String(mailId), state);
    bySheet.set(where.sheetId, wanted);
  };
  // A mail a delivery report in Gmail failed keeps the Failed the scan wrote (features/inbox).
  const bounced = bouncedMails(mails);
  for (const mail of mails)
    want(mail.mailId, bounced.has(mail.mailId) && mail.status !== 'failed' ? null : rowState(mail));
  for (const id of notThisDocument) want(id, { kind: 'notThisDocument' });
  return bySheet;
}

/** Ends the refresh with the error's text; its kind is kept so the trigger can turn itself off on a 401. */
function stop(error: ApiError, origin: RefreshOrigin): never {
  const message = describe(error);
  saveRefreshOutcome({ at: Date.now(), origin, message, error: message, stopKind: error.kind });
  throw new JobStop(message);
}

function trackingSummary(state: TrackingState, finished: boolean): string {
  const d = state.data;
  const parts = [`${count(d.mailsRead, 'mail')} of ${count(d.tasksRead, 'task')} read`];
  if (d.finalSkipped)
    parts.push(`${count(d.finalSkipped, 'delivered or failed mail')} not read again (they no longer change)`);
  if (d.opensRead) parts.push('opens of the mails sent in the last 14 days brought up to date');
  if (d.unseen)
    parts.push(
      `${count(d.unseen, 'mail')} on no sheet (their Mail ID cells were cleared or moved) followed from the record of what you sent`,
    );
  parts.push(`${count(d.rowsUpdated, 'sent row')} updated`);
  if (d.notThisDocument) {
    parts.push(
      `${count(d.notThisDocument, 'Mail ID')} not of a mail this document sent (typed or copied into a cell): not read`,
    );
  }
  if (d.otherKey) {
    parts.push(
      `${count(d.otherKey, 'mail')} sent with another API key (a colleague's or an earlier key): shown as they were; refresh with that key to update them`,
    );
  }
  return `${finished ? 'Tracking refreshed' : 'Refreshing tracking'}: ${parts.join(', ')}.`;
}
