// What a refresh writes, cell by cell: the Tracking row of a mail, its state in words, and the "Mail status"
// its sending row should show (tracking-sheets.ts writes them).
import { type MailRecord, type Task } from '../../api';
import { CellValue, dateCell, textCell, stateCell, MailState, MAIL_STATUS_TEXTS } from '../../sheets';

/**
 * What the Tracking sheet says of a mail (mail-state.ts). Final: Delivered and Failed (nothing changes after
 * them). "Sent with another key": the service does not return its task with the key of this refresh (a
 * colleague's key, or a key since replaced); it is read again by later refreshes, and shown as it was. "Not
 * a mail of this document": its Task ID is missing, or is a task of this key that this document did not
 * send (an editor may have typed ids of mails sent elsewhere): never read, final, and its sending row says
 * the same.
 */
export function trackedState(mail: Pick<MailRecord, 'status' | 'callbackReceivedAt'>): MailState {
  if (mail.status === 'sent') return { kind: mail.callbackReceivedAt ? 'delivered' : 'sent' };
  if (mail.status === 'failed') return { kind: 'failed', reason: '' };
  return { kind: mail.status };
}

/** What the Opened column says: the task's opens are the mail's only when the task holds that one mail. */
export const OPENED_TEXTS = { yes: 'Yes', no: 'No', perCampaign: 'per campaign only' } as const;

export function openedText(task: Pick<Task, 'totalCount' | 'openedCount'>): string {
  if (task.totalCount !== 1) return OPENED_TEXTS.perCampaign;
  return task.openedCount > 0 ? OPENED_TEXTS.yes : OPENED_TEXTS.no;
}

export function capitalized(text: string): string {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** A task's status in words (the service's `partial` says nothing to a user; the header's note explains). */
export const TASK_STATUS_TEXTS: Record<Task['status'], string> = {
  pending: 'Waiting at the service',
  requested: 'Handed to the mail provider',
  completed: 'All mails sent',
  partial: 'Some mails failed',
  failed: 'All mails failed',
};

/** "<campaign> · #tag" (how the sender names a chunk) → "<campaign>". */
export function campaignOf(task: Pick<Task, 'taskSubject'>): string {
  const subject = (task.taskSubject || '').trim();
  return subject.replace(/\s*·\s*#[0-9a-f]{6,32}$/i, '') || '(no campaign name)';
}

/** What the row that sent this mail should say, or null while the mail is not sent yet. */
export function rowState(mail: MailRecord): MailState | null {
  if (mail.status === 'failed')
    return { kind: 'failed', reason: mail.failureReason || MAIL_STATUS_TEXTS.noReason };
  if (mail.status !== 'sent') return null;
  return trackedState(mail);
}

/**
 * The Tracking row of a mail, by column key. `task`: the task read with it (campaign, task status, opens);
 * without it those cells keep what they showed.
 */
export function trackingRecord(
  mail: MailRecord,
  task: Task | undefined,
  now: Date,
): Record<string, CellValue> {
  return {
    taskId: mail.taskId,
    ...(task ? taskCells(task) : {}),
    ...(mail.status === 'failed' ? { opened: '', taskOpens: '' } : {}), // a failed mail was never opened
    mailId: mail.mailId,
    recipient: textCell(mail.recipientEmail),
    nickname: textCell(mail.recipientNickname),
    subject: textCell(mail.subject),
    mailStatus: stateCell(trackedState(mail)),
    sentAt: dateCell(mail.sentAt),
    confirmedAt: dateCell(mail.callbackReceivedAt),
    failureReason: textCell(mail.failureReason),
    refreshedAt: now,
  };
}

/**
 * A mail id that is not a mail of this document: the Tracking row says so, and every cell that could hold
 * a mail's details is emptied (the Task ID and Mail ID are kept as they were).
 */
export function notThisDocumentRecord(mailId: number, now: Date): Record<string, CellValue> {
  return {
    mailId,
    campaign: '',
    taskStatus: '',
    recipient: '',
    nickname: '',
    subject: '',
    mailStatus: stateCell({ kind: 'notThisDocument' }),
    opened: '',
    taskOpens: '',
    sentAt: '',
    confirmedAt: '',
    failureReason: '',
    refreshedAt: now,
  };
}

/** A mail the service did not return with this key and that Tracking does not show yet. */
export function otherKeyRecord(mailId: number, taskId: number | null, now: Date): Record<string, CellValue> {
  return { taskId: taskId ?? '', mailId, mailStatus: stateCell({ kind: 'otherKey' }), refreshedAt: now };
}

function taskCells(task: Task): Record<string, CellValue> {
  return {
    campaign: textCell(campaignOf(task)),
    taskStatus: TASK_STATUS_TEXTS[task.status] || capitalized(task.status),
    opened: openedText(task),
    taskOpens: task.openedCount,
  };
}
