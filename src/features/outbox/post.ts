// Posting chunks of up to 100 personalized mails, each exactly once. The chunks are journaled together
// (tags and recipients) before they are posted with one fetchAll, and each answer is read on its own. A
// chunk whose answer never came is settled by its tag: the service is asked for the tasks whose
// task_subject carries the tag; found → their mail ids are taken; surely absent (the look-up answered, with
// no such task) → it may be posted again. Nothing is posted while an earlier chunk is in doubt.
import { addressKey } from '../../sheets';
import {
  ApiError,
  isForLater,
  runEffect,
  timeUpInit,
  type OutreachClient,
  type PersonalizedEmail,
  type SendPersonalizedResponse,
} from '../../api';
import { closeEntry, JournalChunk, JournalEntry, journalChunks, openEntries } from './journal';
import { taskSubject } from './mail-template';
import { ownershipOf } from '../../platform';
import { UserError } from '../errors';

/** Posts of one chunk at most (a refunded 502 is tried again after settling). */
const MAX_ATTEMPTS = 3;

type PostOutcome =
  | { sent: true; chunk: JournalChunk }
  /** Definitely not sent (refused, refunded): the rows say why; `stop` ends the run. */
  | { sent: false; error: ApiError; stop: boolean }
  /** Not posted (no rate slot before the deadline): its rows wait for the next step. */
  | { sent: false; later: true; error: ApiError }
  /** The answer was lost and the look-up failed: in doubt until a later run settles it. */
  | { sent: false; doubt: true; error: ApiError };

export interface Posted {
  /** The chunks journaled and posted (the first ones given, as many as the journal entry holds). */
  entry: JournalEntry;
  outcomes: PostOutcome[];
}

/**
 * Journals the chunks (as many as one entry holds), posts them together and settles each answer. `emails`
 * holds each chunk's mails, in order; `cancelled` (Stop) is asked before each batch and during rate waits.
 * The entry stays in the journal: close it once the rows are written, unless a chunk is in doubt.
 */
export function postChunks(
  client: OutreachClient,
  chunks: JournalChunk[],
  emails: PersonalizedEmail[][],
  onAnswered?: (answered: number) => void,
  cancelled?: () => boolean,
): Posted {
  const entry = journalChunks(chunks); // before the posts: from here the chunks are in doubt
  const requests = entry.chunks.map((chunk, i) => ({
    task_subject: taskSubject(chunk.campaign, chunk.tag),
    emails: emails[i],
  }));
  const { outcomes: answers, stopped } = client.sendPersonalizedAll(requests, onAnswered, cancelled);
  const outcomes = entry.chunks.map((chunk, i): PostOutcome => {
    const answer = answers[i];
    if (!answer) return notPosted(stopped ?? new ApiError(timeUpInit('outreach')));
    if (answer.ok) return took(chunk, answer.value);
    return afterFailure(client, chunk, requests[i], answer.error);
  });
  return { entry, outcomes };
}

function took(chunk: JournalChunk, answer: SendPersonalizedResponse): PostOutcome {
  // Each mail's own task: one task per chunk, one per mail, or anything between.
  chunk.ids = {};
  for (const mail of answer.tasks) chunk.ids[addressKey(mail.email)] = [mail.task_id, mail.mail_id];
  return { sent: true, chunk };
}

/** A post failed: a lost or refunded answer is settled by tag and posted again (same tag) when not sent. */
function afterFailure(
  client: OutreachClient,
  chunk: JournalChunk,
  request: Parameters<OutreachClient['sendPersonalized']>[0],
  first: ApiError,
): PostOutcome {
  let error = first;
  for (let attempt = 1; ; attempt++) {
    if (isForLater(error)) return { sent: false, later: true, error }; // refused before it ran
    const refunded = error.kind === 'server' && error.slug === 'upstream-error';
    if (error.kind !== 'outcome-unknown' && !refunded) {
      return { sent: false, error, stop: stops(error) };
    }
    // The service may have taken it (lost answer), or took and refunded it (502): look it up by tag.
    try {
      if (settleChunk(client, chunk)) return { sent: true, chunk };
    } catch (lookup) {
      if (lookup instanceof ApiError) return { sent: false, doubt: true, error: lookup };
      throw lookup;
    }
    if (attempt >= MAX_ATTEMPTS) return { sent: false, error, stop: stops(error) };
    try {
      return took(chunk, client.sendPersonalized(request));
    } catch (again) {
      if (!(again instanceof ApiError)) throw again;
      error = again;
    }
  }
}

/** Not posted at all: the run stopped first (out of time or rate slots: later; a refused key: a stop). */
function notPosted(stopped: ApiError): PostOutcome {
  if (isForLater(stopped)) return { sent: false, later: true, error: stopped };
  return { sent: false, error: stopped, stop: stops(stopped) };
}

/** The run ends for good: the next chunk would fail the same way. */
function stops(error: ApiError): boolean {
  return runEffect(error) === 'stop';
}

/**
 * Looks the chunk up by its tag. True when the service has it (ids now in the chunk); false when the
 * look-up answered without it (surely not sent). A failed look-up throws: still in doubt.
 * The chunk may be one task or up to one task per mail (at most 100 either way): every task carrying the
 * tag is taken, and each mail keeps its own task id.
 */
function settleChunk(client: OutreachClient, chunk: JournalChunk): boolean {
  if (chunk.ids) return true;
  const tasks = client
    .listTasks({ task_subject: chunk.tag, page_size: 100 })
    .data.filter((task) => (task.taskSubject || '').endsWith(chunk.tag));
  if (tasks.length === 0) return false;
  const ids: Record<string, [number, number]> = {};
  const taskIds = tasks.map((t) => t.taskId);
  const expected = tasks.reduce((n, t) => n + t.totalCount, 0);
  for (let page = 1, read = 0; page <= 10; page++) {
    const mails = client.listMails({
      task_ids: taskIds,
      page,
      page_size: 100,
      sort_by: 'mail_id',
      sort_order: 'asc',
    });
    for (const mail of mails.data) ids[addressKey(mail.recipientEmail)] = [mail.taskId, mail.mailId];
    read += mails.data.length;
    if (mails.data.length < 100 || read >= Math.min(expected, mails.total)) break;
  }
  chunk.ids = ids;
  return true;
}

/**
 * Settles every chunk this user left in doubt with this key. `write` puts the ids of a found chunk on its
 * rows (false: they cannot be shown now, the entry stays); a chunk surely not sent is left as it is (its rows are still queued: the send posts them again).
 * An entry leaves the journal once all its chunks are settled; a failed look-up throws (still in doubt).
 * Another user's entries are theirs to settle (their tasks are not visible with this key); this user's
 * entries posted with another key throw a UserError that says so: nothing more is sent until it is back.
 */
export function settleOpenChunks(client: OutreachClient, write: (chunk: JournalChunk) => boolean): void {
  for (const entry of openEntries()) {
    const who = ownershipOf(entry.chunks[0].owner || {}, 'outreach');
    if (who === 'other') continue;
    if (who === 'my-other-key') throw new UserError(OTHER_KEY_DOUBT);
    let shown = true;
    for (const chunk of entry.chunks) if (settleChunk(client, chunk)) shown = write(chunk) && shown;
    if (shown) closeEntry(entry); // else owed: its views are written by a later run
  }
}

const OTHER_KEY_DOUBT =
  'Your last send was cut off before the service answered, and it was made with another outreach API key: only that key can tell whether it went out. Put that key back in Extensions › Outreach › Settings; nothing more is sent until then, so no row is sent twice.';
