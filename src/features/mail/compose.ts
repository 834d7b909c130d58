// The compose dialog: one template per sheet (campaign, subject, body, text or HTML), the sheet's headers
// to insert from, a preview of any row exactly as it will be sent, and a test mail to an address the user
// types (1 EDM). The dialog saves before previewing, so the preview is what a send would use.
import { spreadsheetZone } from '../words';
import { addressKey, lastListRow, isMailColumnHeader, stateText, MailingList } from '../../sheets';
import { outreachClient } from '../clients';
import { isValidEmail, cleanNickname } from '../../api';
import {
  loadTemplate,
  StoredTemplate,
  storeTemplate,
  closeEntry,
  idsOf,
  BodyFormat,
  MailTemplate,
  MAX_CAMPAIGN,
  renderMail,
  templateChecks,
  templateProblems,
  templateWarnings,
  listedReason,
  listedText,
  readDoNotContact,
  scheduleView,
  ScheduleView,
  postTestMail,
  openMailingList,
  rowProblem,
  FollowUp,
  MAX_FOLLOW_UPS,
  parseFollowUps,
  stepCampaign,
  stepProblems,
  stepTemplate,
  reconfirmMail,
  parseTiming,
  type Timing,
  parseSubjectTest,
  type SubjectTest,
} from '../outbox';
import { showDialogFile } from '../../ui';
import { readSettings } from '../../platform';
import { ensureKey } from '../settings';
import { sequenceNote, isSequenceHeader, opensNote } from '../sequence';
import { timingNote } from './timing-note';
import { describe, UserError } from '../errors';

interface ComposeState {
  sheetName: string;
  /** Headers of row 1 to insert from (the add-on's own columns left out). */
  headers: string[];
  template: MailTemplate;
  saved: boolean;
  problems: string[];
  /**
   * What makes the sheet no mailing list (no e-mail column), with its fix: the dialog opens with it at the
   * top (it is in `problems` too).
   */
  sheetProblem?: string;
  /** Advice that does not stop a send (no unsubscribe line). */
  warnings: string[];
  firstRow: number;
  lastRow: number;
  maxCampaign: number;
  /** The sheet's send scheduled for later, if any. */
  schedule: ScheduleView | null;
  /** The spreadsheet's time zone: the dialog's times are in it. */
  timeZone: string;
  /** The follow-up steps (sequence/sequence-steps.ts), [] for a single mail. */
  followUps: FollowUp[];
  /** What the dialog says under the steps: when they go, who gets them, what they cost. */
  sequenceNote: string;
  /** Why "only if not opened" may not work on this list ('' when it does). */
  opensNote: string;
  /** When the mails may go: send window, dates to skip, hourly limit ({}: as soon as they may). */
  timing: Timing;
  /** What Compose says of the timing: the zone each row is timed in, and where that is a guess. */
  timingNote: string;
  /** The subject test's subjects ([] for none), its share of the list and its hours. */
  subjectVariants: string[];
  subjectTest: { share: number; decideAfterHours: number } | null;
}

interface MailPreview {
  rowNumber: number;
  firstRow: number;
  lastRow: number;
  recipient: string;
  nickname: string;
  subject: string;
  body: string;
  bodyFormat: BodyFormat;
  problems: string[];
  status: string;
}

export function showComposeDialog(reason = ''): void {
  if (!ensureKey('outreach')) return;
  // The sheet's name is in the heading from the first paint, not only once the state arrives.
  const sheetName = SpreadsheetApp.getActiveSpreadsheet().getActiveSheet().getName();
  showDialogFile('compose', 'Compose e-mail', { reason, sheetName }, { width: 760, height: 600 });
}

export function getComposeState(): ComposeState {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getActiveSheet();
  const stored = loadTemplate(sheet.getSheetId());
  const template: MailTemplate = stored || {
    campaign: '',
    subject: '',
    body: '',
    bodyFormat: 'text',
  };
  const problems: string[] = [];
  let headers: string[] = [];
  let sheetProblem: string | undefined;
  let opens = '';
  let timing = '';
  try {
    const list = openMailingList(sheet, false);
    if (stored && stored.timing) timing = timingNote(list, stored.timing);
    headers = list.headers.filter((h) => h.trim() && !isMailColumnHeader(h) && !isSequenceHeader(h));
    if (stored && stored.followUps) opens = opensNote(list);
    if (stored) {
      const unsubscribe = readSettings().unsubscribeAddress;
      problems.push(...templateProblems(template, list.headers, unsubscribe));
      problems.push(...stepProblems(stored, list.headers, unsubscribe));
    }
  } catch (error) {
    sheetProblem = describe(error);
    problems.push(sheetProblem);
  }
  return {
    ...(sheetProblem ? { sheetProblem } : {}),
    sheetName: sheet.getName(),
    headers,
    template: plain(template),
    saved: !!stored,
    problems,
    warnings: stored ? templateWarnings(template) : [],
    firstRow: 2,
    lastRow: Math.max(lastListRow(sheet), 2),
    maxCampaign: MAX_CAMPAIGN,
    schedule: scheduleView(sheet),
    timeZone: spreadsheetZone(sheet.getParent()),
    followUps: (stored && stored.followUps) || [],
    sequenceNote: sequenceNote(stored),
    opensNote: opens,
    timing: (stored && stored.timing) || {},
    timingNote: timing,
    subjectVariants: stored && stored.subjectTest ? stored.subjectTest.variants : [],
    subjectTest:
      stored && stored.subjectTest
        ? { share: stored.subjectTest.share, decideAfterHours: stored.subjectTest.decideAfterHours }
        : null,
  };
}

/** Saves the active sheet's template; answers the problems that would stop a send. */
export function saveTemplate(
  input: Partial<MailTemplate> & { followUps?: unknown } & Record<string, unknown>,
): ComposeState {
  const test = parseSubjectTest(input || {});
  const template: MailTemplate & { followUps: FollowUp[]; timing: Timing; subjectTest?: SubjectTest } = {
    campaign: String((input && input.campaign) || '').trim(),
    subject: String((input && input.subject) || ''),
    body: String((input && input.body) || ''),
    bodyFormat: input && input.bodyFormat === 'html' ? 'html' : 'text',
    followUps: parseFollowUps(input && input.followUps),
    timing: parseTiming(input || {}),
    ...(test ? { subjectTest: test } : {}),
  };
  if (template.body.length > 50_000)
    throw new UserError('The body is longer than 50,000 characters: shorten it.');
  const roomForSteps = MAX_CAMPAIGN - stepCampaign('', MAX_FOLLOW_UPS).length;
  if (template.followUps.length && template.campaign.length > roomForSteps)
    throw new UserError(
      `The campaign name is too long for follow-ups (each step's campaign adds " · follow-up N"): at most ${roomForSteps} characters.`,
    );
  if (template.subject.length > 1000)
    throw new UserError('The subject is too long: at most 200 characters once filled in.');
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getActiveSheet();
  storeTemplate(sheet.getSheetId(), template);
  reconfirmMail(sheet, template); // the payer saving the steps confirms them as they are now
  return getComposeState();
}

/** A row rendered exactly as it will be sent (its first mail, or follow-up `step`), with that row's problems. */
export function previewMail(rowNumber: number, step = 0): MailPreview {
  return previewWith(rowNumber, step).view;
}

/**
 * The preview; the problems of the mail itself (said under the dialog's buttons, from ComposeState: the
 * preview lists only the row's own); the problem with the row's own address (a test goes to another one).
 */
function previewWith(
  rowNumber: number,
  step = 0,
): { view: MailPreview; mailProblems: string[]; addressProblem?: string } {
  const { sheet, template: first, list } = current();
  const steps = first.followUps || [];
  const n = Math.floor(Number(step)) || 0;
  const template = n >= 1 && n <= steps.length ? stepTemplate(first, steps, n) : first;
  const last = Math.max(lastListRow(sheet), 2);
  const row = Math.min(Math.max(Math.floor(Number(rowNumber)) || 2, 2), last);
  const found = list.readRows(new Set([row]))[0];
  const unsubscribe = readSettings().unsubscribeAddress;
  const checks = templateChecks(template, list.headers, unsubscribe);
  const mailProblems = checks.map((problem) => problem.text);
  if (!found) {
    const empty = { ...emptyPreview(row, last, template.bodyFormat), problems: ['This row is empty.'] };
    return { view: empty, mailProblems };
  }
  const unknown = checks.some((problem) => problem.code === 'placeholder');
  const problem = unknown ? null : rowProblem(template, found, unsubscribe);
  // A placeholder naming no column would show as a gap ("Hi ,"): the preview says it cannot render. One that is
  // empty in this row stays as written in the preview, where the row's problem names it.
  const gaps = !!problem && problem.code === 'empty-placeholder';
  const mail = unknown
    ? { subject: '', body: CANNOT_SHOW }
    : renderMail(template, found.display, unsubscribe, gaps);
  const said = problem ? `Row ${row}: ${problem.reason}.` : '';
  const address = problem && (problem.code === 'no-address' || problem.code === 'invalid-address');
  const view: MailPreview = {
    rowNumber: row,
    firstRow: 2,
    lastRow: last,
    recipient: found.email,
    nickname: cleanNickname(found.nickname), // as the request sends it
    subject: mail.subject,
    body: mail.body,
    bodyFormat: unknown ? 'text' : template.bodyFormat,
    problems: said ? [said] : [],
    status: stateText(found.state),
  };
  return address ? { view, mailProblems, addressProblem: said } : { view, mailProblems };
}

const CANNOT_SHOW =
  'This mail cannot be shown: a {{placeholder}} in it names no column of this sheet (the message under the buttons says which).';

/** The row's mail to an address the user typed: 1 EDM, journaled like any chunk (never sent twice). */
export function sendTestMail(rowNumber: number, address: string): string {
  const to = String(address || '').trim();
  if (!isValidEmail(to))
    throw new UserError(`"${to}" is not a valid e-mail address: type the address to send the test to.`);
  const listed = listedReason(readDoNotContact(SpreadsheetApp.getActiveSpreadsheet()), to);
  if (listed !== null) throw new UserError(`${to} is ${listedText(listed)}: the test was not sent.`);
  const { view: preview, mailProblems, addressProblem } = previewWith(rowNumber);
  if (mailProblems.length) throw new UserError(`The test was not sent: ${mailProblems.join(' ')}`);
  // The row's own problem is listed in the preview, right above: not said again.
  if (preview.problems.some((p) => p !== addressProblem))
    throw new UserError(
      `The test was not sent: the problem of row ${preview.rowNumber}, listed under its preview, stops it.`,
    );
  const { template, list } = current();
  const email = {
    email: to,
    subject: preview.subject,
    content: preview.body,
    body_format: template.bodyFormat,
  };
  const { entry, outcomes } = postTestMail(
    outreachClient(),
    list,
    template.campaign,
    to,
    preview.nickname ? { ...email, nickname: preview.nickname } : email,
  );
  const outcome = outcomes[0];
  if ('doubt' in outcome) {
    throw new UserError(
      `Could not confirm whether the test was sent (${describe(outcome.error)}): the next send settles it; it is never sent twice.`,
    );
  }
  closeEntry(entry);
  if (!outcome.sent) throw new UserError(`The test was not sent: ${describe(outcome.error)}`);
  const ids = idsOf(outcome.chunk, addressKey(to));
  const which = ids ? ` (mail ${ids.mailId}, task ${ids.taskId})` : '';
  return `Test of row ${preview.rowNumber} sent to ${to}${which}: 1 e-mail credit (EDM) used.`;
}

function current(): {
  sheet: GoogleAppsScript.Spreadsheet.Sheet;
  template: StoredTemplate;
  list: MailingList;
} {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getActiveSheet();
  const template = loadTemplate(sheet.getSheetId());
  if (!template) throw new UserError('Save the mail first.');
  return { sheet, template, list: openMailingList(sheet, false) };
}

function emptyPreview(row: number, last: number, bodyFormat: BodyFormat): MailPreview {
  return {
    rowNumber: row,
    firstRow: 2,
    lastRow: last,
    recipient: '',
    nickname: '',
    subject: '',
    body: '',
    bodyFormat,
    problems: [],
    status: '',
  };
}

function plain(template: MailTemplate): MailTemplate {
  return {
    campaign: template.campaign,
    subject: template.subject,
    body: template.body,
    bodyFormat: template.bodyFormat,
  };
}
