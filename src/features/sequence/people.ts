// One person across the document: before a first mail, the rows whose address replied on another list (as the
// sheets show it now, or as the payer's runs saw it before), whose company replied, or that are in another
// list's running follow-ups are found, to be left out (or sent a first mail only, on purpose); and how many
// of the rows this document mailed in the last 30 days, for the confirmation.
import { type SheetView, type ListRow, MailingList } from '../../sheets';
import { userToken, DAY_MS } from '../../platform';
import { Ledger, addressMark, allSequences } from '../outbox';
import { companyOf } from './sequence-eligibility';
import { readReplies } from './replies';
import { sequenceCell } from './sequence-column';
import { parseSequence } from './sequence-texts';

type ElsewhereCode = 'replied-elsewhere' | 'company-replied' | 'in-sequence';

export interface Elsewhere {
  code: ElsewhereCode;
  /** The company that replied, or the sheet whose follow-ups the address is in. */
  detail: string;
}

const RECENT_MS = 30 * DAY_MS;

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** The rows of a send that another list's reply or sequence holds back, by address. */
export function peopleElsewhere(
  spreadsheet: Spreadsheet,
  current: { sheetId: number; rows: ListRow[] },
  candidates: ListRow[],
  others?: SheetView[],
): Map<string, Elsewhere> {
  // This list's own ticks stop its steps (the run sees them); another list's hold back a first mail here. The
  // other lists' header rows, when the caller read them, are not read again.
  const headers = others && new Map(others.map((other) => [other.sheetId, other.headers]));
  const replies = readReplies(spreadsheet, { sheetId: current.sheetId, rows: [] }, headers);
  const ledger = Ledger.read();
  const running = runningElsewhere(spreadsheet, current.sheetId, ledger);
  const found = new Map<string, Elsewhere>();
  for (const row of candidates) {
    if (!row.key || found.has(row.key)) continue;
    const addr = addressMark(ledger.secret, row.key);
    if (replies.emails.has(row.key) || ledger.stops.has(addr)) {
      found.set(row.key, { code: 'replied-elsewhere', detail: '' });
      continue;
    }
    const company = companyOf(row);
    const colleague = company && replies.companies.get(company.key);
    if (company && (colleague || ledger.companies.has(addressMark(ledger.secret, company.key)))) {
      found.set(row.key, { code: 'company-replied', detail: company.label });
      continue;
    }
    const sheet = running.byMark.get(addr) || running.byKey.get(row.key);
    if (sheet) found.set(row.key, { code: 'in-sequence', detail: sheet });
  }
  return found;
}

/** Addresses with steps to come on other lists: the payer's own (their record), and other editors' (their cells). */
function runningElsewhere(
  spreadsheet: Spreadsheet,
  sheetId: number,
  ledger: Ledger,
): { byMark: Map<string, string>; byKey: Map<string, string> } {
  const names = new Map(spreadsheet.getSheets().map((s) => [s.getSheetId(), s]));
  const byMark = new Map<string, string>();
  for (const list of ledger.lists.values()) {
    if (list.sheetId === sheetId || list.steps === 0 || !names.has(list.sheetId)) continue;
    for (const p of list.people.values())
      if (p.posted > 0 && p.posted <= list.steps && !p.stop)
        byMark.set(p.addr, names.get(list.sheetId)!.getName());
  }
  const byKey = new Map<string, string>();
  const me = userToken();
  for (const record of allSequences()) {
    const sheet = names.get(record.sheetId);
    if (record.owner === me || record.sheetId === sheetId || !sheet) continue;
    try {
      for (const row of MailingList.open(sheet, false).readRows()) {
        const shown = parseSequence(sequenceCell(row));
        if (row.key && (shown === 'next' || shown === 'waiting' || shown === 'paused'))
          byKey.set(row.key, sheet.getName());
      }
    } catch {
      continue; // its recipient column is gone
    }
  }
  return { byMark, byKey };
}

/** How many of `rows` this document mailed in the last 30 days (any list, Tracking included). */
export function mailedRecently(rows: ListRow[], record: SheetView[], current: ListRow[]): number {
  const since = Date.now() - RECENT_MS;
  const recent = new Set<string>();
  for (const row of current) if (row.sentAt && row.sentAt.getTime() >= since) recent.add(row.key);
  for (const sheet of record)
    for (const row of sheet.rows) if (row.sentAt && row.sentAt.getTime() >= since) recent.add(row.key);
  return new Set(rows.filter((row) => recent.has(row.key)).map((row) => row.key)).size;
}
