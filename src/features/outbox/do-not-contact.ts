// The "Do not contact" sheet: addresses and whole domains (`@example.com`, which also covers its
// subdomains) that no send of this document mails — test mails included — with an optional reason. Read in
// one block when a send is planned and again before each batch of chunks; matching ignores case and surrounding
// spaces. The service has no unsubscribe endpoint: recipients who reply "Unsubscribe" reach the user, who
// adds them here (the menu action adds the selected rows' addresses).
import { spreadsheetZone } from '../words';
import {
  addressKey,
  cellText,
  DO_NOT_CONTACT,
  Skipped,
  skipped,
  selectedRows,
  Table,
  MailingList,
  RecipientColumnMissing,
} from '../../sheets';
import { isValidEmail } from '../../api';
import { SEND_TEXTS } from './send-texts';
import { inform, toast } from '../../ui';
import { count, formatCount } from '../../platform';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

export interface DoNotContact {
  /** Address → reason ('' when none was given). */
  addresses: Map<string, string>;
  /** Domain (without '@') → reason. */
  domains: Map<string, string>;
}

const normalize = (value: unknown) => addressKey(cellText(value));

/** The list as it stands (empty when the sheet does not exist). */
export function readDoNotContact(spreadsheet: Spreadsheet): DoNotContact {
  const list: DoNotContact = { addresses: new Map(), domains: new Map() };
  const table = Table.find(spreadsheet, DO_NOT_CONTACT);
  if (!table || !table.column('email')) return list;
  for (const row of table.readAll()) {
    const entry = normalize(row.values.email);
    const reason = cellText(row.values.reason).trim();
    if (!entry) continue;
    if (entry.startsWith('@')) list.domains.set(entry.slice(1), reason);
    else if (entry.includes('@')) list.addresses.set(entry, reason);
    else if (entry.includes('.')) list.domains.set(entry, reason); // a domain written without its @
  }
  return list;
}

/** The reason an address is listed ('' when listed without one), or null when it is not listed. */
export function listedReason(list: DoNotContact, email: string): string | null {
  const address = addressKey(email);
  const direct = list.addresses.get(address);
  if (direct !== undefined) return direct;
  let domain = address.slice(address.lastIndexOf('@') + 1);
  while (domain) {
    const reason = list.domains.get(domain);
    if (reason !== undefined) return reason;
    const dot = domain.indexOf('.');
    domain = dot < 0 ? '' : domain.slice(dot + 1);
  }
  return null;
}

/** "on the do-not-contact list (reason)". */
export function listedText(reason: string): string {
  return SEND_TEXTS.listed(reason);
}

/** The state of a row left out because its address is listed. */
export function listedStatus(reason: string): Skipped {
  return skipped('do-not-contact', listedText(reason));
}

/**
 * Adds addresses with their reason (the mailbox scan: "asked to be removed in a reply on 2026-12-03"); one
 * already listed (or its domain) is kept as it is. Answers how many were added.
 */
export function listOnDoNotContact(
  spreadsheet: Spreadsheet,
  entries: Array<{ email: string; reason: string }>,
): number {
  if (entries.length === 0) return 0;
  const listed = readDoNotContact(spreadsheet);
  const seen = new Set<string>();
  const added = entries.filter(({ email }) => {
    const key = addressKey(email);
    if (!key || seen.has(key) || listedReason(listed, key) !== null) return false;
    seen.add(key);
    return true;
  });
  Table.open(spreadsheet, DO_NOT_CONTACT).append(added.map(({ email, reason }) => ({ email, reason })));
  return added.length;
}

/** Menu: adds the selected rows' addresses to the list (made on first use); already listed ones are kept once. */
export function addSelectedToDoNotContact(): void {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const sheet = spreadsheet.getActiveSheet();
  const fresh = !spreadsheet.getSheetByName(DO_NOT_CONTACT.sheetName);
  if (sheet.getName() === DO_NOT_CONTACT.sheetName) {
    inform('Do not contact', HOW_TO);
    return;
  }
  const addresses = selectedAddresses(spreadsheet, sheet);
  const table = Table.open(spreadsheet, DO_NOT_CONTACT);
  if (addresses.length === 0) {
    inform('Do not contact', `${fresh ? 'The sheet "Do not contact" was created. ' : ''}${HOW_TO}`);
    return;
  }
  const listed = readDoNotContact(spreadsheet);
  const seen = new Set<string>();
  const day = Utilities.formatDate(new Date(), spreadsheetZone(spreadsheet), 'yyyy-MM-dd');
  const added = addresses.filter((email) => {
    const key = addressKey(email);
    if (seen.has(key) || listedReason(listed, key) !== null) return false;
    seen.add(key);
    return true;
  });
  table.append(added.map((email) => ({ email, reason: `added from "${sheet.getName()}" on ${day}` })));
  const already = new Set(addresses.map(addressKey)).size - added.length;
  toast(
    `${count(added.length, 'address', 'addresses')} added to "Do not contact"${already ? `; ${formatCount(already)} already listed` : ''}. No send mails them any more.`,
    'Do not contact',
    10,
  );
}

function selectedAddresses(spreadsheet: Spreadsheet, sheet: GoogleAppsScript.Spreadsheet.Sheet): string[] {
  const rows = selectedRows(spreadsheet, sheet);
  if (rows.size === 0) return [];
  let list: MailingList;
  try {
    list = MailingList.open(sheet, false);
  } catch (error) {
    if (error instanceof RecipientColumnMissing) return [];
    throw error;
  }
  return list
    .readRows(rows)
    .map((row) => row.email.trim())
    .filter((email) => isValidEmail(email));
}

const HOW_TO =
  'No send of this document (test mails included) mails an address listed on the sheet "Do not contact", or any address of a domain listed as @example.com; the Reason column is shown on the rows skipped. To add addresses, select rows of a mailing list and use Extensions › Outreach › Add selected to Do not contact, or type them on the sheet.';
