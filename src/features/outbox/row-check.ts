// The checks of one row before its mail goes (first mail or step): an address, no placeholder left empty, a
// subject and body within the service's limits. The same checks as the preview; a typed code, its words in
// send-texts.ts.
import { isValidEmail } from '../../api';
import {
  MailState,
  notSent,
  SkipCode,
  skipped,
  ListRow,
  MailingList,
  RecipientColumnMissing,
} from '../../sheets';
import { emptyPlaceholders, mailProblem, MailTemplate, renderMail } from './mail-template';
import { SEND_TEXTS } from './send-texts';
import { UserError } from '../errors';

/** What is wrong with a row's mail: a typed code and its words (send-texts.ts). */
interface RowProblem {
  code: SkipCode;
  reason: string;
  /** 'empty-placeholder': the placeholders that insert nothing in this row, as written. */
  placeholders?: string[];
}

/** What is wrong with this row's mail, if anything (the same checks as the preview). */
export function rowProblem(template: MailTemplate, row: ListRow, unsubscribeAddress = ''): RowProblem | null {
  if (!row.email) return { code: 'no-address', reason: SEND_TEXTS.noAddress };
  if (!isValidEmail(row.email) || row.email.length > 254) {
    return { code: 'invalid-address', reason: SEND_TEXTS.invalidAddress(row.email) };
  }
  const empty = emptyPlaceholders(template, row.display);
  if (empty.length) {
    return { code: 'empty-placeholder', reason: SEND_TEXTS.emptyPlaceholders(empty), placeholders: empty };
  }
  const problem = mailProblem(renderMail(template, row.display, unsubscribeAddress));
  return problem ? { code: problem.part, reason: problem.text } : null;
}

/**
 * The Mail status of a row left out for `problem`: "Not sent: …" for a row held by an empty placeholder
 * (the user fills it or adds a fallback, and sends again), "Skipped: …" for the rest.
 */
export function problemState(problem: RowProblem): MailState {
  return problem.code === 'empty-placeholder'
    ? notSent('empty-placeholder', problem.reason)
    : skipped(problem.code, problem.reason);
}

/** The sheet as a mailing list; a sheet without an e-mail column is the user's to fix (said in a dialog). */
export function openMailingList(sheet: GoogleAppsScript.Spreadsheet.Sheet, addColumns = true): MailingList {
  try {
    return MailingList.open(sheet, addColumns);
  } catch (error) {
    if (error instanceof RecipientColumnMissing) throw new UserError(error.message);
    throw error;
  }
}
