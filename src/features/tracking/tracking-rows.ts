// The sheets a refresh writes: the Tracking sheet (one row per mail, upserted by Mail ID) and the "Mail
// status" of the rows that were sent (found by Mail ID on their sending sheet, never by position). Each is
// one block read and one block write per chunk of mails, however many rows the sheets hold.
import type { MailRecord, Task, TaskStatus } from '../../api/outreach/email-schemas';
import { cellText, CellValue, dateCell, textCell } from '../../sheets/cells';
import { MAIL_COLUMNS, MAIL_STATUS, TRACKING } from '../../sheets/layouts';
import { Table, TableLayout, TableRow } from '../../sheets/table';
import type { SendingSheet } from './tracking-data';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

const FINAL_TASK_STATUSES: readonly TaskStatus[] = ['completed', 'partial', 'failed'];

/** What the Tracking sheet says of a mail. Final: Delivered and Failed (nothing changes after them). */
export const MAIL_STATE = {
  pending: 'Pending',
  requested: 'Requested',
  sent: 'Sent',
  delivered: 'Delivered',
  failed: 'Failed',
} as const;

export function isFinalTask(status: TaskStatus): boolean {
  return FINAL_TASK_STATUSES.includes(status);
}

export function capitalized(text: string): string {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** "<campaign> · #tag" (how the sender names a chunk) → "<campaign>". */
export function campaignOf(task: Pick<Task, 'taskSubject'>): string {
  const subject = (task.taskSubject || '').trim();
  return subject.replace(/\s*·\s*#[0-9a-f]{6,32}$/i, '') || '(no campaign name)';
}

export function mailState(mail: Pick<MailRecord, 'status' | 'callbackReceivedAt'>): string {
  if (mail.status === 'sent') return mail.callbackReceivedAt ? MAIL_STATE.delivered : MAIL_STATE.sent;
  return MAIL_STATE[mail.status];
}

/** What the row that sent this mail should say, or null while the mail is not sent yet. */
export function rowStatus(mail: MailRecord): string | null {
  if (mail.status === 'failed')
    return `${MAIL_STATUS.failed}: ${mail.failureReason || 'no reason given by the service'}`;
  if (mail.status !== 'sent') return null;
  return mail.callbackReceivedAt ? MAIL_STATUS.delivered : MAIL_STATUS.sent;
}

export interface TaskInfo {
  campaign: string;
  status: TaskStatus;
}

/** Upserts the mails on the Tracking sheet by Mail ID (one read, one write per run of columns). */
export function writeTrackingRows(
  spreadsheet: Spreadsheet,
  mails: MailRecord[],
  taskOf: (taskId: number) => TaskInfo | undefined,
): void {
  if (mails.length === 0) return;
  const now = new Date();
  const records = new Map<string, Record<string, CellValue>>();
  for (const mail of mails) {
    const task = taskOf(mail.taskId);
    records.set(String(mail.mailId), {
      taskId: mail.taskId,
      campaign: textCell(task ? task.campaign : ''),
      taskStatus: task ? capitalized(task.status) : '',
      mailId: mail.mailId,
      recipient: textCell(mail.recipientEmail),
      nickname: textCell(mail.recipientNickname),
      subject: textCell(mail.subject),
      mailStatus: mailState(mail),
      sentAt: dateCell(mail.sentAt),
      confirmedAt: dateCell(mail.callbackReceivedAt),
      failureReason: textCell(mail.failureReason),
      refreshedAt: now,
    });
  }
  Table.open(spreadsheet, TRACKING).upsertByKey(mailIdOf, records);
}

/**
 * Moves the "Mail status" of the rows that sent these mails, on the sheets that hold their tasks. Only
 * cells whose status changes are counted; returns that count.
 */
export function writeRowStatuses(
  spreadsheet: Spreadsheet,
  sheets: SendingSheet[],
  mails: MailRecord[],
): number {
  let changed = 0;
  for (const entry of sheets) {
    const mine = mails.filter((m) => entry.tasks.includes(m.taskId));
    if (mine.length === 0) continue;
    const sheet = spreadsheet.getSheetById(entry.id);
    if (!sheet) continue; // the sheet was deleted: the Tracking sheet still has the mails
    const layout: TableLayout = { sheetName: sheet.getName(), columns: MAIL_COLUMNS };
    const table = Table.find(spreadsheet, layout);
    if (!table || !table.column('mailId') || !table.column('mailStatus')) continue;
    const wanted = new Map<string, string>();
    for (const mail of mine) {
      const status = rowStatus(mail);
      if (status) wanted.set(String(mail.mailId), status);
    }
    const rows = table.readAll();
    const changes = new Map<number, Record<string, CellValue>>();
    for (const row of rows) {
      const status = wanted.get(mailIdOf(row));
      if (status && cellText(row.values.mailStatus) !== status)
        changes.set(row.rowNumber, { mailStatus: textCell(status) });
    }
    table.update(rows, changes);
    changed += changes.size;
  }
  return changed;
}

export function mailIdOf(row: TableRow): string {
  return cellText(row.values.mailId);
}
