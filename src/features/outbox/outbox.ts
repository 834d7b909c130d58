// The one sending core: every mail the add-on sends — a first mail, a follow-up step, a scheduled or waiting
// send, a test — goes through here. A batch of rows is rendered, cut into chunks of 100, journaled, posted
// together and settled (post.ts, journal.ts); what the service took is recorded in the ledger
// (ledger.ts) before its journal entry closes, so a kill anywhere is settled by tag and never posted twice.
// The views (the list's cells, the follow-ups sheet) are written by the caller between post and close.
import { countDay } from './daily-limit';
import { addressKey, type ListRow, MailingList, RecipientColumnMissing, ViewNotWritten } from '../../sheets';
import { type OutreachClient } from '../../api';
import { DAY_MS, splitEvery } from '../../platform';
import type { StoredTemplate } from './mail-templates';
import { stepCampaign, stepTemplate } from './follow-ups';
import { batchMails } from './batch-mails';
import { closeEntry, type JournalChunk, newTag } from './journal';
import { Ledger, markSet } from './ledger';
import { writeIds } from './list-view';
import { addressMark } from './marks';
import { type Posted, postChunks, settleOpenChunks } from './post';
import { writeStepMails } from './step-mails';
import { recordTestChunk } from './subject-test';

export const SEND_CHUNK = 100;
/** How long a batch whose list cannot show it stays owed in the journal (the record keeps its mails anyway). */
const OWED_MS = 7 * DAY_MS;
/** The lease every sending run takes (a send's steps, a sequence's run): one at a time per document. */
export const SEND_LEASE = 'send';
/**
 * Chunks posted together (one journal write, one fetchAll, one read of the list, one write of the results):
 * a minute of the service's rate limit, so the first minute's requests go at once.
 */
export const BATCH_CHUNKS = 60;

/** Rows of one list to get mail `step` (0: the first mail) of `template`. */
export interface Batch {
  list: MailingList;
  template: StoredTemplate;
  step: number;
  rows: ListRow[];
  unsubscribe: string;
  /** A subject test's rows: each row's subject (an index of `subjects`); each chunk holds one subject. */
  subjects?: { of: (row: ListRow) => number; texts: string[] };
}

interface PostHooks {
  /** Called as answers come (how many chunks answered so far). */
  onAnswered?: (answered: number) => void;
  /** Stop pressed: asked before each request and during rate waits. */
  cancelled?: () => boolean;
}

/**
 * Posts a batch exactly once: its chunks journaled, posted together, each answer settled, and what went
 * recorded in the ledger. The caller writes the views, then calls closeBatch.
 */
export function postBatch(client: OutreachClient, batch: Batch, hooks: PostHooks = {}): Posted {
  const { list, template, step, unsubscribe } = batch;
  const mail = step ? stepTemplate(template, template.followUps || [], step) : template;
  const { candidates, mails } = chunksBySubject(batch, mail);
  const emails = batchMails(candidates, mails, unsubscribe);
  const postedAt = Date.now();
  const sheetId = list.sheet.getSheetId();
  const sheetName = list.sheet.getName(); // asked once: each is a service call
  const chunks = candidates.slice(0, emails.length).map((chunkRows): JournalChunk => ({
    tag: newTag(),
    campaign: step ? stepCampaign(template.campaign, step) : template.campaign,
    sheetId,
    sheetName,
    recipients: chunkRows.map((row) => ({ email: row.key })),
    postedAt,
    ...(step ? { step } : {}),
  }));
  const posted = postChunks(client, chunks, emails, hooks.onAnswered, hooks.cancelled);
  recordPosted(posted.outcomes.flatMap((o) => (o.sent ? [o.chunk] : [])));
  return posted;
}

/** The batch's rows in chunks of 100, each chunk's mail: one subject per chunk (a subject test's tasks apart). */
function chunksBySubject(
  batch: Batch,
  mail: StoredTemplate,
): { candidates: ListRow[][]; mails: StoredTemplate[] } {
  const { subjects } = batch;
  if (!subjects) {
    const candidates = splitEvery(batch.rows, SEND_CHUNK);
    return { candidates, mails: candidates.map(() => mail) };
  }
  const groups = new Map<number, ListRow[]>();
  for (const row of batch.rows) {
    const v = subjects.of(row);
    groups.set(v, [...(groups.get(v) || []), row]);
  }
  const candidates: ListRow[][] = [];
  const mails: StoredTemplate[] = [];
  for (const [v, rows] of [...groups].sort((a, b) => a[0] - b[0]))
    for (const chunk of splitEvery(rows, SEND_CHUNK)) {
      candidates.push(chunk);
      mails.push({ ...mail, subject: subjects.texts[v] ?? mail.subject });
    }
  return { candidates, mails };
}

/** The batch's views are written: its journal entry closes, unless a chunk is in doubt (settled later). */
export function closeBatch(posted: Posted): boolean {
  if (posted.outcomes.some((o) => !o.sent && 'doubt' in o)) return false;
  closeEntry(posted.entry);
  return true;
}

/**
 * The ledger takes what the service took: each recipient's mail of the chunk's step, at its time.
 * Taking the same chunk twice (a settle after a kill) changes nothing.
 */
function recordPosted(chunks: JournalChunk[]): void {
  const sent = chunks.filter((c) => !c.test && c.ids && Object.keys(c.ids).length > 0);
  if (sent.length === 0) return;
  Ledger.change((ledger) => {
    for (const chunk of sent) {
      const list = ledger.list(chunk.sheetId);
      // Whom a first mail went to is kept per campaign, whatever becomes of the list, its rows or its record.
      if (!chunk.step) {
        const campaign = ledger.campaignMark(chunk.campaign);
        for (const { email } of chunk.recipients) ledger.recordMailed(campaign, email, chunk.postedAt);
        if (list && list.again) list.again = withoutAgain(ledger, list.again, chunk) || undefined;
      }
      ledger.countPosted(chunk.sheetId, chunk.postedAt, Object.keys(chunk.ids!).length);
      ledger.recordPostedMails(Object.values(chunk.ids!), chunk.postedAt);
      if (!list) continue;
      countDay(list, chunk.postedAt, Object.keys(chunk.ids!).length);
      for (const { email } of chunk.recipients) {
        const person = chunk.ids![email] && list.people.get(addressMark(ledger.secret, email));
        if (!person || person.posted > (chunk.step || 0)) continue;
        person.posted = (chunk.step || 0) + 1;
        person.at = chunk.postedAt;
      }
      const first = chunk.recipients[0];
      if (!chunk.step && first && list.test) {
        const tasks = [...new Set(Object.values(chunk.ids!).map((pair) => pair[0]))];
        recordTestChunk(list, addressMark(ledger.secret, first.email), tasks, chunk.postedAt);
      }
    }
  });
}

/** The marks of `again` but those of the chunk's recipients (their mail went again: once). */
function withoutAgain(ledger: Ledger, again: string, chunk: JournalChunk): string {
  const gone = new Set(chunk.recipients.map((r) => addressMark(ledger.secret, r.email)));
  return [...markSet(again)].filter((addr) => !gone.has(addr)).join('');
}

/**
 * Chunks this user left in doubt are settled before anything else is posted: one found by its tag is
 * recorded and shown (a first mail on `list` when given, a step on the follow-ups sheet); one surely not
 * sent stays for its run to post again.
 */
export function settleOpen(client: OutreachClient, list?: MailingList): void {
  settleOpenChunks(client, (chunk) => {
    recordPosted([chunk]);
    if (chunk.step) writeStepMails(chunk);
    if (chunk.step || chunk.test) return true;
    const view = list && list.sheet.getSheetId() === chunk.sheetId ? list : listOf(chunk.sheetId);
    let shown = false;
    try {
      if (view) {
        writeIds(view, chunk);
        shown = true;
      }
    } catch (error) {
      if (!(error instanceof RecipientColumnMissing || error instanceof ViewNotWritten)) throw error;
    }
    // A list that cannot show its mails (its e-mail column or the sheet is gone) is owed them for a while.
    return shown || Date.now() - chunk.postedAt > OWED_MS;
  });
}

/** The list of sheet `sheetId` as it is now, read-only; null when the sheet or its recipient column is gone. */
export function listOf(sheetId: number): MailingList | null {
  const sheet = SpreadsheetApp.getActiveSpreadsheet()
    .getSheets()
    .find((s) => s.getSheetId() === sheetId);
  try {
    return sheet ? MailingList.open(sheet, false) : null;
  } catch {
    return null; // its recipient column is gone: the record has it, the view cannot show it
  }
}

/** A test of a row's mail to an address the user typed: journaled like any chunk, on no row, in no record. */
export function postTestMail(
  client: OutreachClient,
  list: MailingList,
  campaign: string,
  to: string,
  email: Parameters<typeof postChunks>[2][number][number],
): Posted {
  const chunk: JournalChunk = {
    tag: newTag(),
    campaign: `${campaign} (test)`,
    sheetId: list.sheet.getSheetId(),
    sheetName: list.sheet.getName(),
    recipients: [{ email: addressKey(to) }],
    postedAt: Date.now(),
    test: true,
  };
  return postChunks(client, [chunk], [[email]]);
}
