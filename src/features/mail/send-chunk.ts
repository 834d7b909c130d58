// Posting one chunk of up to 100 personalized mails exactly once. The chunk is journaled (with its tag and
// recipients) before the post and gets its ids in the journal when the answer comes. A chunk whose answer
// never came is settled by its tag: the service is asked for the task whose task_subject carries the tag;
// found → its mail ids are taken; surely absent (the look-up answered, with no such task) → it may be posted
// again. Nothing is posted while an earlier chunk is in doubt.
import { ApiError } from '../../api/errors';
import type { OutreachClient } from '../../api/outreach/outreach-client';
import type { PersonalizedEmail } from '../../api/outreach/email-schemas';
import { closeChunk, JournalChunk, openChunks, writeChunk } from './send-journal';
import { taskSubject } from './mail-template';

/** Posts of one chunk at most (a refunded 502 is tried again after settling). */
export const MAX_ATTEMPTS = 3;

export type PostOutcome =
  | { sent: true; chunk: JournalChunk }
  /** Definitely not sent (refused, refunded): the rows say why; `stop` ends the run. */
  | { sent: false; error: ApiError; stop: boolean };

/** Errors that end the run: the next chunk would fail the same way. */
const STOPS = new Set([
  'funds',
  'plan',
  'quota',
  'auth',
  'missing-key',
  'gone',
  'address',
  'address-not-allowed',
]);

/** Posts a journaled chunk; settles it when the answer is lost. Throws ApiError 'rate-limit' (not sent). */
export function postChunk(
  client: OutreachClient,
  chunk: JournalChunk,
  emails: PersonalizedEmail[],
): PostOutcome {
  for (;;) {
    chunk.attempts++;
    writeChunk(chunk); // before the post: from here the chunk is in doubt until answered or settled
    try {
      const answer = client.sendPersonalized({
        task_subject: taskSubject(chunk.campaign, chunk.tag),
        emails,
      });
      // Each mail's own task: one task per chunk, one per mail, or anything between.
      chunk.ids = {};
      for (const mail of answer.tasks) chunk.ids[mail.email.toLowerCase()] = [mail.task_id, mail.mail_id];
      writeChunk(chunk);
      return { sent: true, chunk };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const refunded = error.kind === 'server' && error.slug === 'upstream-error';
      if (error.kind === 'outcome-unknown' || refunded) {
        // The service may have taken it (lost answer), or took and refunded it (502): look it up by tag.
        if (settleChunk(client, chunk)) return { sent: true, chunk };
        if (chunk.attempts < MAX_ATTEMPTS) continue;
      }
      closeChunk(chunk); // known not sent
      if (error.kind === 'rate-limit') throw error; // not sent: the next step posts it
      return { sent: false, error, stop: STOPS.has(error.kind) };
    }
  }
}

/**
 * Looks the chunk up by its tag. True when the service has it (ids now in the chunk and the journal);
 * false when the look-up answered without it (surely not sent). A failed look-up throws: still in doubt.
 * The chunk may be one task or up to one task per mail (at most 100 either way): every task carrying the
 * tag is taken, and each mail keeps its own task id.
 */
export function settleChunk(client: OutreachClient, chunk: JournalChunk): boolean {
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
    for (const mail of mails.data) ids[mail.recipientEmail.toLowerCase()] = [mail.taskId, mail.mailId];
    read += mails.data.length;
    if (mails.data.length < 100 || read >= Math.min(expected, mails.total)) break;
  }
  chunk.ids = ids;
  writeChunk(chunk);
  return true;
}

/**
 * Settles every chunk left in doubt by an earlier execution. `write` puts the ids of a found chunk on its
 * rows; the chunk then leaves the journal. A chunk surely not sent leaves it too (its rows are still
 * queued: the send posts them again).
 */
export function settleOpenChunks(client: OutreachClient, write: (chunk: JournalChunk) => void): number {
  let settled = 0;
  for (const chunk of openChunks()) {
    if (settleChunk(client, chunk)) write(chunk);
    closeChunk(chunk);
    settled++;
  }
  return settled;
}
