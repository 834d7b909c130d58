// Menu: Show mail. The mail of the selected row (any sheet with a "Mail ID" column: Tracking, or the
// mailing list that sent it), or of a mail id the user types, from GET /api/v1/emails/mails/:mailId, in a
// dialog that shows the body as its bodyFormat says (mail.html: text escaped, HTML in a sandboxed frame).
import { ApiError, type MailDetail } from '../../api';
import { outreachClient } from '../clients';
import { mailIdColumn, stateText } from '../../sheets';
import { ask, inform, scriptJson, showDialogFile } from '../../ui';
import { ensureKey } from '../settings';
import { trackedState } from './tracking-rows';
import { spreadsheetZone, whenText } from '../words';
import { UserError } from '../errors';
import { answerLine } from '../inbox';

interface MailView {
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
  /** The latest answer read from the recipient in Gmail ('' none: features/inbox). */
  answer: string;
}

export function showMailDetail(): void {
  if (!ensureKey('outreach')) return;
  const selected = selectedMailId();
  let id: number;
  if (typeof selected === 'number') id = selected;
  else {
    const typed = ask('Show mail', `${selected} type a Mail ID:`);
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

const SELECT_A_ROW =
  'Select a row with a Mail ID (on Tracking, or on a sheet you sent from) and use Show mail again, or';

/**
 * The Mail ID in the selected row of a sheet that has a "Mail ID" column; else what the selection lacks,
 * said of the sheet the user is on (a row of a sending sheet without a Mail ID has not been sent).
 */
function selectedMailId(): number | string {
  const sheet = SpreadsheetApp.getActiveSheet();
  const range = sheet.getActiveRange();
  const column = mailIdColumn(sheet);
  if (column === 0) return `The sheet "${sheet.getName()}" has no Mail ID column. ${SELECT_A_ROW}`;
  if (!range || range.getRow() < 2) return `${SELECT_A_ROW}`;
  const row = range.getRow();
  const value = sheet.getRange(row, column).getValue();
  if (value === '') {
    return `Row ${row} of "${sheet.getName()}" has no Mail ID: its mail has not been sent yet (or the service refused it). Select a row that has one and use Show mail again, or`;
  }
  return parseMailId(value);
}

function parseMailId(value: unknown): number {
  const id = Number(String(value).trim());
  if (!Number.isSafeInteger(id) || id < 1)
    throw new UserError(`"${String(value).slice(0, 40)}" is not a Mail ID: a Mail ID is a whole number.`);
  return id;
}

function mailView(mail: MailDetail): MailView {
  const zone = spreadsheetZone();
  const time = (iso: string | null | undefined) => {
    const ms = iso ? new Date(iso).getTime() : NaN;
    return Number.isNaN(ms) ? '' : whenText(ms, zone); // the one date format of every message
  };
  return {
    mailId: mail.mailId,
    taskId: mail.taskId,
    recipient: mail.recipientEmail,
    nickname: mail.recipientNickname || '',
    subject: mail.subject,
    status: stateText(trackedState(mail)),
    failureReason: mail.failureReason || '',
    sentAt: time(mail.sentAt),
    confirmedAt: time(mail.callbackReceivedAt),
    bodyFormat: mail.bodyFormat,
    content: mail.content,
    answer: answerLine(mail.recipientEmail, zone),
  };
}
