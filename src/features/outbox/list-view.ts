// The views the outbox writes of what it posted: a first mail's ids on its list row (by recipient, only where
// the row is still queued), a step's on the hidden follow-ups sheet (step-mails.ts). They show what happened;
// the ledger (ledger.ts) decides what happens next.
import { CellValue, stateCell, isQueued, notSent, type MailingList } from '../../sheets';
import { SEND_TEXTS } from './send-texts';
import { idsOf, type JournalChunk } from './journal';

/** The cells of a row whose mail the service took (or did not list: then it says so). */
export function idCells(chunk: JournalChunk, email: string): Record<string, CellValue> {
  const ids = idsOf(chunk, email);
  if (!ids) return { mailStatus: stateCell(notSent('not-listed', SEND_TEXTS.notListed)) };
  return {
    mailStatus: stateCell({ kind: 'accepted' }),
    taskId: ids.taskId,
    mailId: ids.mailId,
    sentAt: new Date(chunk.postedAt),
  };
}

/** Writes a settled first-mail chunk's ids on its rows (by recipient, on the list as it is now). */
export function writeIds(list: MailingList, chunk: JournalChunk): void {
  if (chunk.test || chunk.step || chunk.sheetId !== list.sheet.getSheetId()) return;
  const changes = new Map<string, Record<string, CellValue>>();
  for (const { email } of chunk.recipients) changes.set(email, idCells(chunk, email));
  list.writeByRecipient(changes, isQueued, new Set(changes.keys()));
}
