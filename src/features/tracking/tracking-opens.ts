// Opens arrive after delivery: a mail is final for its status, not for its opens. For OPENS_DAYS after a
// send a refresh reads again the tasks (GET /api/v1/emails/tasks?task_ids=…, 100 a request) of the mails
// Tracking shows as delivered or sent in that time, and only those whose opens can still grow (fewer
// opens than mails not failed), newest tasks first, at most MAX_OPEN_TASKS a refresh; their openedCount
// moves the Opened and Task opens cells of their rows, written only where they change. Their task ids ride
// on the unit's own task requests (tracking-fetch.ts: extraTasks), so they cost a request only past 100. A failed mail never
// shows opens. Everything is found on the Tracking sheet: nothing is kept in properties.
import { type Task } from '../../api';
import { cellText, CellValue, MailState, parseState } from '../../sheets';
import { openedText } from './tracking-rows';
import { DAY_MS } from '../../platform';

/** Days after a mail was sent during which its task's opens are read again. */
const OPENS_DAYS = 14;
/** Tasks read for their opens in one refresh at most: 60 requests, one window of the rate budget. */
const MAX_OPEN_TASKS = 6000;

/** A Tracking row as the opens need it (by column key). */
export interface OpensRow {
  state: MailState;
  taskId: unknown;
  taskOpens?: unknown;
  sentAt: unknown;
}

/** A task whose opens can still grow: its opens now and its mails that did not fail. */
export interface OpenTask {
  opens: number;
  mails: number;
}

const taskIdOf = (value: unknown): number | null => {
  const id = Number(value);
  return value !== '' && Number.isSafeInteger(id) && id > 0 ? id : null;
};

/** The tasks of these rows sent in the last OPENS_DAYS whose opens can still grow, by task id. */
export function tasksWithOpensToCome(rows: Iterable<OpensRow>, now = Date.now()): Map<number, OpenTask> {
  const since = now - OPENS_DAYS * DAY_MS;
  const tasks = new Map<number, OpenTask & { recent: boolean }>();
  for (const row of rows) {
    const state = row.state.kind;
    const taskId = taskIdOf(row.taskId);
    if (taskId === null || (state !== 'delivered' && state !== 'sent')) continue;
    const task = tasks.get(taskId) || { opens: 0, mails: 0, recent: false };
    task.mails++;
    const opens = Number(row.taskOpens);
    if (row.taskOpens !== '' && Number.isFinite(opens)) task.opens = Math.max(task.opens, opens);
    const sentAt = row.sentAt;
    if (sentAt instanceof Date && sentAt.getTime() >= since) task.recent = true;
    tasks.set(taskId, task);
  }
  const open = new Map<number, OpenTask>();
  for (const [id, task] of tasks) {
    if (task.recent && task.opens < task.mails) {
      open.set(id, { opens: task.opens, mails: task.mails });
    }
  }
  return open;
}

/** The task ids to read for their opens: not asked already by this unit, newest first, capped. */
export function opensToRead(open: Map<number, OpenTask>, asked: Set<number>): number[] {
  return [...open.keys()]
    .filter((id) => !asked.has(id))
    .sort((a, b) => b - a)
    .slice(0, MAX_OPEN_TASKS);
}

/**
 * The Opened and Task opens cells of the Tracking rows of these tasks, by Mail ID, where they change; a
 * failed mail's are emptied (it was never opened).
 */
export function opensRecords(
  rows: Iterable<Record<string, unknown>>,
  tasks: Map<number, Task>,
): Map<string, Record<string, CellValue>> {
  const records = new Map<string, Record<string, CellValue>>();
  if (tasks.size === 0) return records;
  for (const row of rows) {
    const taskId = taskIdOf(row.taskId);
    const task = taskId === null ? undefined : tasks.get(taskId);
    const mailId = cellText(row.mailId);
    if (!task || !mailId) continue;
    const failed = parseState(row.mailStatus).kind === 'failed';
    const opened = failed ? '' : openedText(task);
    const taskOpens: CellValue = failed ? '' : task.openedCount;
    if (cellText(row.opened) !== opened || cellText(row.taskOpens) !== String(taskOpens))
      records.set(mailId, { opened, taskOpens });
  }
  return records;
}
