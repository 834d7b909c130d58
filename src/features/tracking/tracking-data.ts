// The shapes a tracking refresh keeps between its steps (the job's state), shared by the plan, the job, the
// rows and the summary.
import type { RefreshOrigin } from './tracking-store';

/** Task ids per GET /api/v1/emails/tasks and per mail query (the page size's maximum). */
export const TASKS_PER_REQUEST = 100;

/** A sheet whose rows were sent: the tasks it holds. */
export interface SendingSheet {
  id: number;
  name: string;
  tasks: number[];
}

/** Mails per page (the spec's maximum). */
export const MAIL_PAGE_SIZE = 100;
/** Mail pages read per sheet write (1,000 mails): a cut-off step loses at most this much reading. */
export const PAGES_PER_UNIT = 10;

export type TrackingUnit =
  | { tasks: number[] }
  /** Pages `page`..`last` of the mails of these tasks. */
  | { mails: number[]; page: number; last: number }
  | { summary: true };

export interface TrackingData {
  origin: RefreshOrigin;
  sheets: SendingSheet[];
  /** Task id → [campaign index, status index in TASK_STATUSES, number of mails]. */
  tasks: Record<string, [number, number, number]>;
  campaigns: string[];
  /** Task ids the service did not return (deleted, or sent with another key). */
  missing: number;
  /** Tasks not final yet. */
  openTasks: number;
  mailsRead: number;
  /** Sending-sheet rows whose Mail status moved. */
  rowsUpdated: number;
  /** Mails of tasks already final at the last refresh, not read again. */
  settledSkipped: number;
}
