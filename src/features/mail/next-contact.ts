// Menu: "Add next contact for failed mails". For each selected row whose mail failed (a bounce), the next
// contact of the same company from the Contacts sheet is appended to the list, with a "Replaces" cell naming
// the failed address, ready for the next send, once the user has seen each new address and its row and said
// yes. The company is the row's Company hash ID where the list has
// one, else the one Contacts gives the failed address, else its e-mail domain (never a webmail domain).
// A contact of the same Department comes first; one already on the list, on Do not contact, or whose mail
// from this document failed never does.
// Nothing is charged and nothing is sent: the user sends the new rows as any unsent row.
import {
  addressKey,
  cellText,
  CellValue,
  textCell,
  CONTACTS,
  isRecipientHeader,
  ListRow,
  MailingList,
  selectedRows,
  normalizeHeader,
  Table,
  TableLayout,
} from '../../sheets';
import { confirm, inform, toast } from '../../ui';
import { listedReason, readDoNotContact, companyDomain } from '../outbox';
import { earlierFailures } from './earlier-failures';
import { UserError } from '../errors';
import { count, formatCount, plural } from '../../platform';

const TITLE = 'Next contact after a bounce';
const REPLACES_HEADER = 'Replaces';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

interface Contact {
  email: string;
  key: string;
  hash: string;
  domain: string;
  department: string;
  /** Normalised Contacts header → the cell. */
  cells: Map<string, unknown>;
}

/** A failed row and the contact found for it (or why none was). */
interface Replacement {
  row: ListRow;
  contact?: Contact;
  why?: string;
}

export function addNextContacts(): void {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  addNextContactsFor(selectedRows(spreadsheet, spreadsheet.getActiveSheet()));
}

/** The same for the active sheet's rows `chosen` (row numbers): Resume offers it for the failed rows. */
export function addNextContactsFor(chosen: Set<number>): void {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const sheet = spreadsheet.getActiveSheet();
  const contacts = readContacts(spreadsheet);
  if (contacts.length === 0) throw new UserError(NO_CONTACTS);
  const list = MailingList.open(sheet, false);
  const rows = list.readRows();
  const failed = rows.filter((row) => chosen.has(row.rowNumber) && row.state.kind === 'failed');
  if (failed.length === 0) throw new UserError(NONE_FAILED);
  const failedBefore = earlierFailures(spreadsheet, { sheetId: sheet.getSheetId(), rows });
  const found = findReplacements(spreadsheet, rows, failed, contacts, failedBefore);
  const added = found.filter((r) => r.contact);
  const notFailed = chosen.size - failed.length;
  if (added.length === 0) return inform(TITLE, missingLines(found, notFailed).join('\n'));
  // The user sees who joins the list, and where, before anything is written.
  const layout = contactLayout(sheet, list.headers);
  const at = Table.find(spreadsheet, layout)!.nextRow();
  if (!confirm(TITLE, questionText(sheet.getName(), at, added, found, notFailed))) {
    toast('No contact was added.', TITLE);
    return;
  }
  const first = Table.open(spreadsheet, layout).append(contactRecords(layout, added));
  toast(addedText(first, added.length), TITLE, 10);
}

/** Contacts rows with an address, in the sheet's order. */
function readContacts(spreadsheet: Spreadsheet): Contact[] {
  const sheet = spreadsheet.getSheetByName(CONTACTS.sheetName);
  if (!sheet || sheet.getLastRow() < 2) return [];
  const grid = sheet.getRange(1, 1, sheet.getLastRow(), sheet.getLastColumn()).getValues();
  const headers = grid[0].map(normalizeHeader);
  const at = (name: string) => headers.indexOf(normalizeHeader(name));
  const [email, hash, department] = ['E-mail', 'Company hash ID', 'Department'].map(at);
  if (email < 0) return [];
  return grid.slice(1).flatMap((cells): Contact[] => {
    const address = cellText(cells[email]).trim();
    if (!address.includes('@')) return [];
    const named = new Map<string, unknown>();
    headers.forEach((h, i) => h && !named.has(h) && named.set(h, cells[i]));
    const key = addressKey(address);
    return [
      {
        email: address,
        key,
        hash: hash < 0 ? '' : cellText(cells[hash]).trim(),
        domain: companyDomain(key),
        department: department < 0 ? '' : cellText(cells[department]).trim().toLowerCase(),
        cells: named,
      },
    ];
  });
}

/** For each failed row, the first contact of its company not yet on the list (same Department first). */
function findReplacements(
  spreadsheet: Spreadsheet,
  rows: ListRow[],
  failed: ListRow[],
  contacts: Contact[],
  failedBefore: Map<string, unknown>,
): Replacement[] {
  const doNotContact = readDoNotContact(spreadsheet);
  const taken = new Set(rows.map((row) => row.key));
  const replaced = new Set(rows.map((row) => replacedKey(row)).filter((key) => key));
  const byKey = new Map(contacts.map((c) => [c.key, c]));
  return failed.map((row): Replacement => {
    if (replaced.has(row.key)) return { row, why: 'already replaced by a row of this list' };
    const known = byKey.get(row.key);
    const hash = cell(row, 'Company hash ID') || (known ? known.hash : '');
    const domain = companyDomain(row.key);
    if (!hash && !domain)
      return { row, why: 'its company is not known (no Company hash ID, webmail address)' };
    const department = (cell(row, 'Department') || (known ? known.department : '')).toLowerCase();
    const colleagues = contacts.filter(
      (c) =>
        (hash ? c.hash === hash : c.domain === domain) &&
        !taken.has(c.key) &&
        !failedBefore.has(c.key) &&
        listedReason(doNotContact, c.key) === null,
    );
    const contact = colleagues.find((c) => department && c.department === department) || colleagues[0];
    if (!contact) return { row, why: 'no other contact of its company on Contacts' };
    taken.add(contact.key);
    replaced.add(row.key);
    return { row, contact };
  });
}

function cell(row: ListRow, header: string): string {
  return (row.display.get(normalizeHeader(header)) || '').trim();
}

/** The address a row replaces (its Replaces cell: "ann@acme.com (row 5, failed)"), lower case, or ''. */
function replacedKey(row: ListRow): string {
  const text = cell(row, REPLACES_HEADER);
  const space = text.indexOf(' ');
  return (space < 0 ? text : text.slice(0, space)).toLowerCase();
}

/**
 * The list's columns by header (the first of two alike), Replaces added at the right when missing: every
 * column whose header matches one of Contacts gets that cell, the e-mail column the address, Replaces the
 * failed one. The contacts go right below the list, not below notes under it (rows are inserted there).
 */
function contactLayout(sheet: Sheet, headers: string[]): TableLayout {
  const names = headers.map(normalizeHeader);
  const replaces = normalizeHeader(REPLACES_HEADER);
  const columns: TableLayout['columns'] = [];
  names.forEach((name, i) => {
    if (name && name !== replaces && names.indexOf(name) === i)
      columns.push({ key: `h${i}`, header: headers[i] });
  });
  columns.push({ key: 'replaces', header: REPLACES_HEADER });
  return { sheetName: sheet.getName(), columns, block: true };
}

/** The contacts' cells, as text (they came from the service). */
function contactRecords(layout: TableLayout, found: Replacement[]): Array<Record<string, CellValue>> {
  const columns = layout.columns;
  return found.map(({ row, contact }) => {
    const record: Record<string, CellValue> = {};
    for (const { key, header } of columns.slice(0, -1)) {
      const value = isRecipientHeader(header) ? contact!.email : contact!.cells.get(normalizeHeader(header));
      if (value !== undefined) record[key] = textCell(cellText(value));
    }
    record.replaces = textCell(`${row.email} (row ${row.rowNumber}, failed)`);
    return record;
  });
}

const SHOWN = 15;

/** The question before the contacts join: each new address, the row it will take and the one it replaces. */
function questionText(
  sheetName: string,
  at: number,
  added: Replacement[],
  found: Replacement[],
  notFailed: number,
): string {
  const n = added.length;
  const lines = [
    `Add ${count(n, 'contact')} to "${sheetName}" as ${rowsText(at, n)}, ${plural(n, '', 'each ')}replacing a failed mail of the same company?`,
  ];
  added.slice(0, SHOWN).forEach(({ row, contact }, i) => {
    const name = contact!.cells.get(normalizeHeader('Name'));
    const who = name ? `${contact!.email} (${cellText(name)})` : contact!.email;
    lines.push(
      `• row ${formatCount(at + i)}: ${who}, replacing ${row.email} (row ${formatCount(row.rowNumber)})`,
    );
  });
  if (n > SHOWN) lines.push(`• and ${formatCount(n - SHOWN)} more, in ${rowsText(at + SHOWN, n - SHOWN)}`);
  lines.push('Nothing is sent or charged now: you send the new rows as any unsent row.');
  const missing = missingLines(found, notFailed);
  if (missing.length) lines.push('', ...missing);
  return lines.join('\n');
}

function rowsText(first: number, n: number): string {
  return n === 1 ? `row ${formatCount(first)}` : `rows ${formatCount(first)}–${formatCount(first + n - 1)}`;
}

function addedText(first: number, added: number): string {
  return `${count(added, 'contact')} added (${rowsText(first, added)}), ${plural(added, '', 'each ')}replacing a failed mail of the same company. Nothing was sent or charged: send them with "Send e-mails to selected rows" or "Send to all unsent rows".`;
}

/** The failed rows no contact was found for, and the selected rows that had not failed. */
function missingLines(found: Replacement[], notFailed: number): string[] {
  const lines: string[] = [];
  const missing = found.filter((r) => !r.contact);
  if (missing.length > 0) {
    lines.push(`No contact found for ${count(missing.length, 'row')}:`);
    for (const r of missing.slice(0, 10)) lines.push(`• row ${r.row.rowNumber} (${r.row.email}): ${r.why}`);
    if (missing.length > 10) lines.push(`• and ${missing.length - 10} more`);
    lines.push('Unlock the company again, or search for more contacts, to find others (Search companies…).');
  }
  if (notFailed > 0)
    lines.push(
      `${count(notFailed, 'selected row')} whose mail did not fail ${plural(notFailed, 'was', 'were')} left as ${plural(notFailed, 'it is', 'they are')}.`,
    );
  return lines;
}

const NO_CONTACTS =
  'There is no Contacts sheet with e-mail addresses yet: unlock companies first (Search companies…, then Unlock selected companies), which fills Contacts.';
const NONE_FAILED =
  'None of the selected rows has a failed mail (Mail status "Failed"). Select the rows whose mail bounced (after Refresh tracking), then run this again.';
