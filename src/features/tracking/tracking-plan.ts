// What a refresh reads: the mails the ledger says their runs posted (outbox/ledger.ts, whatever the
// cells say now), and the Mail IDs found in the sheets: every sheet with the mailing-list columns (its rows that
// were sent) and the Tracking sheet, with the Task IDs beside them (a mail is read only when its task is one this
// document sent: tracking-fetch.ts asks the tasks first). A mail can still change unless Tracking already says it is
// final (Delivered, Failed, or not a mail of this document): those are the mails a refresh reads, in mail-id
// order. Read with one getValues per column used (one over the span on Tracking), so a slice costs the same
// few calls at 100 mails or 100,000. Tracking also tells which tasks' opens can still grow (tracking-opens.ts).
import { readMailView, type SheetView, isFinal } from '../../sheets';
import { type PostedPairs } from '../outbox';
import type { SentMail } from './tracking-data';
import { type OpenTask, tasksWithOpensToCome } from './tracking-opens';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

export interface MailIndex {
  /** Mail ids that can still change (not on Tracking yet, or on it and not final), ascending. */
  open: number[];
  /** Mail id → its sending sheet and task, for every row of a mailing list that has a Mail ID. */
  sent: Map<number, SentMail>;
  /**
   * Open mail id → the Task IDs found beside it (its mailing-list rows and its Tracking row; any editor may
   * have typed them): the mail is read only if one of them is a task this document sent. None: never read.
   */
  claims: Map<number, number[]>;
  /** Mail ids on the Tracking sheet. */
  tracked: Set<number>;
  /** Mails of the ledger on no sheet (their cells were cleared or moved, or Tracking's row deleted). */
  unseen: number;
  /** Mails on Tracking that are final. */
  final: number;
  /** The tasks whose opens can still grow (tracking-opens.ts), by task id. */
  opens: Map<number, OpenTask>;
}

/** The mails to follow: those of the sheets, and `posted` (the ledger: mail id → task id). */
export function readMailIndex(spreadsheet: Spreadsheet, posted: PostedPairs): MailIndex {
  const sent = new Map<number, SentMail>();
  const claims = new Map<number, number[]>();
  const claim = (mailId: number, taskId: number | null) => {
    const ids = claims.get(mailId) || [];
    if (taskId !== null && !ids.includes(taskId)) ids.push(taskId);
    claims.set(mailId, ids);
  };
  const tracked = new Set<number>();
  const open = new Set<number>();
  let final = 0;
  let opens = new Map<number, OpenTask>();
  for (const sheet of readMailView(spreadsheet)) {
    if (!sheet.tracking) {
      addSentRows(sheet, sent, claim);
      continue;
    }
    opens = tasksWithOpensToCome(sheet.rows);
    for (const row of sheet.rows) {
      if (row.mailId === null) continue;
      tracked.add(row.mailId);
      if (isFinal(row.state)) final++;
      else {
        open.add(row.mailId);
        claim(row.mailId, row.taskId);
      }
    }
  }
  let unseen = 0;
  for (const [mailId, taskId] of posted) {
    if (!sent.has(mailId) && !tracked.has(mailId)) unseen++;
    claim(mailId, taskId);
    if (!tracked.has(mailId)) open.add(mailId);
  }
  for (const id of sent.keys()) if (!tracked.has(id)) open.add(id);
  for (const id of claims.keys()) if (!open.has(id)) claims.delete(id);
  return { open: [...open].sort((a, b) => a - b), sent, claims, tracked, unseen, final, opens };
}

/**
 * The rows of a mailing list that have a Mail ID (a row without a Task ID is kept too: it is never read,
 * and its row says why).
 */
function addSentRows(
  sheet: SheetView,
  sent: Map<number, SentMail>,
  claim: (mailId: number, taskId: number | null) => void,
): void {
  for (const { mailId, taskId } of sheet.rows) {
    if (mailId === null) continue;
    claim(mailId, taskId);
    // The same Mail ID on several rows: a row with a Task ID is kept over one without.
    const known = sent.get(mailId);
    if (!known || known.taskId === null) sent.set(mailId, { sheetId: sheet.sheetId, taskId });
  }
}

/** The open mails of a unit: the first `count` with a Mail ID above `after`. */
export function nextMails(index: MailIndex, after: number, count: number): number[] {
  let from = 0;
  while (from < index.open.length && index.open[from] <= after) from++;
  return index.open.slice(from, from + count);
}
