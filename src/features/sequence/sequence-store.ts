// A list's running follow-up sequence: one small record per sheet in document properties
// (`sequence.<sheetId>`: who pays, with which key, the id of what they confirmed, and what the last run found
// for the summary), the same size at 10 rows or 20,000; where each row is lives on the sheets (the Sequence
// and Replied columns, the follow-up mails: step-mails.ts). What the paying user confirmed — the follow-ups
// (a mark of the mail) and the recipients of the first send — is kept in that user's own properties
// (platform/confirmations.ts), as a send's confirmation is: no editor can add a row or change a step that
// their trigger then pays for. The owner saving the mail again in Compose confirms the new steps.
import {
  forgetConfirmation,
  keepConfirmation,
  readConfirmation,
  updateConfirmation,
} from '../../platform/confirmations';
import { ownerStamp, userToken } from '../../platform/owner';
import { sheetRecords } from '../../platform/sheet-records';
import { hash32 } from '../mail/confirmed-send';
import type { MailTemplate } from '../mail/mail-template';
import type { FollowUp } from './sequence-steps';

/** What the last run found, for the Tracking summary. */
export interface SequenceState {
  /** The next step due (0: none left). */
  nextStep: number;
  nextAt: number;
  /** Rows with a step still to come. */
  rowsLeft: number;
  /** Why a due step waits (the quota, credits…), if it does. */
  waiting?: string;
  /** Since when it waits for the sending quota (it gives up after 7 days, as a send does). */
  quotaSince?: number;
  at: number;
}

export interface SequenceRecord {
  sheetId: number;
  sheetName: string;
  owner: string;
  keyFp: string;
  /** The confirmation's id in the owner's user properties. */
  confirmation: string;
  startedAt: number;
  state?: SequenceState;
  /** The list's last row that has a Replied checkbox (rows added below get theirs at the next run). */
  checkedTo?: number;
}

/** The sequence's mail as confirmed: the first mail's campaign and subject, and every step. */
type SequenceMail = Pick<MailTemplate, 'campaign' | 'subject' | 'bodyFormat'> & { followUps?: FollowUp[] };

interface StoredMarks {
  v: 1;
  secret: string;
  mail: string;
  /** Sorted marks of the recipients' addresses, MARK_CHARS each. */
  marks: string;
}

const MARK_CHARS = 6;
const RENEW_MS = 24 * 3600_000;
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

const records = sheetRecords<SequenceRecord>('sequence.', (value) => typeof value.sheetId === 'number');

export function sequenceOf(sheetId: number): SequenceRecord | null {
  return records.get(sheetId);
}

export function saveSequence(record: SequenceRecord): void {
  records.save(record.sheetId, record);
}

/** The sequence ends: its record goes, and the owner's confirmation with it (when it is theirs). */
export function endSequence(record: SequenceRecord): void {
  records.remove(record.sheetId);
  if (record.owner === userToken()) forgetConfirmation(record.confirmation);
}

export function allSequences(properties?: Record<string, string>): SequenceRecord[] {
  return records.all(properties);
}

/** The sequences the current user's trigger sends. */
export function mySequences(properties?: Record<string, string>): SequenceRecord[] {
  const me = userToken();
  return allSequences(properties).filter((s) => s.owner === me);
}

/**
 * The user confirmed a first send with follow-ups to these addresses: they join the sheet's sequence (this
 * user's, with this key), or start one. A sequence of another user or key on the sheet is replaced: its rows
 * that this user did not confirm get no more steps.
 */
export function startSequence(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  mail: SequenceMail,
  keys: string[],
  checkedTo?: number,
): void {
  const stamp = ownerStamp('outreach');
  const sheetId = sheet.getSheetId();
  const earlier = sequenceOf(sheetId);
  const same = earlier && earlier.owner === stamp.owner && earlier.keyFp === stamp.keyFp;
  const stored = same ? readConfirmation<StoredMarks>(earlier.confirmation) : null;
  const secret = stored ? stored.secret : Utilities.getUuid() + Utilities.getUuid();
  const marks = new Set(stored ? splitMarks(stored.marks) : []);
  for (const key of keys) marks.add(addressMark(secret, key));
  const value: StoredMarks = {
    v: 1,
    secret,
    mail: mailMark(secret, mail),
    marks: [...marks].sort().join(''),
  };
  let confirmation: string;
  if (same && stored) {
    confirmation = earlier.confirmation;
    updateConfirmation(confirmation, value);
  } else {
    if (earlier && earlier.owner === stamp.owner) forgetConfirmation(earlier.confirmation);
    confirmation = keepConfirmation(value);
  }
  saveSequence({
    sheetId,
    sheetName: sheet.getName(),
    owner: stamp.owner,
    keyFp: stamp.keyFp,
    confirmation,
    startedAt: same ? earlier.startedAt : Date.now(),
    ...(same && earlier.state ? { state: earlier.state } : {}),
    ...(checkedTo ? { checkedTo } : {}),
  });
}

/** Another editor's sequence on this sheet, said to the user about to start one; null when there is none. */
export function otherSequenceOnSheet(sheet: GoogleAppsScript.Spreadsheet.Sheet): string | null {
  const record = sequenceOf(sheet.getSheetId());
  if (!record || record.owner === userToken()) return null;
  return `Another editor's follow-ups are running on "${sheet.getName()}", with their key: one sequence runs on a sheet. Send these rows from another sheet, or ask them to stop theirs (Stop follow-ups for this sheet), then send.`;
}

/** The owner saved the mail in Compose: the steps as they are now are the ones they confirm. */
export function reconfirmSequenceMail(sheetId: number, mail: SequenceMail): void {
  const record = sequenceOf(sheetId);
  if (!record || record.owner !== userToken()) return;
  const stored = readConfirmation<StoredMarks>(record.confirmation);
  if (!stored || stored.v !== 1) return;
  updateConfirmation(record.confirmation, { ...stored, mail: mailMark(stored.secret, mail) });
}

/** What the owner confirmed, checked against the mail as it is now; null when it is gone. */
export function openSequence(
  record: SequenceRecord,
  mail: SequenceMail,
): { mailChanged: boolean; has: (key: string) => boolean } | null {
  const stored = readConfirmation<StoredMarks & { at?: number }>(record.confirmation);
  if (!stored || stored.v !== 1) return null;
  // Confirmations of sends that never ended are dropped after 45 days: a sequence may run 150. Renewed daily.
  if (record.owner === userToken() && Date.now() - (stored.at || 0) > RENEW_MS) {
    const { at: _at, ...kept } = stored;
    updateConfirmation(record.confirmation, kept);
  }
  const marks = new Set(splitMarks(stored.marks));
  return {
    mailChanged: mailMark(stored.secret, mail) !== stored.mail,
    has: (key) => marks.has(addressMark(stored.secret, key)),
  };
}

function splitMarks(text: string): string[] {
  const marks: string[] = [];
  for (let i = 0; i < text.length; i += MARK_CHARS) marks.push(text.slice(i, i + MARK_CHARS));
  return marks;
}

function mailMark(secret: string, mail: SequenceMail): string {
  const steps = (mail.followUps || []).map((s) => [
    s.afterDays,
    s.workingDaysOnly,
    s.unopenedOnly,
    s.subject,
    s.body,
  ]);
  const text = JSON.stringify([mail.campaign, mail.subject, mail.bodyFormat, steps]);
  return `${hash32(secret, text)}.${hash32(`${secret}:2`, text)}`;
}

function addressMark(secret: string, key: string): string {
  let text = '';
  for (let i = 0, v = hash32(secret, key); i < MARK_CHARS; i++, v = Math.floor(v / 64))
    text += DIGITS[v % 64];
  return text;
}
