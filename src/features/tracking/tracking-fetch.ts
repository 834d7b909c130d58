// Reading a unit's mails at the pace of the rate budget (60 requests per rolling minute), only those of
// tasks this document sent. For each group of MAILS_PER_GROUP mails: first GET /api/v1/emails/tasks?task_ids=…
// (the Task IDs found beside its Mail IDs on the sheets, 100 a request); a task is this document's when its
// task subject ends with a tag carrying the document's mark (platform/document-mark.ts). Then, once its
// tasks are in, GET /api/v1/emails/mails?mail_ids=… (100 ids a request) for the mails that have such a task,
// and no other: a Mail ID typed into a cell is never fetched unless its task is one this document sent, and
// a mail returned with another task than those checked is dropped. Each round sends what the budget has
// free, one fetchAll per endpoint: the pages of groups whose tasks are in, whole groups (their tasks, then
// their pages), then the task requests of the next groups with the slots left, so that a window's requests
// all go at its start and the work after the last window is only its few requests. A round starts only when
// it can end before the deadline, and a group is begun only when it can be completed (the next window
// included): out of time, the complete groups are kept and the next step reads the rest, so a cut-off
// wastes no request.
import { ApiError, isForLater } from '../../api/errors';
import { timeUpInit } from '../../api/error-texts';
import type { OutreachClient } from '../../api';
import type { MailRecord, Task } from '../../api/outreach/email-schemas';
import { carriesMark } from '../../platform/document-mark';
import { chunks } from '../jobs/job-runner';
import { IDS_PER_REQUEST, MAILS_PER_GROUP } from './tracking-data';

/** What a unit read: the mails of its complete groups, in mail-id order, and their tasks. */
export interface GroupsRead {
  /** The mail ids of the complete groups (a prefix of those asked for), ascending. */
  asked: number[];
  /** The mails read: each of a task this document sent. */
  mails: MailRecord[];
  /** The tasks of this document among those asked for. */
  tasks: Map<number, Task>;
  /**
   * Mail ids asked for that are not mails of this document, never read: no Task ID beside them, or only
   * tasks of this key that this document did not send (or that do not hold them). The others asked for and
   * not read have tasks the service did not return with this key (sent with another key).
   */
  notThisDocument: number[];
  /** Out of time before every group was complete (an ApiError for later: time-up, rate-budget). */
  cutShort?: ApiError;
  /** An error that ends the refresh (a refused key, a bad request…). */
  error?: ApiError;
}

/** What the step's units learn of the service's pace: the longest round (the next one is expected to take as long). */
export interface Pace {
  roundMs: number;
}

/** The mail ids to read, the Task IDs found beside each, and the document's mark (null: it never sent). */
export interface MailsToRead {
  ids: number[];
  claims: Map<number, number[]>;
  mark: string | null;
  /** Tasks asked for besides (their opens), in the last group's task requests; none of their mails is read. */
  extraTasks?: number[];
}

interface Group {
  ids: number[];
  /** The task-id queries of its mails' claimed tasks. */
  taskQueries: number[][];
  tasksSent: number;
  tasksIn: number;
  /** Every task id the service returned (this document's or not). */
  returned: Set<number>;
  /** The tasks returned that carry the document's mark. */
  mine: Map<number, Task>;
  /** Set when every task is in: the mail-id pages of its mails that have a task of this document. */
  pages: number[][] | null;
  pagesSent: number;
  pagesIn: number;
  mails: MailRecord[];
}

const complete = (g: Group) =>
  g.tasksIn === g.taskQueries.length && g.pages !== null && g.pagesIn === g.pages.length;

/**
 * Reads the tasks of these mail ids (ascending), then the mails of this document's tasks, each round ending
 * before `deadlineMs` as far as `pace` tells (updated); `progress` hears the mails read after each round.
 */
export function readGroups(
  client: OutreachClient,
  toRead: MailsToRead,
  deadlineMs: number,
  pace: Pace,
  progress: (mails: number) => void,
): GroupsRead {
  const claimsOf = (id: number) => toRead.claims.get(id) || [];
  const mailGroups = chunks(toRead.ids, MAILS_PER_GROUP);
  const extra = [...(toRead.extraTasks || [])]; // none of them claimed by these mails (the caller's rule)
  if (mailGroups.length === 0 && extra.length > 0) mailGroups.push([]);
  const groups: Group[] = mailGroups.map((groupIds, g) => {
    const taskIds = [...new Set(groupIds.flatMap(claimsOf))];
    // The extra tasks fill each group's last task request, the rest go with the last group.
    const room =
      g === mailGroups.length - 1
        ? extra.length
        : (IDS_PER_REQUEST - (taskIds.length % IDS_PER_REQUEST)) % IDS_PER_REQUEST;
    taskIds.push(...extra.splice(0, room));
    const group: Group = {
      ids: groupIds,
      taskQueries: chunks(taskIds, IDS_PER_REQUEST),
      tasksSent: 0,
      tasksIn: 0,
      returned: new Set(),
      mine: new Map(),
      pages: null,
      pagesSent: 0,
      pagesIn: 0,
      mails: [],
    };
    if (taskIds.length === 0) group.pages = []; // no task to ask: nothing of it is read
    return group;
  });
  const budget = client.budget;
  let cutShort: ApiError | undefined;
  let error: ApiError | undefined;
  try {
    for (let next = groups.find((g) => !complete(g)); next; next = groups.find((g) => !complete(g))) {
      const need = Math.min(budget.limit, requestsLeft(next));
      const wait = budget.available() >= need ? 0 : budget.waitFor(need);
      if (Date.now() + wait + pace.roundMs >= deadlineMs) throw new ApiError(timeUpInit('outreach'));
      if (wait > 0) Utilities.sleep(wait);
      const before = requestsSent(groups);
      const context = { client, claimsOf, mark: toRead.mark };
      sendRound(context, groups, Math.max(need, budget.available()), deadlineMs, pace);
      if (requestsSent(groups) === before) throw new ApiError(timeUpInit('outreach')); // never spin
      if (groups.some((g) => !complete(g))) progress(groups.reduce((n, g) => n + g.mails.length, 0));
    }
  } catch (thrown) {
    if (!(thrown instanceof ApiError)) throw thrown;
    if (isForLater(thrown)) cutShort = thrown;
    else error = thrown;
  }
  return completeGroups(groups, claimsOf, cutShort, error);
}

interface RoundContext {
  client: OutreachClient;
  claimsOf: (id: number) => number[];
  mark: string | null;
}

/**
 * One round with `room` slots: pages ready, whole groups (tasks, then pages), then the task requests of the
 * next groups if they can be completed before the deadline.
 */
function sendRound(
  context: RoundContext,
  groups: Group[],
  room: number,
  deadlineMs: number,
  pace: Pace,
): void {
  const started = Date.now();
  room -= sendPages(context, groups, room);
  const tasks = wholeGroupTasks(groups, room);
  if (tasks > 0) {
    room -= sendTasks(context, groups, tasks);
    room -= sendPages(context, groups, room);
  }
  pace.roundMs = Math.max(pace.roundMs, Date.now() - started);
  const longest = pace.roundMs;
  const fill = Math.min(room, tasksLeft(groups));
  if (fill > 0 && Date.now() + longest + context.client.budget.holdMs + longest < deadlineMs) {
    sendTasks(context, groups, fill);
  }
}

/** The groups complete from the first on (what a unit can write), and why the rest is not. */
function completeGroups(
  groups: Group[],
  claimsOf: (id: number) => number[],
  cutShort?: ApiError,
  error?: ApiError,
): GroupsRead {
  const done: Group[] = [];
  for (const group of groups) {
    if (!complete(group)) break;
    done.push(group);
  }
  const tasks = new Map<number, Task>();
  const notThisDocument: number[] = [];
  for (const group of done) {
    for (const [id, task] of group.mine) tasks.set(id, task);
    const read = new Set(group.mails.map((m) => m.mailId));
    for (const id of group.ids) {
      if (read.has(id)) continue;
      const claimed = claimsOf(id);
      // A task of this document that does not hold it, or no task but tasks of this key without the mark.
      const mine = claimed.some((t) => group.mine.has(t));
      if (mine || claimed.every((t) => group.returned.has(t))) notThisDocument.push(id);
    }
  }
  const read: GroupsRead = {
    asked: done.flatMap((g) => g.ids),
    mails: done.flatMap((g) => g.mails),
    tasks,
    notThisDocument,
  };
  if (cutShort) read.cutShort = cutShort;
  if (error) read.error = error;
  return read;
}

/** The most mail pages a group can need: one per 100 of its mails (all of them of this document's tasks). */
const pagesAtMost = (group: Group) => Math.ceil(group.ids.length / IDS_PER_REQUEST);

/** Requests a group still needs: its task requests not sent and its pages (at most, until its tasks are in). */
function requestsLeft(group: Group): number {
  const pages = group.pages ? group.pages.length - group.pagesSent : pagesAtMost(group);
  return group.taskQueries.length - group.tasksSent + pages;
}

function requestsSent(groups: Group[]): number {
  return groups.reduce((n, g) => n + g.tasksSent + g.pagesSent, 0);
}

function tasksLeft(groups: Group[]): number {
  return groups.reduce((n, g) => n + g.taskQueries.length - g.tasksSent, 0);
}

/**
 * How many of the next task requests make whole groups within `room`: each group's task requests left and
 * the slots its pages may take.
 */
function wholeGroupTasks(groups: Group[], room: number): number {
  let tasks = 0;
  let used = 0;
  for (const group of groups) {
    const left = group.taskQueries.length - group.tasksSent;
    if (left === 0) continue;
    if (used + left + pagesAtMost(group) > room) break;
    tasks += left;
    used += left + pagesAtMost(group);
  }
  return tasks;
}

/**
 * Sends the next `count` task requests (one listTasksAll: one fetchAll while the budget has the slots free).
 * A group whose tasks are all in gets its pages: its mails that have a task of this document.
 */
function sendTasks(context: RoundContext, groups: Group[], count: number): number {
  const sent: Array<{ group: Group; ids: number[] }> = [];
  for (const group of groups) {
    while (sent.length < count && group.tasksSent < group.taskQueries.length) {
      sent.push({ group, ids: group.taskQueries[group.tasksSent++] });
    }
  }
  if (sent.length === 0) return 0;
  const answers = context.client.listTasksAll(
    sent.map(({ ids }) => ({ task_ids: ids, page_size: IDS_PER_REQUEST, sort_by: 'task_id' as const })),
  );
  answers.forEach((answer, i) => {
    const group = sent[i].group;
    for (const task of answer.data) {
      group.returned.add(task.taskId);
      if (carriesMark(task.taskSubject, context.mark)) group.mine.set(task.taskId, task);
    }
    group.tasksIn++;
    if (group.tasksIn === group.taskQueries.length) {
      const ours = group.ids.filter((id) => context.claimsOf(id).some((t) => group.mine.has(t)));
      group.pages = chunks(ours, IDS_PER_REQUEST);
    }
  });
  return sent.length;
}

/**
 * Sends the pages of the groups whose tasks are in, at most `room` (one listMailsAll); returns how many were
 * sent. A mail returned with a task that is not one of this document's claimed beside it is dropped.
 */
function sendPages(context: RoundContext, groups: Group[], room: number): number {
  const sent: Array<{ group: Group; ids: number[] }> = [];
  for (const group of groups) {
    while (sent.length < room && group.pages && group.pagesSent < group.pages.length) {
      sent.push({ group, ids: group.pages[group.pagesSent++] });
    }
  }
  if (sent.length === 0) return 0;
  const answers = context.client.listMailsAll(
    sent.map(({ ids }) => ({
      mail_ids: ids,
      page_size: IDS_PER_REQUEST,
      sort_by: 'mail_id' as const,
      sort_order: 'asc' as const,
    })),
  );
  answers.forEach((answer, i) => {
    const group = sent[i].group;
    const asked = new Set(sent[i].ids);
    group.mails.push(
      ...answer.data.filter(
        (mail) =>
          asked.has(mail.mailId) &&
          group.mine.has(mail.taskId) &&
          context.claimsOf(mail.mailId).includes(mail.taskId),
      ),
    );
    group.pagesIn++;
    if (group.pagesIn === group.pages!.length) group.mails.sort((a, b) => a.mailId - b.mailId);
  });
  return sent.length;
}
