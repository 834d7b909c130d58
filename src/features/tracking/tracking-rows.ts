// The sheets a refresh writes: the Tracking sheet (one row per mail, upserted by Mail ID) and the "Mail
// status" of the rows that were sent (found by Mail ID on their sending sheet, never by position). Each is
// one block read and one block write per chunk of mails, however many rows the sheets hold.
import type { MailRecord, Task } from '../../api/outreach/email-schemas';
import { cellText, CellValue, dateCell, textCell } from '../../sheets/cells';
import { MAIL_COLUMNS, MAIL_STATUS, TRACKING } from '../../sheets/layouts';
import { Table, TableLayout, TableRow } from '../../sheets/table';
import type { SentMail } from './tracking-data';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/**
 * What the Tracking sheet says of a mail. Final: Delivered and Failed (nothing changes after them). "Sent
 * with another key": the service does not return it with the key of this refresh (a colleague's key, or a
 * key since replaced); it is read again by later refreshes, and shown as it was.
 */
export const MAIL_STATE = {
  pending: 'Pending',
  requested: 'Requested',
  sent: 'Sent',
  delivered: 'Delivered',
  failed: 'Failed',
  otherKey: 'Sent with another key',
} as const;

/** A mail the Tracking sheet shows as final is not read again. */
export function isFinalState(state: string): boolean {
  return state === MAIL_STATE.delivered || state === MAIL_STATE.failed;
}

/** What the Opened column says: the task's opens are the mail's only when the task holds that one mail. */
export const OPENED = { yes: 'Yes', no: 'No', perCampaign: 'per campaign only' } as const;

export function openedText(task: Pick<Task, 'totalCount' | 'openedCount'>): string {
  if (task.totalCount !== 1) return OPENED.perCampaign;
  return task.openedCount > 0 ? OPENED.yes : OPENED.no;
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

/**
 * Upserts the mails on the Tracking sheet by Mail ID (one read, one write per run of columns). `tasks`: the
 * tasks read with them (campaign, task status, opens); a mail whose task was not returned keeps those cells.
 * `otherKey`: mails the service did not return with this key and that Tracking does not show yet: a row says
 * "Sent with another key" (rows already there keep what they showed).
 */
export function writeTrackingRows(
  spreadsheet: Spreadsheet,
  mails: MailRecord[],
  tasks: Map<number, Task>,
  otherKey: Array<{ mailId: number; taskId: number }> = [],
): void {
  if (mails.length === 0 && otherKey.length === 0) return;
  const now = new Date();
  const records = new Map<string, Record<string, CellValue>>();
  for (const mail of mails) {
    const task = tasks.get(mail.taskId);
    records.set(String(mail.mailId), {
      taskId: mail.taskId,
      ...(task ? taskCells(task) : {}),
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
  for (const { mailId, taskId } of otherKey) {
    records.set(String(mailId), { taskId, mailId, mailStatus: MAIL_STATE.otherKey, refreshedAt: now });
  }
  upsertByMailId(Table.open(spreadsheet, TRACKING), records);
}

/**
 * Upserts records by Mail ID, reading only the columns up to Mail ID to find the rows (not every column of
 * every row: the Tracking sheet may hold 100,000 mails); updated rows are written over their span, the
 * others appended below.
 */
function upsertByMailId(table: Table, records: Map<string, Record<string, CellValue>>): void {
  const keys = Table.onColumns(table.sheet, { mailId: table.column('mailId')! }).readAll();
  const byRow = new Map<number, Record<string, CellValue>>();
  const found = new Set<string>();
  for (const row of keys) {
    const key = mailIdOf(row);
    const record = key ? records.get(key) : undefined;
    if (!record) continue;
    byRow.set(row.rowNumber, record);
    found.add(key);
  }
  table.update([], byRow, false);
  table.append([...records].filter(([key]) => !found.has(key)).map(([, record]) => record));
}

function taskCells(task: Task): Record<string, CellValue> {
  return {
    campaign: textCell(campaignOf(task)),
    taskStatus: capitalized(task.status),
    opened: openedText(task),
    taskOpens: task.openedCount,
  };
}

/**
 * Moves the "Mail status" of the rows that sent these mails, on the sheets that sent them (`sent`: mail id →
 * sheet). Only cells whose status changes are counted; returns that count.
 */
export function writeRowStatuses(
  spreadsheet: Spreadsheet,
  sent: Map<number, SentMail>,
  mails: MailRecord[],
): number {
  const bySheet = new Map<number, Map<string, string>>();
  for (const mail of mails) {
    const where = sent.get(mail.mailId);
    const status = rowStatus(mail);
    if (!where || !status) continue;
    const wanted = bySheet.get(where.sheetId) || new Map<string, string>();
    wanted.set(String(mail.mailId), status);
    bySheet.set(where.sheetId, wanted);
  }
  let changed = 0;
  for (const [sheetId, wanted] of bySheet) {
    const sheet = spreadsheet.getSheetById(sheetId);
    if (!sheet) continue; // the sheet was deleted: the Tracking sheet still has the mails
    const layout: TableLayout = { sheetName: sheet.getName(), columns: MAIL_COLUMNS };
    const found = Table.find(spreadsheet, layout);
    const mailId = found && found.column('mailId');
    const mailStatus = found && found.column('mailStatus');
    if (!mailId || !mailStatus) continue;
    // Only the two columns used (a mailing list may have 100,000 rows and many columns of its own).
    const table = Table.onColumns(sheet, { mailId, mailStatus });
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

/** Deletes the empty columns right of the Tracking sheet's own (a new sheet has 26): fewer cells. */
export function trimTrackingColumns(spreadsheet: Spreadsheet): void {
  const sheet = spreadsheet.getSheetByName(TRACKING.sheetName);
  if (!sheet) return;
  const used = sheet.getLastColumn();
  const max = sheet.getMaxColumns();
  if (used >= TRACKING.columns.length && max > used) sheet.deleteColumns(used + 1, max - used);
}

export function mailIdOf(row: TableRow): string {
  return cellText(row.values.mailId);
}
