// The send journal: what makes every mail go out exactly once. The service has no idempotency key, so
// each chunk of up to 100 mails gets a unique tag carried in its task_subject ("<campaign> · <tag>") and is
// written here, with its recipients, BEFORE it is posted; the ids are written here when the answer arrives,
// then onto the rows. A chunk still here without ids is "in doubt" (the answer never came: network, time-out,
// the execution killed): before anything else is sent, it is settled by looking its tag up at the service.
// Settled chunks leave a small record per task (the task list this document sent), which tracking reads.
// Kept in document properties: every editor's executions see the same journal.
import { deleteLarge, readLarge, writeLarge } from '../../platform/large-property';

export interface ChunkRecipient {
  /** Recipient address as sent (lower-case key of the row). */
  email: string;
  /** Sheet row when the chunk was built (a hint: rows are found by address and in-flight status). */
  row: number;
}

export interface JournalChunk {
  tag: string;
  campaign: string;
  sheetId: number;
  sheetName: string;
  recipients: ChunkRecipient[];
  /** When the post was started (ms). */
  postedAt: number;
  /** Set when the service answered: the task and each recipient's mail id. */
  taskId?: number;
  mailIds?: Record<string, number>;
  /** Posts tried for this chunk (a refunded 502 is tried again a bounded number of times). */
  attempts: number;
  /** A test mail: not on any row. */
  test?: boolean;
}

export interface SentTask {
  taskId: number;
  tag: string;
  campaign: string;
  sheetId: number;
  sheetName: string;
  /** When it was sent (ms). */
  at: number;
  count: number;
  test?: boolean;
}

const CHUNK_PREFIX = 'send.chunk.';
const TASKS = 'send.tasks';
/** Tasks remembered for tracking; the oldest are dropped past this (tracking stops after 30 days). */
export const MAX_TASKS = 1000;

type Properties = GoogleAppsScript.Properties.Properties;

function store(): Properties {
  return PropertiesService.getDocumentProperties();
}

/** Chunks posted or about to be posted whose ids are not on their rows yet, oldest first. */
export function openChunks(all = store().getProperties()): JournalChunk[] {
  const chunks: JournalChunk[] = [];
  for (const key of Object.keys(all)) {
    if (!key.startsWith(CHUNK_PREFIX) || key.includes('.part')) continue;
    const chunk = readLarge<JournalChunk>(all, key);
    if (chunk && chunk.tag) chunks.push(chunk);
  }
  return chunks.sort((a, b) => a.postedAt - b.postedAt);
}

/** Written before the post: from here on the chunk is in doubt until its answer or its settlement. */
export function writeChunk(chunk: JournalChunk): void {
  writeLarge(store(), CHUNK_PREFIX + chunk.tag, chunk);
}

/** The chunk's ids are on its rows (or it is known not sent): it leaves the journal, its task is kept. */
export function closeChunk(chunk: JournalChunk): void {
  if (chunk.taskId !== undefined) {
    addTasks([
      {
        taskId: chunk.taskId,
        tag: chunk.tag,
        campaign: chunk.campaign,
        sheetId: chunk.sheetId,
        sheetName: chunk.sheetName,
        at: chunk.postedAt,
        count: Object.keys(chunk.mailIds || {}).length,
        ...(chunk.test ? { test: true } : {}),
      },
    ]);
  }
  deleteLarge(store(), CHUNK_PREFIX + chunk.tag);
}

/** Every task this document sent (newest last), for tracking. */
export function sentTasks(): SentTask[] {
  return readLarge<SentTask[]>(store().getProperties(), TASKS) || [];
}

export function addTasks(tasks: SentTask[]): void {
  const known = sentTasks();
  const ids = new Set(known.map((t) => t.taskId));
  const all = [...known, ...tasks.filter((t) => !ids.has(t.taskId))];
  writeLarge(store(), TASKS, all.slice(-MAX_TASKS));
}

/** A tag no earlier chunk has: 8 characters of a UUID, searchable without false matches. */
export function newTag(): string {
  return `#${Utilities.getUuid().replace(/-/g, '').slice(0, 10)}`;
}
