// The shapes a tracking refresh keeps between its steps (the job's state), shared by the plan, the job, the
// rows and the summary. The state is a cursor and counters: it never lists the mails or tasks to read (the
// sheets are the record; each slice finds its next mails there), so it stays the same size at 100 mails or
// 100,000.
import type { RefreshOrigin } from './tracking-store';

/** Ids per GET /api/v1/emails/mails?mail_ids=… and per GET /api/v1/emails/tasks?task_ids=… (the maximum). */
export const IDS_PER_REQUEST = 100;

/** Mails whose tasks are asked together, before their pages (only the mails of this document's tasks). */
export const MAILS_PER_CHUNK = 1000;

/**
 * Mails read per unit at most: its results are kept in memory and written at its end (one block write of
 * Tracking and of each sending sheet). A unit also ends when the slice runs out of time; a cut-off execution
 * loses only reads, which the next slice makes again.
 */
export const MAILS_PER_UNIT = 20_000;

/** A sent row's mail: the sheet that sent it and its task (null: the row has no Task ID). */
export interface SentMail {
  sheetId: number;
  taskId: number | null;
}

/**
 * The next mails that can still change, with a Mail ID above `after`, in mail-id order; `left`: how many
 * there were when the unit was planned (the progress shown). The unit that finds no more writes the summary.
 */
export type TrackingUnit = { after: number; left: number };

export interface TrackingData {
  origin: RefreshOrigin;
  mailsRead: number;
  tasksRead: number;
  /** Mails asked for that the service did not return with this key (sent with another key). */
  otherKey: number;
  /** Mail ids asked for that are not mails of this document (never read). Absent in jobs saved before it. */
  notThisDocument?: number;
  /** Tasks read again for their opens (sent in the last 14 days). Absent in jobs saved before it. */
  opensRead?: number;
  /** Mails of the ledger found on no sheet when the refresh began. Absent in jobs saved before it. */
  unseen?: number;
  /** Mails final at the last refresh (delivered or failed), not read again. */
  finalSkipped: number;
  /** Sending-sheet rows whose Mail status moved. */
  rowsUpdated: number;
}

export function newTrackingData(origin: RefreshOrigin): TrackingData {
  return {
    origin,
    mailsRead: 0,
    tasksRead: 0,
    otherKey: 0,
    notThisDocument: 0,
    finalSkipped: 0,
    rowsUpdated: 0,
  };
}
