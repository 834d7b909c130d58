// A list's running follow-up sequence as the document shows it: one small record per sheet in document
// properties (`sequence.<sheetId>`: who pays, with which key, and what the last run found, for the summary),
// and the stops any editor asked for from the menu (`sequence.stop.<sheetId>`: addresses, until the payer's
// run takes them into their record). Who gets a step is decided by the payer's own record (outbox/ledger.ts):
// removing a record here ends the sequence (every editor may stop one), it never starts or widens one.
import { type WaitCode } from '../../sheets';
import {
  ownerStamp,
  userToken,
  deleteLarge,
  readLarge,
  writeLarge,
  packText,
  unpackText,
  sheetRecords,
} from '../../platform';

export interface Wait {
  code: WaitCode;
  /** What the service or the check said (the quota's detail, the problems, the error). */
  detail?: string;
}

/** What the last run found, for the Tracking summary. */
interface SequenceState {
  /** The next step due (0: none left). */
  nextStep: number;
  nextAt: number;
  /** Rows with a step still to come. */
  rowsLeft: number;
  /** Why a due step waits (the quota, credits…), if it does. */
  wait?: Wait;
  /** Since when it waits for the sending quota (it gives up after 7 days, as a send does). */
  quotaSince?: number;
  at: number;
}

export interface SequenceRecord {
  sheetId: number;
  sheetName: string;
  owner: string;
  keyFp: string;
  startedAt: number;
  state?: SequenceState;
  /** The list's last row that has a Replied checkbox (rows added below get theirs at the next run). */
  checkedTo?: number;
}

const records = sheetRecords<SequenceRecord>('sequence.', (value) => typeof value.sheetId === 'number');
const STOP_PREFIX = 'sequence.stop.';
/** Stop requests kept per sheet until the payer's run takes them (a whole sheet is stopped by its record). */
const MAX_STOP_REQUESTS = 2_000;

export function sequenceOf(sheetId: number): SequenceRecord | null {
  return records.get(sheetId);
}

export function saveSequence(record: SequenceRecord): void {
  records.save(record.sheetId, record);
}

/** The sequence ends for the document (its stop requests stay for the payer's run to take). */
export function endSequence(record: Pick<SequenceRecord, 'sheetId'>): void {
  records.remove(record.sheetId);
}

export function allSequences(properties?: Record<string, string>): SequenceRecord[] {
  return records.all(properties).filter((record) => record.owner !== undefined);
}

/** The sequences the current user's trigger sends. */
export function mySequences(properties?: Record<string, string>): SequenceRecord[] {
  const me = userToken();
  return allSequences(properties).filter((s) => s.owner === me);
}

/** The user confirmed a first send with follow-ups on `sheet`: the document shows their sequence. */
export function startSequence(sheet: GoogleAppsScript.Spreadsheet.Sheet, checkedTo?: number): void {
  const stamp = ownerStamp('outreach');
  const sheetId = sheet.getSheetId();
  const earlier = sequenceOf(sheetId);
  const same = earlier && earlier.owner === stamp.owner && earlier.keyFp === stamp.keyFp;
  saveSequence({
    sheetId,
    sheetName: sheet.getName(),
    owner: stamp.owner,
    keyFp: stamp.keyFp,
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

/** Any editor asks that these addresses of the sheet get no more steps. */
export function requestStops(sheetId: number, emails: string[]): void {
  const store = PropertiesService.getDocumentProperties();
  const all = stopRequests(sheetId);
  for (const email of emails) all.add(email);
  const kept = [...all].slice(-MAX_STOP_REQUESTS);
  writeLarge(store, STOP_PREFIX + sheetId, packText(kept.join('\n')));
}

/** The stop requests of a sheet not yet taken into the ledger. */
export function stopRequests(sheetId: number): Set<string> {
  const text = readLarge<string>(
    PropertiesService.getDocumentProperties().getProperties(),
    STOP_PREFIX + sheetId,
  );
  return new Set(text ? unpackText(text).split('\n').filter(Boolean) : []);
}

/** The ledger holds the requests now: they leave the document. */
export function clearStopRequests(sheetId: number): void {
  deleteLarge(PropertiesService.getDocumentProperties(), STOP_PREFIX + sheetId);
}
