// Who replied, read from every list of the document (a sheet with a Replied column): a person who replied on
// one list gets no step of another, and nobody at their company does. What a run sees here goes into the
// ledger (a stop lasts); the sheets are read again at each run.
import { headerCells, type ListRow, MailingList, normalizeHeader } from '../../sheets';
import { companyOf, type Replies } from './sequence-eligibility';
import { hasReplied, REPLIED_HEADER } from './sequence-column';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** The replies of every list; `known` are rows already read (a list the run has in hand). */
export function readReplies(
  spreadsheet: Spreadsheet,
  known?: { sheetId: number; rows: ListRow[] },
  headersRead?: Map<number, unknown[]>,
): Replies {
  const replies: Replies = { emails: new Set(), companies: new Map() };
  const replied = normalizeHeader(REPLIED_HEADER);
  for (const sheet of spreadsheet.getSheets()) {
    let rows: ListRow[];
    const sheetId = sheet.getSheetId();
    if (known && sheetId === known.sheetId) rows = known.rows;
    else {
      const headers = (headersRead?.get(sheetId) ?? headerCells(sheet, true)).map(normalizeHeader);
      if (!headers.includes(replied) || sheet.getLastRow() < 2) continue;
      try {
        rows = MailingList.open(sheet, false).readRows();
      } catch {
        continue; // no recipient column: not a list
      }
    }
    for (const row of rows) {
      if (!row.key || !hasReplied(row)) continue;
      replies.emails.add(row.key);
      const company = companyOf(row);
      if (company && !replies.companies.has(company.key))
        replies.companies.set(company.key, { email: row.email });
    }
  }
  return replies;
}
