// Reading a unit's mails at the pace of the rate budget (60 requests per rolling minute), only those of
// tasks this document sent. For each chunk of MAILS_PER_CHUNK mails: first GET /api/v1/emails/tasks?task_ids=…
// (the Task IDs found beside its Mail IDs on the sheets, 100 a request); a task is this document's when its
// task subject ends with a tag carrying the document's mark (platform/document-mark.ts). Then, once its
// tasks are in, GET /api/v1/emails/mails?mail_ids=… (100 ids a request) for the mails that have such a task,
// and no other: a Mail ID typed into a cell is never fetched unless its task is one this document sent, and
// a mail returned with another task than those checked is dropped. Each batch sends what the budget has
// free, one fetchAll per endpoint: the pages of chunks whose tasks are in, whole chunks (their tasks, then
// their pages), then the task requests of the next chunks with the slots left, so that a window's requests
// all go at its start and the work after the last window is only its few requests. A batch starts only when
// it can end before the deadline, and a chunk is begun only when it can be completed (the next window
// included): out of time, the complete chunks are kept and the next slice reads the rest, so a cut-off
// wastes no request.
import { ApiError, isForLater, timeUpInit, type OutreachClient, type MailRecord, type Task } from '../../api';
import { carriesMark, splitEvery } from '../../platform';
import { IDS_PER_REQUEST, MAILS_PER_CHUNK } from './tracking-data';

/** What a unit read: the mails of its complete chunks, in mail-id order, and their tasks. */
export interface ChunksRead {
  /** The mail ids of the complete chunks (a prefix of those asked for), ascending. */
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
  /** Out of time before every chunk was complete (an ApiError for later: time-up, rate-budget). */
  cutShort?: ApiError;
  /** An error that ends the refresh (a refused key, a bad request…). */
  error?: ApiError;
}

/** What the slice's units learn of the service's pace: the longest batch (the next one is expected to take as long). */
export interface Pace {
  batchMs: number;
}

/** The mail ids to read, the Task IDs found beside each, and the document's mark (null: it never sent). */
interface MailsToRead {
  ids: number[];
  claims: Map<number, number[]>;
  mark: string | null;
  /** Tasks asked for besides (their opens), in the last chunk's task requests; none of their mails is read. */
  extraTasks?: number[];
}

interface Chunk {
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

const complete = (g: Chunk) =>
  g.tasksIn === g.taskQueries.length && g.pages !== null && g.pagesIn === g.pages.length;

/**
 * Reads the tasks of these mail ids (ascending), then the mails of this document's tasks, each batch ending
 * before `deadlineMs` as far as `pace` tells (updated); `progress` hears the mails read after each batch.
 */
export function readChunks(
  client: OutreachClient,
  toRead: MailsToRead,
  deadlineMs: number,
  pace: Pace,
  progress: (mails: number) => void,
): ChunksRead {
  const claimsOf = (id: number) => toRead.claims.get(id) || [];
  const mailChunks = splitEvery(toRead.ids, MAILS_PER_CHUNK);
  const extra = [...(toRead.extraTasks || [])]; // none of them claimed by these mails (the caller's rule)
  if (mailChunks.length === 0 && extra.length > 0) mailChunks.push([]);
  const chunks: Chunk[] = mailChunks.map((chunkIds, g) => {
    const taskIds = [...new Set(chunkIds.flatMap(claimsOf))];
    // The extra tasks fill each chunk's last task request, the rest go with the last chunk.
    const room =
      g === mailChunks.length - 1
        ? extra.length
        : (IDS_PER_REQUEST - (taskIds.length % IDS_PER_REQUEST)) % IDS_PER_REQUEST;
    taskIds.push(...extra.splice(0, room));
    const chunk: Chunk = {
      ids: chunkIds,
      taskQueries: splitEvery(taskIds, IDS_PER_REQUEST),
      tasksSent: 0,
      tasksIn: 0,
      returned: new Set(),
      mine: new Map(),
      pages: null,
      pagesSent: 0,
      pagesIn: 0,
      mails: [],
    };
    if (taskIds.length === 0) chunk.pages = []; // no task to ask: nothing of it is read
    return chunk;
  });
  const budget = client.budget;
  let cutShort: ApiError | undefined;
  let error: ApiError | undefined;
  try {
    for (let next = chunks.find((g) => !complete(g)); next; next = chunks.find((g) => !complete(g))) {
      const need = Math.min(budget.limit, requestsLeft(next));
      const wait = budget.available() >= need ? 0 : budget.waitFor(need);
      if (Date.now() + wait + pace.batchMs >= deadlineMs) throw new ApiError(timeUpInit('outreach'));
      if (wait > 0) Utilities.sleep(wait);
      const before = requestsSent(chunks);
      const context = { client, claimsOf, mark: toRead.mark };
      sendBatch(context, chunks, Math.max(need, budget.available()), deadlineMs, pace);
      if (requestsSent(chunks) === before) throw new ApiError(timeUpInit('outreach')); // never spin
      if (chunks.some((g) => !complete(g))) progress(chunks.reduce((n, g) => n + g.mails.length, 0));
    }
  } catch (thrown) {
    if (!(thrown instanceof ApiError)) throw thrown;
    if (isForLater(thrown)) cutShort = thrown;
    else error = thrown;
  }
  return completeChunks(chunks, claimsOf, cutShort, error);
}

interface BatchContext {
  client: OutreachClient;
  claimsOf: (id: number) => number[];
  mark: string | null;
}

/**
 * One batch with `room` slots: pages ready, whole chunks (tasks, then pages), then the task requests of the
 * next chunks if they can be completed before the deadline.
 */
function sendBatch(
  context: BatchContext,
  chunks: Chunk[],
  room: number,
  deadlineMs: number,
  pace: Pace,
): void {
  const started = Date.now();
  room -= sendPages(context, chunks, room);
  const tasks = wholeChunkTasks(chunks, room);
  if (tasks > 0) {
    room -= sendTasks(context, chunks, tasks);
    room -= sendPages(context, chunks, room);
  }
  pace.batchMs = Math.max(pace.batchMs, Date.now() - started);
  const longest = pace.batchMs;
  const fill = Math.min(room, tasksLeft(chunks));
  if (fill > 0 && Date.now() + longest + context.client.budget.holdMs + longest < deadlineMs) {
    sendTasks(context, chunks, fill);
  }
}

/** The chunks complete from the first on (what a unit can write), and why the rest is not. */
function completeChunks(
  chunks: Chunk[],
  claimsOf: (id: number) => number[],
  cutShort?: ApiError,
  error?: ApiError,
): ChunksRead {
  const done: Chunk[] = [];
  for (const chunk of chunks) {
    if (!complete(chunk)) break;
    done.push(chunk);
  }
  const tasks = new Map<number, Task>();
  const notThisDocument: number[] = [];
  for (const chunk of done) {
    for (const [id, task] of chunk.mine) tasks.set(id, task);
    const read = new Set(chunk.mails.map((m) => m.mailId));
    for (const id of chunk.ids) {
      if (read.has(id)) continue;
      const claimed = claimsOf(id);
      // A task of this document that does not hold it, or no task but tasks of this key without the mark.
      const mine = claimed.some((t) => chunk.mine.has(t));
      if (mine || claimed.every((t) => chunk.returned.has(t))) notThisDocument.push(id);
    }
  }
  const read: ChunksRead = {
    asked: done.flatMap((g) => g.ids),
    mails: done.flatMap((g) => g.mails),
    tasks,
    notThisDocument,
  };
  if (cutShort) read.cutShort = cutShort;
  if (error) read.error = error;
  return read;
}

/** The most mail pages a chunk can need: one per 100 of its mails (all of them of this document's tasks). */
const pagesAtMost = (chunk: Chunk) => Math.ceil(chunk.ids.length / IDS_PER_REQUEST);

/** Requests a chunk still needs: its task requests not sent and its pages (at most, until its tasks are in). */
function requestsLeft(chunk: Chunk): number {
  const pages = chunk.pages ? chunk.pages.length - chunk.pagesSent : pagesAtMost(chunk);
  return chunk.taskQueries.length - chunk.tasksSent + pages;
}

function requestsSent(chunks: Chunk[]): number {
  return chunks.reduce((n, g) => n + g.tasksSent + g.pagesSent, 0);
}

function tasksLeft(chunks: Chunk[]): number {
  return chunks.reduce((n, g) => n + g.taskQueries.length - g.tasksSent, 0);
}

/**
 * How many of the next task requests make whole chunks within `room`: each chunk's task requests left and
 * the slots its pages may take.
 */
function wholeChunkTasks(chunks: Chunk[], room: number): number {
  let tasks = 0;
  let used = 0;
  for (const chunk of chunks) {
    const left = chunk.taskQueries.length - chunk.tasksSent;
    if (left === 0) continue;
    if (used + left + pagesAtMost(chunk) > room) break;
    tasks += left;
    used += left + pagesAtMost(chunk);
  }
  return tasks;
}

/**
 * Sends the next `count` task requests (one listTasksAll: one fetchAll while the budget has the slots free).
 * A chunk whose tasks are all in gets its pages: its mails that have a task of this document.
 */
function sendTasks(context: BatchContext, chunks: Chunk[], count: number): number {
  const sent: Array<{ chunk: Chunk; ids: number[] }> = [];
  for (const chunk of chunks) {
    while (sent.length < count && chunk.tasksSent < chunk.taskQueries.length) {
      sent.push({ chunk, ids: chunk.taskQueries[chunk.tasksSent++] });
    }
  }
  if (sent.length === 0) return 0;
  const answers = context.client.listTasksAll(
    sent.map(({ ids }) => ({ task_ids: ids, page_size: IDS_PER_REQUEST, sort_by: 'task_id' as const })),
  );
  answers.forEach((answer, i) => {
    const chunk = sent[i].chunk;
    for (const task of answer.data) {
      chunk.returned.add(task.taskId);
      if (carriesMark(task.taskSubject, context.mark)) chunk.mine.set(task.taskId, task);
    }
    chunk.tasksIn++;
    if (chunk.tasksIn === chunk.taskQueries.length) {
      const ours = chunk.ids.filter((id) => context.claimsOf(id).some((t) => chunk.mine.has(t)));
      chunk.pages = splitEvery(ours, IDS_PER_REQUEST);
    }
  });
  return sent.length;
}

/**
 * Sends the pages of the chunks whose tasks are in, at most `room` (one listMailsAll); returns how many were
 * sent. A mail returned with a task that is not one of this document's claimed beside it is dropped.
 */
function sendPages(context: BatchContext, chunks: Chunk[], room: number): number {
  const sent: Array<{ chunk: Chunk; ids: number[] }> = [];
  for (const chunk of chunks) {
    while (sent.length < room && chunk.pages && chunk.pagesSent < chunk.pages.length) {
      sent.push({ chunk, ids: chunk.pages[chunk.pagesSent++] });
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
    const chunk = sent[i].chunk;
    const asked = new Set(sent[i].ids);
    chunk.mails.push(
      ...answer.data.filter(
        (mail) =>
          asked.has(mail.mailId) &&
          chunk.mine.has(mail.taskId) &&
          context.claimsOf(mail.mailId).includes(mail.taskId),
      ),
    );
    chunk.pagesIn++;
    if (chunk.pagesIn === chunk.pages!.length) chunk.mails.sort((a, b) => a.mailId - b.mailId);
  });
  return sent.length;
}
