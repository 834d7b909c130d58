// Before any request, every row of a send is checked; what cannot be sent gets its reason in "Mail status"
// with no charge: no or an invalid address, a subject or body too long after filling in, a recipient already
// in an earlier row of the same send. Rows already sent or in flight are left as they are.
import { isValidEmail } from '../../api/outreach/email-schemas';
import { MAIL_STATUS } from '../../sheets/layouts';
import { ListRow, MailingList, RecipientColumnMissing } from '../../sheets/mailing-list';
import { UserError } from '../inputs';
import { mailProblem, MailTemplate, renderMail } from './mail-template';

export interface SendPlan {
  /** Rows to send, in sheet order. */
  rows: ListRow[];
  /** Row number → "Skipped: <reason>" to write now. */
  skipped: Map<number, string>;
  /** Reason label → rows, for the confirmation. */
  reasons: Map<string, number>;
  alreadySent: number;
  /** Rows whose earlier mail failed (a bounce): "all unsent" leaves them; selecting them sends again. */
  failedEarlier: number;
}

/** A row whose mail is with the service (ids written) and did not fail: never sent again by "all unsent". */
export function isSent(row: Pick<ListRow, 'mailId' | 'status'>): boolean {
  return row.mailId !== '' && !row.status.startsWith(MAIL_STATUS.failed);
}

export function isQueued(status: string): boolean {
  return status === MAIL_STATUS.queued;
}

/** Checks the rows of a send (`candidates`, among all the sheet's `rows`). */
export function planSend(
  template: MailTemplate,
  candidates: ListRow[],
  rows: ListRow[],
  retryFailed: boolean,
): SendPlan {
  const plan: SendPlan = {
    rows: [],
    skipped: new Map(),
    reasons: new Map(),
    alreadySent: 0,
    failedEarlier: 0,
  };
  const firstRowOf = new Map<string, number>();
  // An address this sheet already sent to (in any row) is not mailed again by another row.
  const sentTo = new Map<string, number>();
  for (const row of rows)
    if (isSent(row) && row.key && !sentTo.has(row.key)) sentTo.set(row.key, row.rowNumber);
  const skip = (row: ListRow, label: string, reason: string) => {
    plan.skipped.set(row.rowNumber, `${MAIL_STATUS.skipped}: ${reason}`);
    plan.reasons.set(label, (plan.reasons.get(label) || 0) + 1);
  };
  for (const row of candidates) {
    if (isSent(row)) {
      plan.alreadySent++;
      continue;
    }
    if (!retryFailed && row.mailId !== '') {
      plan.failedEarlier++; // a bounced address charged again would most likely bounce again
      continue;
    }
    const problem = rowProblem(template, row);
    if (problem) {
      skip(row, problem.label, problem.reason);
      continue;
    }
    const first = firstRowOf.get(row.key);
    if (first !== undefined) {
      skip(row, 'duplicate recipient', `duplicate of row ${first}`);
      continue;
    }
    const sent = sentTo.get(row.key);
    if (sent !== undefined) {
      skip(row, 'duplicate recipient', `already sent to this address in row ${sent}`);
      continue;
    }
    firstRowOf.set(row.key, row.rowNumber);
    plan.rows.push(row);
  }
  return plan;
}

/** What is wrong with this row's mail, if anything (the same checks as the preview). */
export function rowProblem(template: MailTemplate, row: ListRow): { label: string; reason: string } | null {
  if (!row.email) return { label: 'no e-mail address', reason: 'no e-mail address' };
  if (!isValidEmail(row.email) || row.email.length > 254) {
    return { label: 'invalid address', reason: `"${row.email}" is not a valid e-mail address` };
  }
  const problem = mailProblem(renderMail(template, row.display));
  if (problem) return { label: problem.startsWith('the subject') ? 'subject' : 'body', reason: problem };
  return null;
}

/** Lines of the confirmation about the rows left out. */
export function skippedLines(plan: SendPlan, hidden: number): string[] {
  const lines: string[] = [];
  const reasons = [...plan.reasons].map(([label, n]) => `${n} ${REASON_TEXT[label] || label}`);
  if (reasons.length)
    lines.push(`Skipped (nothing charged; the reason is in "Mail status"): ${reasons.join(', ')}.`);
  if (plan.alreadySent) lines.push(`${plan.alreadySent} already sent: not sent again.`);
  if (plan.failedEarlier) {
    lines.push(
      `${plan.failedEarlier} failed earlier (see "Mail status"): not sent again; select them and use "Send e-mails to selected rows" to retry.`,
    );
  }
  if (hidden) lines.push(`${hidden} hidden by a filter: skipped.`);
  return lines;
}

const REASON_TEXT: Record<string, string> = {
  'no e-mail address': 'without an e-mail address',
  'invalid address': 'with an invalid address',
  'duplicate recipient': 'duplicate recipients',
  subject: 'with a subject too long or empty',
  body: 'with a body too long',
};

/** The sheet as a mailing list; a sheet without an e-mail column is the user's to fix (said in a dialog). */
export function openMailingList(sheet: GoogleAppsScript.Spreadsheet.Sheet, addColumns = true): MailingList {
  try {
    return MailingList.open(sheet, addColumns);
  } catch (error) {
    if (error instanceof RecipientColumnMissing) throw new UserError(error.message);
    throw error;
  }
}
