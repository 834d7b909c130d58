// The send journal: what makes every mail go out exactly once. The service has no idempotency key, so
// each chunk of up to 100 mails gets a unique tag carried in its task_subject ("<campaign> · <tag>") and is
// written here, with its recipients, BEFORE it is posted; the ids are written here when the answer arrives,
// then onto the rows. A chunk still here without ids is "in doubt" (the answer never came: network, time-out,
// the execution killed): before anything else is sent, it is settled by looking its tag up at the service.
// A chunk leaves the journal once its ids are on its rows: the sending rows (Task ID, Mail ID) are the
// record of what was sent, so nothing here grows with the mails ever sent — only the chunks in flight (one,
// or a few after failures) and the time of the last send. Kept in document properties: every editor's
// executions see the same journal.
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
  /**
   * Set when the service answered (or the chunk was found by its tag): recipient → [task id, mail id]. Each
   * mail has its own task id: the service may make one task per chunk, one per mail, or anything between.
   */
  ids?: Record<string, [number, number]>;
  /** Posts tried for this chunk (a refunded 502 is tried again a bounded number of times). */
  attempts: number;
  /** A test mail: not on any row. */
  test?: boolean;
}

const CHUNK_PREFIX = 'send.chunk.';
/** When this document last sent (ms): auto-refresh runs for 30 days after it. One small value. */
const LAST_SEND = 'send.lastAt';

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

/** The chunk's ids are on its rows (or it is known not sent): it leaves the journal. */
export function closeChunk(chunk: JournalChunk): void {
  deleteLarge(store(), CHUNK_PREFIX + chunk.tag); // first: a delete never fails, even in a full store
  if (chunk.ids && Object.keys(chunk.ids).length > 0 && !chunk.test) {
    store().setProperty(LAST_SEND, String(Math.max(lastSendAt(), chunk.postedAt)));
  }
}

/** When this document last sent mails from a sheet (ms), 0 when never. */
export function lastSendAt(): number {
  return Number(store().getProperty(LAST_SEND)) || 0;
}

/** The task id of a recipient's mail in a chunk, and its mail id. */
export function idsOf(chunk: JournalChunk, email: string): { taskId: number; mailId: number } | null {
  const pair = chunk.ids && chunk.ids[email];
  return pair ? { taskId: pair[0], mailId: pair[1] } : null;
}

/** A tag no earlier chunk has: 10 hex characters of a UUID, searchable without false matches. */
export function newTag(): string {
  return `#${Utilities.getUuid().replace(/-/g, '').slice(0, 10)}`;
}
