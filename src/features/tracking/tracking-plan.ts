// What a refresh reads: the tasks this document sent, from the Task ID column of every sheet that has the
// mailing-list columns (the sending rows are the record of what was sent), and which sheet holds each task's
// rows, so that a mail's status goes back to its row by Mail ID.
import { lastSendAt } from '../mail/send-journal';
import { MAIL_COLUMNS, TRACKING, TRACKING_SUMMARY } from '../../sheets/layouts';
import { normalizeHeader } from '../../sheets/table';
import { chunks } from '../jobs/job-runner';
import type { SendingSheet, TrackingData, TrackingUnit } from './tracking-data';
import { TASKS_PER_REQUEST } from './tracking-data';
import type { RefreshOrigin } from './tracking-store';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

export interface TrackedTasks {
  taskIds: number[];
  sheets: SendingSheet[];
  /** When this document last sent (ms), 0 when never. */
  newestAt: number;
}

const header = (key: string) => normalizeHeader(MAIL_COLUMNS.find((c) => c.key === key)!.header);

export function trackedTasks(spreadsheet: Spreadsheet): TrackedTasks {
  const ids = new Set<number>();
  const sheets = new Map<number, SendingSheet>();
  const byId = new Map(
    spreadsheet.getSheets().map((sheet) => [sheet.getSheetId(), { sheet, name: sheet.getName() }]),
  );
  const addTo = (id: number, taskId: number) => {
    const entry = sheets.get(id) || { id, name: byId.get(id)!.name, tasks: [] };
    if (!entry.tasks.includes(taskId)) entry.tasks.push(taskId);
    sheets.set(id, entry);
  };
  const newestAt = lastSendAt();
  for (const [id, { sheet, name }] of byId) {
    for (const taskId of taskIdsOnSheet(sheet, name)) {
      ids.add(taskId);
      addTo(id, taskId);
    }
  }
  return { taskIds: [...ids].sort((a, b) => a - b), sheets: [...sheets.values()], newestAt };
}

/** The Task IDs of a sheet with the mailing-list columns (found by header), read with one getValues. */
function taskIdsOnSheet(sheet: Sheet, name: string): number[] {
  if (name === TRACKING.sheetName || name === TRACKING_SUMMARY.sheetName) return [];
  const width = sheet.getLastColumn();
  if (width === 0) return [];
  const headers = sheet.getRange(1, 1, 1, width).getValues()[0].map(normalizeHeader);
  const taskColumn = headers.indexOf(header('taskId')) + 1;
  if (taskColumn === 0 || !headers.includes(header('mailId'))) return [];
  const last = sheet.getLastRow();
  if (last < 2) return [];
  const ids = sheet
    .getRange(2, taskColumn, last - 1, 1)
    .getValues()
    .map((row) => Number(row[0]))
    .filter((id) => Number.isSafeInteger(id) && id > 0);
  return [...new Set(ids)];
}

/** The first units of a refresh: the tasks, 100 per request (each adds the units of its mails). */
export function planUnits(tracked: TrackedTasks): TrackingUnit[] {
  return [
    ...chunks(tracked.taskIds, TASKS_PER_REQUEST).map((tasks) => ({ tasks })),
    { summary: true as const },
  ];
}

export function newTrackingData(tracked: TrackedTasks, origin: RefreshOrigin): TrackingData {
  return {
    origin,
    sheets: tracked.sheets,
    tasks: {},
    campaigns: [],
    missing: 0,
    openTasks: 0,
    mailsRead: 0,
    rowsUpdated: 0,
    settledSkipped: 0,
  };
}
