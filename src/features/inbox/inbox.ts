// Reply detection: the hourly run and Refresh tracking read the answers that came since the last scan to
// this document's mails (the ledger, and what the lists say went in the last 30 days: gmail-read.ts;
// first the mail of the people whose steps are due), classify them (classify.ts), match them to the people
// mailed (decide.ts), write what they show on the sheets (inbox-apply.ts), then save the decisions, how far
// the mailbox was read and how far the due people's mail was (a step waits until it is: Ledger.readForStep)
// in ONE change of the record. A scan killed before that change is redone whole next time (every write is
// idempotent); one killed after it has nothing left to do: nothing is lost or done twice. Nothing of a message
// is kept: only the verdict, its address's mark and when (docs/privacy.md).
import {
  missingScopes,
  readDocumentPreference,
  saveDocumentPreference,
  Deadline,
  DAY_MS,
} from '../../platform';
import { MailingList, readMailView } from '../../sheets';
import { type AnswerCode, Ledger, STEP_READ_SLACK_MS, dueAt, loadTemplate, addressMark } from '../outbox';
import { describe } from '../errors';
import { whenText, spreadsheetZone } from '../words';
import { decide, type RecentMail, record, SCAN_DAYS, scanTargets } from './decide';
import { gmailService, readMailbox } from './gmail-read';
import { applyToSheets } from './inbox-apply';
import { replyDetection } from './inbox-switch';
import { INBOX_TEXTS, type ScanCounts } from './inbox-texts';

/** A scan takes at most this long: the hourly run has sends and refreshes to do too. */
const SCAN_BUDGET_MS = 90_000;
const STATUS = 'inboxScan';

/** This user's last scan in this document, for the Tracking summary. */
interface ScanStatus {
  at: number;
  refused?: boolean;
  error?: string;
}

/** Scans when this user turned detection on; answers the decisions taken (0 when off or nothing new). */
export function scanReplies(deadline = Deadline.forExecution()): number {
  const gmail = gmailService();
  if (!gmail) return 0;
  if (!replyDetection().on) return stopGating();
  if (missingScopes(['gmail']).length > 0) {
    // Said once in the summary (its line), never a failure each hour.
    if (!readDocumentPreference<ScanStatus>(STATUS)?.refused) saveStatus({ at: Date.now(), refused: true });
    return stopGating();
  }
  const ledger = Ledger.read();
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const recent = recentMail(spreadsheet, ledger);
  const targets = scanTargets(ledger, Date.now(), recent);
  if (targets.size === 0) return 0;
  const since = ledger.inboxAfter || earliestMail(ledger, targets, recent);
  const stopAt = Math.min(deadline.at - 30_000, Date.now() + SCAN_BUDGET_MS);
  try {
    const due = () => {
      const marks = dueMarks(ledger, Date.now() + STEP_READ_SLACK_MS, spreadsheetZone(spreadsheet));
      return marks.size ? addressesOf(ledger, marks, new Map()) : [];
    };
    const addresses = () => addressesOf(ledger, targets, recent);
    const read = readMailbox(gmail, since, targets.size, addresses, stopAt, due);
    const decisions = decide(ledger, read.messages, recent);
    applyToSheets(spreadsheet, ledger, decisions);
    Ledger.change((l) => {
      record(l, decisions, read.through);
      l.readSteps(read.dueThrough);
    });
    saveStatus({ at: Date.now() });
    return decisions.length;
  } catch (error) {
    // A Gmail refusal (the per-user rate, a permission taken back) or a sheet error: the next run goes on
    // from the last saved point.
    saveStatus({ at: Date.now(), error: describe(error) });
    return 0;
  }
}

/** No scan reads the mailbox for this user now: the steps do not wait for one. */
function stopGating(): 0 {
  if (Ledger.read().stepsReadTo) Ledger.change((l) => (l.stepsReadTo = 0));
  return 0;
}

/**
 * The people whose next step is due by `by` (ms), as the sequence run works it out (sequence-eligibility.ts:
 * the delay after their last mail, before the send window; not paused past it): their mail is read first.
 */
function dueMarks(ledger: Ledger, by: number, zone: string): Set<string> {
  const marks = new Set<string>();
  for (const list of ledger.lists.values()) {
    if (list.steps === 0) continue;
    const template = loadTemplate(list.sheetId);
    const steps = (template && template.followUps) || [];
    const skip = new Set((template && template.timing && template.timing.skipDates) || []);
    for (const p of list.people.values()) {
      const rule = steps[p.posted - 1];
      if (!p.posted || p.stop || !rule || ledger.pausedUntil(p.addr, by)) continue;
      if (dueAt(p.at, rule.afterDays, rule.workingDaysOnly, zone, skip) <= by) marks.add(p.addr);
    }
  }
  return marks;
}

/**
 * The first time anyone of the scan was mailed (a first scan reads from there): a row's Sent at, a person's one
 * mail, or SCAN_DAYS before the last mail of a person of several whose first the sheets no longer show.
 */
function earliestMail(ledger: Ledger, targets: Set<string>, recent: RecentMail): number {
  let first = Date.now();
  for (const mailed of recent.values()) for (const at of mailed.first.values()) first = Math.min(first, at);
  for (const list of ledger.lists.values())
    for (const p of list.people.values()) {
      if (!targets.has(p.addr) || !p.at) continue;
      const shown = recent.get(p.addr)?.first.get(list.sheetId);
      first = Math.min(first, shown ?? (p.posted > 1 ? p.at - SCAN_DAYS * DAY_MS : p.at));
    }
  return first;
}

/** The addresses of the scan's people, read from their lists (only for the address-query plan). */
function addressesOf(ledger: Ledger, targets: Set<string>, recent: RecentMail): string[] {
  const found = new Set<string>([...recent.values()].map((m) => m.email));
  for (const sheet of SpreadsheetApp.getActiveSpreadsheet().getSheets()) {
    if (!ledger.list(sheet.getSheetId())) continue;
    try {
      for (const row of MailingList.open(sheet, false).readRows())
        if (row.key && targets.has(addressMark(ledger.secret, row.key))) found.add(row.key);
    } catch {
      continue; // no recipient column any more
    }
  }
  return [...found];
}

/**
 * What the sheets say this document mailed in the last SCAN_DAYS beyond the ledger (a send that ended):
 * one scan of the document's lists (hidden sheets, the add-on's own, left out).
 */
function recentMail(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet, ledger: Ledger): RecentMail {
  const recent: RecentMail = new Map();
  const since = Date.now() - SCAN_DAYS * DAY_MS;
  const hidden = new Set(
    spreadsheet
      .getSheets()
      .filter((s) => s.isSheetHidden())
      .map((s) => s.getSheetId()),
  );
  for (const sheet of readMailView(spreadsheet)) {
    if (sheet.tracking || hidden.has(sheet.sheetId)) continue;
    for (const row of sheet.rows) {
      const at = row.sentAt ? row.sentAt.getTime() : 0;
      if (!row.key || row.mailId === null || at < since) continue;
      const addr = addressMark(ledger.secret, row.key);
      const known = recent.get(addr) || { email: row.key, at: 0, first: new Map<number, number>() };
      known.at = Math.max(known.at, at);
      known.first.set(sheet.sheetId, Math.min(at, known.first.get(sheet.sheetId) ?? at));
      recent.set(addr, known);
    }
  }
  return recent;
}

function saveStatus(status: ScanStatus): void {
  saveDocumentPreference(STATUS, status);
}

/** The Tracking summary's line: off, refused, or the last scan and what the record holds. */
export function replyDetectionLine(zone: string): string | null {
  const view = replyDetection();
  if (!view.available) return null;
  if (!view.on) return INBOX_TEXTS.off;
  const status = readDocumentPreference<ScanStatus>(STATUS);
  if (!status) return INBOX_TEXTS.never;
  if (status.refused && missingScopes(['gmail']).length > 0) return INBOX_TEXTS.refused();
  if (status.error) return INBOX_TEXTS.busyLater(status.error);
  return INBOX_TEXTS.scanned(whenText(status.at, zone), answerCounts(Ledger.read()));
}

/** What the record holds of the scans' verdicts, address by address. */
function answerCounts(ledger: Ledger): ScanCounts {
  const counts: ScanCounts = { replied: 0, outOfOffice: 0, optedOut: 0, bounced: 0 };
  for (const { code } of ledger.answers.values()) counts[code]++;
  return counts;
}

/** The answer read in Gmail from a recipient, for the Tracking summary's campaigns; none when nothing was read. */
export function answerOfRecipient(): ((recipient: string) => AnswerCode | undefined) | undefined {
  const ledger = Ledger.read();
  if (ledger.answers.size === 0) return undefined;
  return (recipient) => ledger.answers.get(addressMark(ledger.secret, recipient))?.code;
}

/**
 * Of these mails, those a delivery report read in Gmail failed (the service may still say delivered): for each
 * address the scan found bounced, its latest mail before the report (decide.ts fails that mail's row).
 */
export function bouncedMails(
  mails: Array<{ mailId: number; recipientEmail: string; sentAt?: string | null }>,
): Set<number> {
  const ledger = Ledger.read();
  const latest = new Map<string, { mailId: number; at: number }>();
  for (const mail of ledger.answers.size ? mails : []) {
    const addr = addressMark(ledger.secret, mail.recipientEmail.trim().toLowerCase());
    const answer = ledger.answers.get(addr);
    const at = Date.parse(mail.sentAt || '');
    if (!answer || answer.code !== 'bounced' || !(at <= answer.at)) continue;
    if (!latest.has(addr) || latest.get(addr)!.at < at) latest.set(addr, { mailId: mail.mailId, at });
  }
  return new Set([...latest.values()].map((m) => m.mailId));
}

/** Show mail's line on a recipient: the latest answer read in Gmail and its day; '' when none. */
export function answerLine(recipient: string, zone: string): string {
  const ledger = Ledger.read();
  const answer = ledger.answers.get(addressMark(ledger.secret, recipient.trim().toLowerCase()));
  if (!answer) return '';
  return INBOX_TEXTS.answer[answer.code](Utilities.formatDate(new Date(answer.at), zone, 'yyyy-MM-dd'));
}
