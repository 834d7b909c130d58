// The tracking refresh on the job runner. It reads only what can still change: the mails of this document
// (Mail IDs of its sending rows and of the Tracking sheet) that Tracking does not show as final, in mail-id
// order, MAILS_PER_UNIT a unit: GET /api/v1/emails/mails?mail_ids=… (100 ids a request) and the tasks they
// belong to, GET /api/v1/emails/tasks?task_ids=… (campaign, task status, opens; 100 a request). The same
// works whatever the service grouped into tasks (one per chunk, one per mail). The state is a cursor (the
// last Mail ID done): each unit finds its mails in the sheets again. Everything is free and read-only at the
// service, so a cut-off unit is simply read again by the next step (the progress dialog, or the trigger's
// next run). When every mail is final a refresh makes no request at all.
import { ApiError } from '../../api/errors';
import type { MailRecord, Task } from '../../api/outreach/email-schemas';
import { outreachClient } from '../clients';
import { RefreshOrigin, saveRefreshOutcome } from './tracking-store';
import { JobDefinition, JobState, JobStop, StepContext } from '../jobs/job-runner';
import { chunks } from '../jobs/job-runner';
import { describe } from '../settings';
import { IDS_PER_REQUEST, MAILS_PER_UNIT, type TrackingData, type TrackingUnit } from './tracking-data';
import { MailIndex, nextMails, readMailIndex } from './tracking-plan';
import { trimTrackingColumns, writeRowStatuses, writeTrackingRows } from './tracking-rows';
import { writeMailCounts, writeStatusBlock } from './tracking-summary';

type TrackingState = JobState<TrackingUnit, TrackingData>;

interface MailsRead {
  index: MailIndex;
  /** The mail ids asked for, ascending. */
  asked: number[];
  mails: MailRecord[];
  tasks: Map<number, Task>;
  error?: ApiError;
}

export const TRACKING_JOB: JobDefinition<TrackingUnit, TrackingData, MailsRead> = {
  kind: 'tracking',
  name: 'Tracking refresh',
  title: 'Refreshing tracking',
  action: 'Refresh tracking',
  unitMs: () => 30_000,
  size: (unit) => unit.left,
  work: (unit, state, context) => readMails(unit.after, state.data, context),
  record: (_unit, result, state) => recordMails(result, state),
  summary: trackingSummary,
};

function readMails(after: number, data: TrackingData, context: StepContext): MailsRead {
  const index = readMailIndex(SpreadsheetApp.getActiveSpreadsheet());
  if (after === 0) data.finalSkipped = index.final;
  const asked = nextMails(index, after, MAILS_PER_UNIT);
  const client = outreachClient({ deadlineMs: context.deadline.at });
  const mails: MailRecord[] = [];
  const tasks = new Map<number, Task>();
  try {
    // The unit's pages at once (fetchAll in batches sized to the free rate budget), then their tasks.
    const queries = chunks(asked, IDS_PER_REQUEST).map((ids) => ({
      mail_ids: ids,
      page_size: IDS_PER_REQUEST,
      sort_by: 'mail_id' as const,
      sort_order: 'asc' as const,
    }));
    for (const answer of client.listMailsAll(queries)) mails.push(...answer.data);
    context.progress(mails.length);
    const taskIds = [...new Set(mails.map((m) => m.taskId))];
    const taskQueries = chunks(taskIds, IDS_PER_REQUEST).map((ids) => ({
      task_ids: ids,
      page_size: IDS_PER_REQUEST,
      sort_by: 'task_id' as const,
    }));
    for (const answer of client.listTasksAll(taskQueries)) {
      for (const task of answer.data) tasks.set(task.taskId, task);
    }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.kind === 'rate-limit') throw error; // out of time: the next step reads this unit again
    return { index, asked, mails, tasks, error };
  }
  return { index, asked, mails, tasks };
}

function recordMails(read: MailsRead, state: TrackingState): TrackingUnit[] {
  const data = state.data;
  if (read.error) stop(read.error, data.origin);
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const returned = new Set(read.mails.map((m) => m.mailId));
  const missing = read.asked.filter((id) => !returned.has(id));
  // Not returned with this key: new to Tracking → a row that says so; already there → kept as it was.
  const otherKey = missing
    .filter((id) => !read.index.tracked.has(id) && read.index.sent.has(id))
    .map((mailId) => ({ mailId, taskId: read.index.sent.get(mailId)!.taskId }));
  writeTrackingRows(spreadsheet, read.mails, read.tasks, otherKey);
  data.rowsUpdated += writeRowStatuses(spreadsheet, read.index.sent, read.mails);
  data.mailsRead += read.mails.length;
  data.tasksRead += read.tasks.size;
  data.otherKey += missing.length;
  const last = read.asked[read.asked.length - 1];
  const left = read.asked.length === MAILS_PER_UNIT ? openAfter(read.index, last) : 0;
  if (left > 0) return [{ after: last, left }];
  recordSummary(state); // the last unit: the summary is written in the same step
  return [];
}

function openAfter(index: MailIndex, after: number): number {
  return index.open.length - index.open.filter((id) => id <= after).length;
}

function recordSummary(state: TrackingState): void {
  const data = state.data;
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  trimTrackingColumns(spreadsheet);
  const { allFinal } = writeMailCounts(spreadsheet);
  saveRefreshOutcome({
    at: Date.now(),
    origin: data.origin,
    message: trackingSummary(state, true),
    allFinal,
  });
  writeStatusBlock(spreadsheet);
}

/** Ends the refresh with the error's text; its kind is kept so the trigger can turn itself off on a 401. */
function stop(error: ApiError, origin: RefreshOrigin): never {
  const message = describe(error);
  saveRefreshOutcome({ at: Date.now(), origin, message, error: message, stopKind: error.kind });
  throw new JobStop(message);
}

function trackingSummary(state: TrackingState, finished: boolean): string {
  const d = state.data;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const parts = [`${plural(d.mailsRead, 'mail')} of ${plural(d.tasksRead, 'task')} read`];
  if (d.finalSkipped) parts.push(`${d.finalSkipped} final mails not read again`);
  parts.push(`${plural(d.rowsUpdated, 'sent row')} updated`);
  if (d.otherKey) {
    parts.push(
      `${plural(d.otherKey, 'mail')} sent with another API key (a colleague's or an earlier key): shown as they were; refresh with that key to update them`,
    );
  }
  return `${finished ? 'Tracking refreshed' : 'Refreshing tracking'}: ${parts.join(', ')}.`;
}
