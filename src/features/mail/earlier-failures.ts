// Addresses whose earlier mail from this document failed (a bounce, a domain without mail): a later send
// from any sheet leaves them out, or asks first when the user selected them. Nothing about them is kept in
// properties (that would grow with every mail ever sent): the sheets are the record (sheets/mail-view.ts),
// read when a send is planned. An address mailed successfully after its failure is not held back.
import { readMailView, type SheetView, MailState, ListRow } from '../../sheets';
import { SEND_TEXTS } from '../outbox';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

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
  others: SheetView[] = readMailView(spreadsheet, current.sheetId),
): Map<string, EarlierFailure> {
  const latest = new Map<string, Outcome>();
  const note = (address: string, state: MailState, at: Date | null, failureReason = '') => {
    const outcome = address ? outcomeOf(state, at, failureReason) : null;
    if (!outcome) return;
    const before = latest.get(address);
    if (!before || outcome.at > before.at || (outcome.at === before.at && outcome.failed)) {
      latest.set(address, outcome);
    }
  };
  for (const row of current.rows) note(row.key, row.state, row.sentAt);
  for (const sheet of others)
    for (const row of sheet.rows)
      note(row.key, row.state, row.sentAt || row.refreshedAt || null, row.failureReason);
  const failures = new Map<string, EarlierFailure>();
  for (const [address, outcome] of latest) {
    if (outcome.failed) failures.set(address, { reason: outcome.reason, at: outcome.at });
  }
  return failures;
}

/** A row's known outcome: failed (with its reason) or sent; null while unknown or not sent. */
function outcomeOf(state: MailState, at: Date | null, failureReason: string): Outcome | null {
  const time = at ? at.getTime() : 0;
  if (state.kind === 'failed')
    return { failed: true, reason: failureReason || state.reason || SEND_TEXTS.failed, at: time };
  if (state.kind === 'sent' || state.kind === 'delivered') return { failed: false, reason: '', at: time };
  return null;
}

/** "Mailbox unavailable, 2026-01-05". */
export function failureWhy(failure: EarlierFailure, zone: string): string {
  const date = failure.at ? `, ${Utilities.formatDate(new Date(failure.at), zone, 'yyyy-MM-dd')}` : '';
  return `${failure.reason}${date}`;
}

/** "an earlier mail to this address failed (Mailbox unavailable, 2026-01-05)". */
export function failureText(failure: EarlierFailure, zone: string): string {
  return SEND_TEXTS.failedBefore(failureWhy(failure, zone));
}
