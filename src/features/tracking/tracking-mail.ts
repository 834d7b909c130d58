// Menu: Show mail. The mail of the selected row (any sheet with a "Mail ID" column: Tracking, or the
// mailing list that sent it), or of a mail id the user types, from GET /api/v1/emails/mails/:mailId, in a
// dialog that shows the body as its bodyFormat says (mail.html: text escaped, HTML in a sandboxed frame).
import { ApiError } from '../../api/errors';
import type { MailDetail } from '../../api/outreach/email-schemas';
import { outreachClient } from '../clients';
import { normalizeHeader } from '../../sheets/table';
import { ask, inform, scriptJson, showDialogFile } from '../../ui/dialogs';
import { UserError } from '../inputs';
import { ensureKey } from '../settings';
import { mailState } from './tracking-rows';

export interface MailView {
  mailId: number;
  taskId: number;
  recipient: string;
  nickname: string;
  subject: string;
  status: string;
  failureReason: string;
  sentAt: string;
  confirmedAt: string;
  bodyFormat: 'text' | 'html';
  content: string;
}

export function showMailDetail(): void {
  if (!ensureKey('outreach')) return;
  let id = selectedMailId();
  if (id === null) {
    const typed = ask('Show mail', 'Select a row of the Tracking sheet first, or type a Mail ID:');
    if (typed === null || typed === '') return;
    id = parseMailId(typed);
  }
  let mail: MailDetail;
  try {
    mail = outreachClient().getMail(id);
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'not-found') {
      inform(
        'Show mail',
        `Mail ${id} was not found: it does not exist, or it was sent with another API key.`,
      );
      return;
    }
    throw error;
  }
  showDialogFile('mail', `Mail ${id}`, { mailJson: scriptJson(mailView(mail)) }, { width: 640, height: 580 });
}

/** The Mail ID in the selected row of a sheet that has a "Mail ID" column, or null. */
function selectedMailId(): number | null {
  const sheet = SpreadsheetApp.getActiveSheet();
  const range = sheet.getActiveRange();
  const width = sheet.getLastColumn();
  if (!range || range.getRow() < 2 || width === 0) return null;
  const headers = sheet.getRange(1, 1, 1, width).getValues()[0].map(normalizeHeader);
  const column = headers.indexOf(normalizeHeader('Mail ID')) + 1;
  if (column === 0) return null;
  const value = sheet.getRange(range.getRow(), column).getValue();
  return value === '' ? null : parseMailId(value);
}

function parseMailId(value: unknown): number {
  const id = Number(String(value).trim());
  if (!Number.isSafeInteger(id) || id < 1)
    throw new UserError(`"${String(value).slice(0, 40)}" is not a Mail ID: a Mail ID is a whole number.`);
  return id;
}

export function mailView(mail: MailDetail): MailView {
  const zone = SpreadsheetApp.getActiveSpreadsheet().getSpreadsheetTimeZone();
  const time = (iso: string | null | undefined) => {
    const date = iso ? new Date(iso) : null;
    return date && !Number.isNaN(date.getTime())
      ? Utilities.formatDate(date, zone, 'yyyy-MM-dd HH:mm:ss')
      : '';
  };
  return {
    mailId: mail.mailId,
    taskId: mail.taskId,
    recipient: mail.recipientEmail,
    nickname: mail.recipientNickname || '',
    subject: mail.subject,
    status: mailState(mail),
    failureReason: mail.failureReason || '',
    sentAt: time(mail.sentAt),
    confirmedAt: time(mail.callbackReceivedAt),
    bodyFormat: mail.bodyFormat,
    content: mail.content,
  };
}
