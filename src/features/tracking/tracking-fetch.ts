// Reading a unit's mails and their tasks at the pace of the rate budget (60 requests per rolling minute):
// GET /api/v1/emails/mails?mail_ids=… (100 ids a request), and for each group of MAILS_PER_GROUP mails, once
// its pages are in, GET /api/v1/emails/tasks?task_ids=… (the tasks its mails belong to, 100 a request).
// Each round sends what the budget has free, one fetchAll per endpoint: whole groups first (their pages,
// then their tasks), then the first pages of the next group with the slots left, so that a window's
// requests all go at its start and the work after the last window is only its few requests. A round starts
// only when it can end before the deadline, and a group is begun only when it can be completed (the next
// window included): out of time, the complete groups are kept and the next step reads the rest, so a
// cut-off wastes no request.
import { ApiError } from '../../api/errors';
import { timeUpInit } from '../../api/error-texts';
import type { OutreachClient } from '../../api';
import type { MailRecord, Task } from '../../api/outreach/email-schemas';
import { chunks } from '../jobs/job-runner';
import { IDS_PER_REQUEST, MAILS_PER_GROUP } from './tracking-data';

/** What a unit read: the mails of its complete groups, in mail-id order, and their tasks. */
export interface GroupsRead {
  /** The mail ids of the complete groups (a prefix of those asked for), ascending. */
  asked: number[];
  mails: MailRecord[];
  tasks: Map<number, Task>;
  /** Out of time before every group was complete (an ApiError of kind 'rate-limit'). */
  cutShort?: ApiError;
  /** An error that ends the refresh (a refused key, a bad request…). */
  error?: ApiError;
}

/** What the step's units learn of the service's pace: the longest round (the next one is expected to take as long). */
export interface Pace {
  roundMs: number;
}

interface Group {
  ids: number[];
  pages: number[][];
  pagesSent: number;
  pagesIn: number;
  mails: MailRecord[];
  /** Set when every page is in: the task-id queries of its mails. */
  taskQueries: number[][] | null;
  tasksSent: number;
  tasksIn: number;
  tasks: Task[];
}

const complete = (g: Group) =>
  g.pagesIn === g.pages.length && g.taskQueries !== null && g.tasksIn === g.taskQueries.length;

/**
 * Reads these mail ids (ascending) and their tasks, each round ending before `deadlineMs` as far as `pace`
 * tells (updated); `progress` hears the mails read after each round.
 */
export function readGroups(
  client: OutreachClient,
  ids: number[],
  deadlineMs: number,
  pace: Pace,
  progress: (mails: number) => void,
): GroupsRead {
  const groups: Group[] = chunks(ids, MAILS_PER_GROUP).map((groupIds) => ({
    ids: groupIds,
    pages: chunks(groupIds, IDS_PER_REQUEST),
    pagesSent: 0,
    pagesIn: 0,
    mails: [],
    taskQueries: null,
    tasksSent: 0,
    tasksIn: 0,
    tasks: [],
  }));
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
      sendRound(client, groups, Math.max(need, budget.available()), deadlineMs, pace);
      if (requestsSent(groups) === before) throw new ApiError(timeUpInit('outreach')); // never spin
      if (groups.some((g) => !complete(g))) progress(groups.reduce((n, g) => n + g.mails.length, 0));
    }
  } catch (thrown) {
    if (!(thrown instanceof ApiError)) throw thrown;
    if (thrown.kind === 'rate-limit') cutShort = thrown;
    else error = thrown;
  }
  return completeGroups(groups, cutShort, error);
}

/**
 * One round with `room` slots: tasks ready, whole groups, then the first pages of the next group if it can
 * be completed before the deadline.
 */
function sendRound(
  client: OutreachClient,
  groups: Group[],
  room: number,
  deadlineMs: number,
  pace: Pace,
): void {
  const started = Date.now();
  room -= sendTasks(client, groups, room);
  const pages = wholeGroupPages(groups, room);
  if (pages > 0) {
    sendPages(client, groups, pages);
    room -= pages;
    room -= sendTasks(client, groups, room);
  }
  pace.roundMs = Math.max(pace.roundMs, Date.now() - started);
  const longest = pace.roundMs;
  const fill = Math.min(room, pagesLeft(groups));
  if (fill > 0 && Date.now() + longest + client.budget.holdMs + longest < deadlineMs) {
    sendPages(client, groups, fill);
  }
}

/** The groups complete from the first on (what a unit can write), and why the rest is not. */
function completeGroups(groups: Group[], cutShort?: ApiError, error?: ApiError): GroupsRead {
  const done: Group[] = [];
  for (const group of groups) {
    if (!complete(group)) break;
    done.push(group);
  }
  const tasks = new Map<number, Task>();
  for (const group of done) for (const task of group.tasks) tasks.set(task.taskId, task);
  const read: GroupsRead = {
    asked: done.flatMap((g) => g.ids),
    mails: done.flatMap((g) => g.mails),
    tasks,
  };
  if (cutShort) read.cutShort = cutShort;
  if (error) read.error = error;
  return read;
}

/** Requests a group still needs: its pages not sent and its tasks (one request until its pages are in). */
function requestsLeft(group: Group): number {
  const tasks = group.taskQueries ? group.taskQueries.length - group.tasksSent : 1;
  return group.pages.length - group.pagesSent + tasks;
}

function requestsSent(groups: Group[]): number {
  return groups.reduce((n, g) => n + g.pagesSent + g.tasksSent, 0);
}

function pagesLeft(groups: Group[]): number {
  return groups.reduce((n, g) => n + g.pages.length - g.pagesSent, 0);
}

/**
 * How many of the next pages make whole groups within `room`: each group's pages left and a slot for its
 * task request (one per group is the usual case; more tasks wait for the next round).
 */
function wholeGroupPages(groups: Group[], room: number): number {
  let pages = 0;
  let used = 0;
  for (const group of groups) {
    const left = group.pages.length - group.pagesSent;
    if (left === 0) continue;
    if (used + left + 1 > room) break;
    pages += left;
    used += left + 1;
  }
  return pages;
}

/** Sends the next `count` pages (one listMailsAll: one fetchAll while the budget has the slots free). */
function sendPages(client: OutreachClient, groups: Group[], count: number): void {
  const sent: Array<{ group: Group; ids: number[] }> = [];
  for (const group of groups) {
    while (sent.length < count && group.pagesSent < group.pages.length) {
      sent.push({ group, ids: group.pages[group.pagesSent++] });
    }
  }
  const answers = client.listMailsAll(
    sent.map(({ ids }) => ({
      mail_ids: ids,
      page_size: IDS_PER_REQUEST,
      sort_by: 'mail_id' as const,
      sort_order: 'asc' as const,
    })),
  );
  answers.forEach((answer, i) => {
    const group = sent[i].group;
    group.mails.push(...answer.data);
    group.pagesIn++;
    if (group.pagesIn === group.pages.length) {
      group.mails.sort((a, b) => a.mailId - b.mailId);
      group.taskQueries = chunks([...new Set(group.mails.map((m) => m.taskId))], IDS_PER_REQUEST);
    }
  });
}

/** Sends the task requests of the groups whose pages are in, at most `room`; returns how many were sent. */
function sendTasks(client: OutreachClient, groups: Group[], room: number): number {
  const sent: Array<{ group: Group; ids: number[] }> = [];
  for (const group of groups) {
    while (sent.length < room && group.taskQueries && group.tasksSent < group.taskQueries.length) {
      sent.push({ group, ids: group.taskQueries[group.tasksSent++] });
    }
  }
  if (sent.length === 0) return 0;
  const answers = client.listTasksAll(
    sent.map(({ ids }) => ({ task_ids: ids, page_size: IDS_PER_REQUEST, sort_by: 'task_id' as const })),
  );
  answers.forEach((answer, i) => {
    sent[i].group.tasks.push(...answer.data);
    sent[i].group.tasksIn++;
  });
  return sent.length;
}
