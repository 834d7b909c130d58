// The send journal: what makes every mail go out exactly once. The service has no idempotency key, so
// each chunk of up to 100 mails gets a unique tag carried in its task_subject ("<campaign> · <tag>") and is
// written here, with its recipients, BEFORE it is posted. A chunk still here is "in doubt" (its answer may
// never have come: network, time-out, the execution killed): before anything else is sent, it is settled by
// looking its tag up at the service. The chunks posted together (one fetchAll) are one entry, written with
// one property write and deleted together once their ids are on their rows: the sending rows (Task ID, Mail
// ID) are the record of what was sent, so nothing here grows with the mails ever sent — only the entry in
// flight (or a few after failures) and the time of the last send. Recipients are kept compressed (an entry
// of 60 chunks holds 6,000 addresses). Kept in document properties: every editor's executions see the same
// journal, but an entry records its owner and the key it was posted with, and only that user, with that
// key, settles it (another key cannot see the tasks, so it would take a sent chunk for one never sent).
import {
  documentMark,
  TAG_RANDOM_CHARS,
  readLarge,
  writeLarge,
  OwnerStamp,
  ownerStamp,
  packText,
  unpackText,
} from '../../platform';

interface ChunkRecipient {
  /** Recipient address as sent (lower-case key of the row). */
  email: string;
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
  /** A test mail: not on any row. */
  test?: boolean;
  /** A follow-up step's chunk (1-based): its ids go to the follow-up mails (sequence/step-mails.ts). */
  step?: number;
  /** Who posted it and with which key (set when the journal is read). */
  owner?: OwnerStamp;
}

/** Chunks journaled together, and the property keys that hold them. */
export interface JournalEntry {
  keys: string[];
  chunks: JournalChunk[];
}

/** What an entry holds in the store: the chunks' shared fields once, their recipients in one packed text. */
interface StoredEntry {
  v: 2;
  campaign: string;
  sheetId: number;
  sheetName: string;
  postedAt: number;
  test?: true;
  step?: number;
  /** Owner token and key fingerprint (ownerStamp('outreach')) of the user who posted. */
  owner: string;
  keyFp: string;
  tags: string[];
  /** Recipients per chunk, in order, in `to`. */
  sizes: number[];
  /** Every recipient, one a line, packed (packed-text.ts). */
  to: string;
}

const CHUNK_PREFIX = 'send.chunk.';
/** When this document last sent (ms): auto-refresh runs for 30 days after it. One small value. */
const LAST_SEND = 'send.lastAt';
/** An entry's largest stored size: six property values (the journal is written before every post). */
const MAX_ENTRY_CHARS = 48_000;

type Properties = GoogleAppsScript.Properties.Properties;

function store(): Properties {
  return PropertiesService.getDocumentProperties();
}

/** Entries posted or about to be posted whose ids are not on their rows yet, oldest first. */
export function openEntries(all = store().getProperties()): JournalEntry[] {
  const entries: Array<JournalEntry & { at: number }> = [];
  for (const key of Object.keys(all)) {
    if (!key.startsWith(CHUNK_PREFIX) || key.includes('.part')) continue;
    const chunks = chunksOf(readLarge<StoredEntry>(all, key));
    if (chunks.length === 0) continue;
    const keys = [key, ...Object.keys(all).filter((k) => k.startsWith(`${key}.part`))];
    entries.push({ keys, chunks, at: chunks[0].postedAt });
  }
  return entries.sort((a, b) => a.at - b.at).map(({ keys, chunks }) => ({ keys, chunks }));
}

/** Every chunk still in doubt or not yet on its rows. */
export function openChunks(all?: Record<string, string>): JournalChunk[] {
  return openEntries(all).flatMap((entry) => entry.chunks);
}

/**
 * Journals chunks that share campaign, sheet and time, before they are posted: from here on each is in
 * doubt until answered or settled. Takes as many of them as fit in MAX_ENTRY_CHARS (at least one); the
 * entry says which. Throws when the store is full: then nothing was posted.
 */
export function journalChunks(chunks: JournalChunk[]): JournalEntry {
  const stamp = ownerStamp('outreach');
  let taken = chunks.length;
  let stored = storedEntry(chunks, stamp);
  while (taken > 1 && JSON.stringify(stored).length > MAX_ENTRY_CHARS) {
    taken = Math.ceil(taken / 2);
    stored = storedEntry(chunks.slice(0, taken), stamp);
  }
  // The key is new (a fresh tag): no parts of an older value to look for.
  const keys = writeLarge(store(), CHUNK_PREFIX + chunks[0].tag, stored, {});
  return { keys, chunks: chunks.slice(0, taken) };
}

/** The entry's ids are on its rows (or its chunks are known not sent): it leaves the journal. */
export function closeEntry(entry: JournalEntry): void {
  const properties = store();
  for (const key of entry.keys) properties.deleteProperty(key); // the head first: a delete never fails
  const sent = entry.chunks.filter((c) => !c.test && c.ids && Object.keys(c.ids).length > 0);
  if (sent.length > 0) {
    const newest = Math.max(...sent.map((c) => c.postedAt));
    properties.setProperty(LAST_SEND, String(Math.max(lastSendAt(), newest)));
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

/**
 * A tag no earlier chunk has: the document's mark (platform/document-mark.ts: tracking reads only the mails
 * of tasks that carry it) and 10 hex characters of a UUID, searchable without false matches.
 */
export function newTag(): string {
  return `#${documentMark()}${Utilities.getUuid().replace(/-/g, '').slice(0, TAG_RANDOM_CHARS)}`;
}

function storedEntry(chunks: JournalChunk[], stamp: OwnerStamp): StoredEntry {
  const first = chunks[0];
  const entry: StoredEntry = {
    v: 2,
    campaign: first.campaign,
    sheetId: first.sheetId,
    sheetName: first.sheetName,
    postedAt: first.postedAt,
    owner: stamp.owner,
    keyFp: stamp.keyFp,
    tags: chunks.map((c) => c.tag),
    sizes: chunks.map((c) => c.recipients.length),
    to: packText(chunks.flatMap((c) => c.recipients.map((r) => r.email)).join('\n')),
  };
  if (first.test) entry.test = true;
  if (first.step) entry.step = first.step;
  return entry;
}

/** The chunks of a stored entry. */
function chunksOf(stored: StoredEntry | null): JournalChunk[] {
  if (!stored || stored.v !== 2) return [];
  const emails = unpackText(stored.to).split('\n');
  const { campaign, sheetId, sheetName, postedAt, test, step } = stored;
  const owner: OwnerStamp = { owner: stored.owner, keyFp: stored.keyFp, at: postedAt };
  let at = 0;
  return stored.tags.map((tag, i) => {
    const recipients = emails.slice(at, at + stored.sizes[i]).map((email) => ({ email }));
    at += stored.sizes[i];
    const marks = { ...(test ? { test } : {}), ...(step ? { step } : {}) };
    return { tag, campaign, sheetId, sheetName, postedAt, recipients, owner, ...marks };
  });
}
