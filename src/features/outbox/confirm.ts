// What the paying user confirms, in their record (ledger.ts): the mail (first mail and steps) and each row as
// it was (its address, its salutation and the values the mail is filled with), under 64-bit keyed marks. A
// send, a scheduled send, a send waiting for the quota and every follow-up step send only rows confirmed as
// they are now, each mail once: a posted row's mark is spent, a changed row is held, and a list whose steps
// differ from those confirmed sends nothing until the payer reviews them in Compose.
import { ownerStamp, formatCount } from '../../platform';
import { type ListRow, MailingList } from '../../sheets';
import { Ledger, type LedgerList, markSet, type Person, type StopCode } from './ledger';
import { addressMark, boundFields, type ConfirmedMail, contentMark, mailMark } from './marks';
import { keptTest, testRecord } from './subject-test';
import { confirmGuard, dropGuardView } from './bounce-guard';
import { UserError } from '../errors';

/** What a send keeps of its confirmation: the list and the confirmation's number in the ledger. */
export interface ConfirmedRef {
  id: string;
}

/** Whether a row may get its first mail now, and if not, why (a code: the texts are the caller's). */
export type FirstVerdict =
  | { kind: 'send' }
  | { kind: 'notConfirmed' }
  | { kind: 'changed' }
  | { kind: 'spent' }
  | { kind: 'stopped'; code: StopCode };

/** A confirmation read back against the mail as it is now. */
export interface Confirmed {
  /** The mail is not the one confirmed: nothing may be sent with it. */
  mailChanged: boolean;
  verdict(row: ListRow): FirstVerdict;
}

const refOf = (sheetId: number, serial: number): ConfirmedRef => ({ id: `${sheetId}:${serial}` });

function parseRef(ref: ConfirmedRef | undefined): { sheetId: number; serial: number } | null {
  const [sheetId, serial] = String((ref && ref.id) || '')
    .split(':')
    .map(Number);
  return Number.isInteger(sheetId) && Number.isInteger(serial) ? { sheetId, serial } : null;
}

/** The most rows one more confirmation can take in the user's store; a message when `rows` is more. */
export function tooManyToConfirm(rows: number): string | null {
  const room = Ledger.roomFor(rows);
  if (room.fits) return null;
  return `This send has ${formatCount(rows)} rows; your add-on storage has room to confirm ${formatCount(room.most)} more now (the record of what you send keeps each row until its mails have gone). Select fewer rows (or filter the sheet) and send the rest once this send has ended: no row is sent twice.`;
}

/**
 * Keeps what the user confirms now: this mail to these rows of `sheetId`. `firstOnly`: addresses included on
 * purpose although they are in another list's sequence or replied there: they get this mail and no step.
 * `again`: addresses that got this campaign's first mail, which the user chose to send it to again.
 */
export function confirmSend(
  sheetId: number,
  mail: ConfirmedMail,
  rows: ListRow[],
  firstOnly: Set<string> = new Set(),
  again: Set<string> = new Set(),
): ConfirmedRef {
  const tooMany = tooManyToConfirm(rows.length);
  if (tooMany) throw new UserError(tooMany);
  const keyFp = ownerStamp('outreach').keyFp;
  let serial = 0;
  Ledger.change((ledger) => {
    ledger.dropStale();
    if (stepsChanged(ledger, sheetId, mail, keyFp)) throw new UserError(STEPS_CHANGED);
    const mark = mailMark(ledger.secret, mail);
    const fields = boundFields(mail);
    const sameMail = ledger.list(sheetId)?.mail === mark;
    const steps = (mail.followUps || []).length;
    const list = ledger.openList(sheetId, mark, steps, fields, keyFp, ledger.campaignMark(mail.campaign));
    const resent = new Set<string>();
    // A subject test runs once per mail confirmed: a later send of the same mail keeps its test (its winner).
    confirmGuard(list, mail.timing);
    if (!mail.subjectTest) delete list.test;
    else if (!sameMail || !list.test) list.test = testRecord(mail.subjectTest);
    serial = list.serial;
    for (const row of rows) {
      const addr = addressMark(ledger.secret, row.key);
      const known = list.people.get(addr);
      const chosen = again.has(row.key);
      if (known && known.posted > 0 && !chosen) continue; // its mail went: spent, never sent again from this list
      if (chosen) resent.add(addr);
      const content = contentMark(ledger.secret, fields, row);
      const stop = firstOnly.has(row.key) ? 'firstOnly' : '';
      list.people.set(addr, { addr, content, posted: 0, stop, serial, at: 0 });
    }
    list.again = [...resent].join('') || undefined;
  });
  return refOf(sheetId, serial);
}

/**
 * The list's steps differ from those this user confirmed with this key while people still have steps to come:
 * nothing new is sent from it until they review the steps in Compose.
 */
export function stepsChanged(ledger: Ledger, sheetId: number, mail: ConfirmedMail, keyFp: string): boolean {
  const list = ledger.list(sheetId);
  return !!list && list.keyFp === keyFp && stepsToCome(list) && list.mail !== mailMark(ledger.secret, mail);
}

export const STEPS_CHANGED =
  'The follow-ups of this list were changed after you confirmed them (by you or another editor): open Compose e-mail, review the steps and save them, then send. Nothing was sent.';

/** The confirmation checked against `mail` as it is now, or null when it is gone (then nothing may be sent). */
export function openConfirmed(ref: ConfirmedRef | undefined, mail: ConfirmedMail): Confirmed | null {
  const at = parseRef(ref);
  const ledger = Ledger.read();
  const list = at && ledger.list(at.sheetId);
  if (!at || !list) return null;
  const again = markSet(list.again);
  return {
    mailChanged: mailMark(ledger.secret, mail) !== list.mail,
    verdict: (row) => firstVerdict(ledger, list, row, at.serial, again),
  };
}

function firstVerdict(
  ledger: Ledger,
  list: LedgerList,
  row: ListRow,
  serial: number,
  again: Set<string>,
): FirstVerdict {
  const found = personOf(ledger, list, row);
  if (!found) return { kind: 'notConfirmed' };
  const { person } = found;
  if (person.posted > 0) return { kind: 'spent' };
  if (found.changed) return { kind: 'changed' };
  if (person.serial !== serial) return { kind: 'notConfirmed' };
  if (ledger.wasMailed(list.campaign, row.key) && !again.has(person.addr)) return { kind: 'spent' };
  const everywhere = ledger.stops.get(person.addr);
  if (everywhere && person.stop !== 'firstOnly') return { kind: 'stopped', code: everywhere };
  return { kind: 'send' };
}

/**
 * The rows whose address got this campaign's first mail, as the ledger says whatever their cells show
 * (from any list of the document), with when those mails went; none when the record knows of no such mail.
 */
export function mailedBefore(
  campaign: string,
  rows: ListRow[],
): { rows: ListRow[]; span: { first: number; last: number } | null } {
  const ledger = Ledger.read();
  const mark = ledger.campaignMark(campaign);
  const span = ledger.mailedSpan(mark);
  if (!span) return { rows: [], span };
  return { rows: rows.filter((row) => row.key && ledger.wasMailed(mark, row.key)), span };
}

/**
 * The row's person in the list's record, found by address, and whether the row changed since it was
 * confirmed (then nothing may be sent to it); null when the payer never confirmed that address there.
 */
export function personOf(
  ledger: Ledger,
  list: LedgerList,
  row: ListRow,
): { person: Person; changed: boolean } | null {
  if (!row.key) return null;
  const person = list.people.get(addressMark(ledger.secret, row.key));
  if (!person) return null;
  return { person, changed: person.content !== contentMark(ledger.secret, list.fields, row) };
}

/**
 * The send of `ref` ended (done, stopped, dropped, cancelled): its rows not posted leave the record (they never
 * get a step); a list with nothing left to send leaves it too.
 */
export function forgetConfirmed(ref: ConfirmedRef | undefined): void {
  const at = parseRef(ref);
  if (!at) return;
  Ledger.change((ledger) => {
    const list = ledger.list(at.sheetId);
    if (!list) return;
    for (const [addr, person] of list.people)
      if (person.posted === 0 && person.serial === at.serial) list.people.delete(addr);
    if (!stepsToCome(list) && !hasUnposted(list)) ledger.dropList(at.sheetId);
  });
  if (!Ledger.read().list(at.sheetId)) dropGuardView(at.sheetId);
}

/** Someone on the list may still get a step. */
export function stepsToCome(list: LedgerList): boolean {
  if (list.steps === 0) return false;
  for (const p of list.people.values()) if (p.posted > 0 && p.posted <= list.steps && !p.stop) return true;
  return false;
}

function hasUnposted(list: LedgerList): boolean {
  for (const p of list.people.values()) if (p.posted === 0) return true;
  return false;
}

/**
 * The payer saved the mail in Compose: the steps as they are now are the ones they confirm. Columns the new
 * mail fills that the old one did not are bound from the rows as they are now, for rows still as confirmed.
 */
export function reconfirmMail(sheet: GoogleAppsScript.Spreadsheet.Sheet, mail: ConfirmedMail): void {
  const sheetId = sheet.getSheetId();
  const keyFp = ownerStamp('outreach').keyFp;
  const current = Ledger.read().list(sheetId);
  if (!current || current.keyFp !== keyFp) return;
  const rows = MailingList.open(sheet, false).readRows();
  Ledger.change((ledger) => {
    const entry = ledger.list(sheetId);
    if (!entry || entry.keyFp !== keyFp) return;
    entry.mail = mailMark(ledger.secret, mail);
    entry.steps = (mail.followUps || []).length;
    entry.test = mail.subjectTest ? keptTest(entry.test, mail.subjectTest) : undefined;
    const fields = boundFields(mail);
    if (fields.join('\u0000') === entry.fields.join('\u0000')) return;
    for (const row of rows) {
      const found = personOf(ledger, entry, row);
      if (found && !found.changed) found.person.content = contentMark(ledger.secret, fields, row);
    }
    entry.fields = fields;
  });
}

/** People this user's sequence on the sheet still holds (steps to come, or a first mail on its way). */
export function sequenceReach(sheetId: number): number {
  const list = Ledger.read().list(sheetId);
  if (!list || list.steps === 0) return 0;
  let n = 0;
  for (const p of list.people.values()) if (!p.stop && p.posted <= list.steps) n++;
  return n;
}
