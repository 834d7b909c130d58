// Addresses whose earlier mail from this document failed (a bounce, a domain without mail): a later send
// from any sheet leaves them out, or asks first when the user selected them. Nothing about them is kept in
// properties (that would grow with every mail ever sent): the sheets are the record. The sending sheets'
// "Mail status" (`Failed: <reason>`, with "Sent at") and the Tracking sheet (Mail status `Failed`, Failure
// reason) are read when a send is planned, one block per sheet. An address mailed successfully after its
// failure is not held back.
import { cellText } from '../../sheets/cells';
import { DO_NOT_CONTACT, MAIL_STATUS, TRACKING } from '../../sheets/layouts';
import { isRecipientHeader, ListRow } from '../../sheets/mailing-list';
import { normalizeHeader } from '../../sheets/table';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

export interface EarlierFailure {
  reason: string;
  /** When the failed mail was sent (0 when unknown). */
  at: number;
}

interface Outcome {
  failed: boolean;
  reason: string;
  at: number;
}

/** Address → its latest failure, for the addresses whose latest known mail failed. */
export function earlierFailures(
  spreadsheet: Spreadsheet,
  current: { sheetId: number; rows: ListRow[] },
): Map<string, EarlierFailure> {
  const latest = new Map<string, Outcome>();
  const note = (address: string, outcome: Outcome) => {
    if (!address) return;
    const before = latest.get(address);
    if (!before || outcome.at > before.at || (outcome.at === before.at && outcome.failed)) {
      latest.set(address, outcome);
    }
  };
  for (const row of current.rows) {
    const outcome = rowOutcome(row.status, '', row.sentAt);
    if (outcome) note(row.key, outcome);
  }
  for (const sheet of spreadsheet.getSheets()) {
    if (sheet.getSheetId() === current.sheetId || sheet.getName() === DO_NOT_CONTACT.sheetName) continue;
    readSheetOutcomes(sheet, note);
  }
  const failures = new Map<string, EarlierFailure>();
  for (const [address, outcome] of latest) {
    if (outcome.failed) failures.set(address, { reason: outcome.reason, at: outcome.at });
  }
  return failures;
}

/** A row's known outcome: failed (with its reason) or sent; null while unknown or not sent. */
function rowOutcome(status: string, failureReason: string, at: unknown): Outcome | null {
  const time = at instanceof Date ? at.getTime() : 0;
  if (status === MAIL_STATUS.failed || status.startsWith(`${MAIL_STATUS.failed}:`)) {
    const reason = failureReason || status.slice(MAIL_STATUS.failed.length + 1).trim() || 'failed';
    return { failed: true, reason, at: time };
  }
  if (status === MAIL_STATUS.sent || status === MAIL_STATUS.delivered)
    return { failed: false, reason: '', at: time };
  return null;
}

/**
 * A sheet with a recipient column and a "Mail status" column: its header row, then one block read of the
 * columns needed (other sheets cost the header read only).
 */
function readSheetOutcomes(sheet: Sheet, note: (address: string, outcome: Outcome) => void): void {
  const lastRow = sheet.getLastRow();
  const width = sheet.getLastColumn();
  if (lastRow < 2 || width < 2) return;
  const headers = sheet.getRange(1, 1, 1, width).getValues()[0];
  const names = headers.map((h) => normalizeHeader(h));
  const tracking = sheet.getName() === TRACKING.sheetName;
  const find = (header: string) => names.indexOf(normalizeHeader(header));
  const columns = {
    recipient: tracking ? find('Recipient') : headers.findIndex((h) => isRecipientHeader(h)),
    status: find('Mail status'),
    reason: tracking ? find('Failure reason') : -1,
    sentAt: find('Sent at'),
    refreshedAt: tracking ? find('Refreshed at') : -1,
  };
  if (columns.recipient < 0 || columns.status < 0) return;
  const used = Object.values(columns).filter((c) => c >= 0);
  const first = Math.min(...used);
  const block = sheet.getRange(2, first + 1, lastRow - 1, Math.max(...used) - first + 1).getValues();
  const at = (cells: unknown[], c: number) => (c >= 0 ? cells[c - first] : '');
  for (const cells of block) {
    const sent = at(cells, columns.sentAt);
    const when = sent instanceof Date ? sent : at(cells, columns.refreshedAt);
    const outcome = rowOutcome(
      cellText(at(cells, columns.status)),
      cellText(at(cells, columns.reason)),
      when,
    );
    if (outcome) note(cellText(at(cells, columns.recipient)).trim().toLowerCase(), outcome);
  }
}

/** "an earlier mail to this address failed (Mailbox unavailable, 2026-01-05)". */
export function failureText(failure: EarlierFailure, zone: string): string {
  const date = failure.at ? `, ${Utilities.formatDate(new Date(failure.at), zone, 'yyyy-MM-dd')}` : '';
  return `an earlier mail to this address failed (${failure.reason}${date})`;
}
