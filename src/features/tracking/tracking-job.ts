// The tracking refresh on the job runner. Units: the tasks (100 per GET /api/v1/emails/tasks), then their
// mails (GET /api/v1/emails/mails by task ids, 100 per page, in mail-id order so pages stay stable while
// statuses move), PAGES_PER_UNIT pages per sheet write, then the summary. Everything is free and read-only
// at the service, so a cut-off unit is simply read again by the next step (the menu's progress dialog, or
// the trigger's next run). Tasks whose mails were all final at the last refresh are not read again.
import { ApiError } from '../../api/errors';
import type { MailRecord, Task } from '../../api/outreach/email-schemas';
import { TASK_STATUSES } from '../../api/outreach/email-schemas';
import { outreachClient } from '../clients';
import { RefreshOrigin, saveRefreshOutcome, settledTasks } from './tracking-store';
import { cellText, CellValue, dateCell, textCell } from '../../sheets/cells';
import { TRACKING, TRACKING_SUMMARY } from '../../sheets/layouts';
import { Table } from '../../sheets/table';
import { JobDefinition, JobState, JobStop, StepContext } from '../jobs/job-runner';
import { describe } from '../settings';
import {
  MAIL_PAGE_SIZE,
  PAGES_PER_UNIT,
  TASKS_PER_REQUEST,
  type TrackingData,
  type TrackingUnit,
} from './tracking-data';
import {
  campaignOf,
  capitalized,
  isFinalTask,
  TaskInfo,
  writeRowStatuses,
  writeTrackingRows,
} from './tracking-rows';
import { writeMailCounts, writeStatusBlock } from './tracking-summary';

type TrackingState = JobState<TrackingUnit, TrackingData>;

interface MailPages {
  mails: MailRecord[];
  /** Pages not read (out of time): a unit of their own, first in line. */
  rest?: TrackingUnit;
  error?: ApiError;
}

type Result = Task[] | MailPages | null;

export const TRACKING_JOB: JobDefinition<TrackingUnit, TrackingData, Result> = {
  kind: 'tracking',
  name: 'Tracking refresh',
  title: 'Refreshing tracking',
  unitMs: (unit) => ('mails' in unit ? 20_000 : 5_000),
  size: (unit) => ('mails' in unit ? unit.last - unit.page + 1 : 1),
  work: (unit, state, context) => {
    if ('tasks' in unit) return readTasks(unit.tasks, state.data.origin, context);
    if ('mails' in unit) return readMailPages(unit, context);
    return null;
  },
  record: (unit, result, state) => {
    if ('tasks' in unit) return recordTasks(unit.tasks, result as Task[], state);
    if ('mails' in unit) return recordMails(result as MailPages, state);
    recordSummary(state);
    return [];
  },
  summary: trackingSummary,
};

function client(context: StepContext) {
  return outreachClient({ deadlineMs: context.deadline.at });
}

function readTasks(ids: number[], origin: RefreshOrigin, context: StepContext): Task[] {
  try {
    return client(context).listTasks({
      task_ids: ids,
      page_size: TASKS_PER_REQUEST,
      sort_by: 'task_id',
      sort_order: 'asc',
    }).data;
  } catch (error) {
    if (error instanceof ApiError && error.kind !== 'rate-limit') stop(error, origin);
    throw error; // out of time: the next step reads them
  }
}

function readMailPages(
  unit: { mails: number[]; page: number; last: number },
  context: StepContext,
): MailPages {
  const outreach = client(context);
  const mails: MailRecord[] = [];
  for (let page = unit.page; page <= unit.last; page++) {
    try {
      const answer = outreach.listMails({
        task_ids: unit.mails,
        page,
        page_size: MAIL_PAGE_SIZE,
        sort_by: 'mail_id',
        sort_order: 'asc',
      });
      mails.push(...answer.data);
      context.progress(page - unit.page + 1);
      if (answer.data.length < MAIL_PAGE_SIZE) break; // the last page
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.kind === 'rate-limit') {
        if (mails.length === 0) throw error; // out of time before any page: the runner ends the step
        return { mails, rest: { ...unit, page } };
      }
      return { mails, error };
    }
  }
  return { mails };
}

function recordTasks(ids: number[], tasks: Task[], state: TrackingState): TrackingUnit[] {
  const data = state.data;
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const tracking = Table.open(spreadsheet, TRACKING); // first, so its tab comes before the summary's
  const summary = new Map<string, Record<string, CellValue>>();
  for (const task of tasks) {
    const campaign = campaignOf(task);
    if (!data.campaigns.includes(campaign)) data.campaigns.push(campaign);
    data.tasks[task.taskId] = [
      data.campaigns.indexOf(campaign),
      TASK_STATUSES.indexOf(task.status),
      task.totalCount,
    ];
    if (!isFinalTask(task.status)) data.openTasks++;
    summary.set(String(task.taskId), {
      taskId: task.taskId,
      campaign: textCell(campaign),
      status: capitalized(task.status),
      total: task.totalCount,
      sent: task.sentCount,
      failed: task.failedCount,
      opened: task.openedCount,
      createdAt: dateCell(task.createdAt),
      completedAt: dateCell(task.completedAt),
    });
  }
  data.missing += ids.filter((id) => !tasks.some((t) => t.taskId === id)).length;
  Table.open(spreadsheet, TRACKING_SUMMARY).upsertByKey((row) => cellText(row.values.taskId), summary);
  const toRead = tasksToRead(tracking, tasks, data);
  const mailCount = toRead.reduce((n, task) => n + task.totalCount, 0);
  const pages = Math.ceil(mailCount / MAIL_PAGE_SIZE);
  const units: TrackingUnit[] = [];
  const taskIds = toRead.map((t) => t.taskId);
  for (let page = 1; page <= pages; page += PAGES_PER_UNIT) {
    units.push({ mails: taskIds, page, last: Math.min(pages, page + PAGES_PER_UNIT - 1) });
  }
  state.total += pages;
  return units;
}

/** The tasks whose mails must be read: all but those final at the last refresh and still all on Tracking. */
function tasksToRead(tracking: Table, tasks: Task[], data: TrackingData): Task[] {
  const settled = settledTasks();
  const candidates = tasks.filter((t) => settled[t.taskId] === t.totalCount);
  if (candidates.length === 0) return tasks;
  const onSheet = new Map<string, number>();
  for (const row of tracking.readAll()) {
    const id = cellText(row.values.taskId);
    onSheet.set(id, (onSheet.get(id) || 0) + 1);
  }
  return tasks.filter((task) => {
    const skip =
      settled[task.taskId] === task.totalCount && onSheet.get(String(task.taskId)) === task.totalCount;
    if (skip) data.settledSkipped += task.totalCount;
    return !skip;
  });
}

function recordMails(pages: MailPages, state: TrackingState): TrackingUnit[] {
  const data = state.data;
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  writeTrackingRows(spreadsheet, pages.mails, (taskId) => taskInfo(data, taskId));
  data.rowsUpdated += writeRowStatuses(spreadsheet, data.sheets, pages.mails);
  data.mailsRead += pages.mails.length;
  if (pages.error) stop(pages.error, data.origin);
  return pages.rest ? [pages.rest] : [];
}

function recordSummary(state: TrackingState): void {
  const data = state.data;
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const { allFinal } = writeMailCounts(spreadsheet, data);
  saveRefreshOutcome({
    at: Date.now(),
    origin: data.origin,
    message: trackingSummary(state, true),
    allFinal: allFinal && data.openTasks === 0,
  });
  writeStatusBlock(spreadsheet);
}

export function taskInfo(data: TrackingData, taskId: number): TaskInfo | undefined {
  const entry = data.tasks[taskId];
  return entry ? { campaign: data.campaigns[entry[0]], status: TASK_STATUSES[entry[1]] } : undefined;
}

/** Ends the refresh with the error's text; its kind is kept so the trigger can turn itself off on a 401. */
function stop(error: ApiError, origin: RefreshOrigin): never {
  const message = describe(error);
  saveRefreshOutcome({ at: Date.now(), origin, message, error: message, stopKind: error.kind });
  throw new JobStop(message);
}

function trackingSummary(state: TrackingState, finished: boolean): string {
  const d = state.data;
  const tasks = Object.keys(d.tasks).length;
  const parts = [
    `${d.mailsRead} mail${d.mailsRead === 1 ? '' : 's'} of ${tasks} task${tasks === 1 ? '' : 's'} read`,
  ];
  if (d.settledSkipped) parts.push(`${d.settledSkipped} final mails not read again`);
  parts.push(`${d.rowsUpdated} sent row${d.rowsUpdated === 1 ? '' : 's'} updated`);
  if (d.missing) parts.push(`${d.missing} task${d.missing === 1 ? '' : 's'} not found at the service`);
  return `${finished ? 'Tracking refreshed' : 'Refreshing tracking'}: ${parts.join(', ')}.`;
}
