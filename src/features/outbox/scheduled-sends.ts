// The sends scheduled for later: one per sheet (document property `schedule.<sheetId>`), made by one user,
// whose hourly trigger starts it (with that user's key) in the first run at or after its time. A schedule
// is taken out of the store under the document lock before its send starts, so it never starts twice.
// A schedule that cannot run (its key cannot pay, its editor's runs stopped checking it, or it is long past
// due) blocks nobody: any editor may cancel or replace it, and a late run of its editor does not start it.
import { withDocumentLock, sheetRecords, userToken, HOUR_MS, formatCount } from '../../platform';
import { startWindowText } from './scheduled-send-time';
import type { ConfirmedRef } from './confirm';
import { spreadsheetZone, whenText } from '../words';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

export interface ScheduledSend {
  sheetId: number;
  sheetName: string;
  /** When the send may start (ms). */
  at: number;
  /** The token of the user whose trigger runs it. */
  owner: string;
  /** The fingerprint of the key it was scheduled with: it starts only with that key. */
  keyFp: string;
  savedAt: number;
  /** The mail and rows confirmed when it was scheduled, in the owner's properties (outbox/confirm.ts). */
  confirmed: ConfirmedRef;
  /** How many rows were confirmed (the e-mail credits it needs). */
  rows?: number;
  /** What the owner's last check of their key found (schedule-check.ts). */
  check?: ScheduleCheck;
}

/** Why the owner's key cannot pay for the send, as their last check found. */
type CannotPay = 'no-key' | 'key-refused' | 'other-key' | 'no-edm';

export interface ScheduleCheck {
  at: number;
  cannot?: CannotPay;
  /** The usable EDM found, with 'no-edm'. */
  usable?: number;
}

/** A due schedule not started by then is not started at all (the trigger runs about hourly). */
export const EXPIRES_AFTER_MS = 6 * HOUR_MS;
/** The owner's hourly run checks at least every 6 hours: a check older than this means their runs stopped. */
const STALE_AFTER_MS = 26 * HOUR_MS;

/** Why the schedule cannot run, in words that end a sentence (said to its owner when `mine`); null when it can. */
export function whyCannotRun(
  schedule: ScheduledSend,
  zone: string,
  mine = false,
  now = Date.now(),
): string | null {
  if (schedule.at + EXPIRES_AFTER_MS < now)
    return `it was due at ${whenText(schedule.at, zone)} and has not started since`;
  const check = schedule.check || { at: schedule.savedAt };
  const whose = mine ? 'your' : "the scheduling editor's";
  if (check.cannot === 'no-key') return `${whose} Settings have no outreach API key`;
  if (check.cannot === 'key-refused') return `the service refuses ${whose} outreach API key`;
  if (check.cannot === 'other-key')
    return `${whose} outreach API key is not the one it was scheduled with, and it is sent only with that one`;
  if (check.cannot === 'no-edm') {
    const usable = check.usable === undefined ? '' : `: ${formatCount(check.usable)} usable`;
    return `${whose} key has too few e-mail credits (EDM) for its ${formatCount(schedule.rows || 0)} e-mails${usable}`;
  }
  if (check.at + STALE_AFTER_MS < now)
    return `${whose} hourly run has not checked it since ${whenText(check.at, zone)}`;
  return null;
}

const records = sheetRecords<ScheduledSend>('schedule.', (value) => typeof value.at === 'number');

export function scheduleOf(sheetId: number): ScheduledSend | null {
  return records.get(sheetId);
}

export function saveSchedule(schedule: ScheduledSend): void {
  records.save(schedule.sheetId, schedule);
}

export function deleteSchedule(sheetId: number): void {
  records.remove(sheetId);
}

/** Every schedule of the document (from properties already read, or read now). */
export function allSchedules(properties?: Record<string, string>): ScheduledSend[] {
  return records.all(properties).sort((a, b) => a.at - b.at);
}

/** The schedules the current user's trigger runs. */
export function mySchedules(properties?: Record<string, string>): ScheduledSend[] {
  const me = userToken();
  return allSchedules(properties).filter((s) => s.owner === me);
}

/** Takes a due schedule of this user out of the store; null when it is gone (cancelled, or taken). */
export function claimSchedule(sheetId: number): ScheduledSend | null {
  return withDocumentLock(
    10_000,
    () => {
      const schedule = scheduleOf(sheetId);
      if (!schedule || schedule.owner !== userToken() || schedule.at > Date.now()) return null;
      deleteSchedule(sheetId);
      return schedule;
    },
    () => null,
    { flush: false },
  );
}

/**
 * Removes another editor's schedule of this sheet if it still cannot run (read again under the document
 * lock: their run may have just found credits); answers why it could not, or null when it was left.
 */
export function dropUnrunnable(sheetId: number, zone: string): string | null {
  return withDocumentLock(
    10_000,
    () => {
      const schedule = scheduleOf(sheetId);
      const why = schedule && schedule.owner !== userToken() ? whyCannotRun(schedule, zone) : null;
      if (why) deleteSchedule(sheetId);
      return why;
    },
    () => null,
    { flush: false },
  );
}

export interface ScheduleView {
  /** The time given, as a wall time in the spreadsheet's zone (for the dialog's date-time field). */
  when: string;
  text: string;
  zone: string;
  /** The current user may cancel it: theirs, or another editor's that cannot run. */
  cancellable: boolean;
}

/** The active sheet's scheduled send, for the compose dialog. */
export function scheduleView(sheet: Sheet): ScheduleView | null {
  const schedule = scheduleOf(sheet.getSheetId());
  if (!schedule) return null;
  const zone = spreadsheetZone();
  const mine = schedule.owner === userToken();
  const why = whyCannotRun(schedule, zone, mine);
  let text = `"Send to all unsent rows" is scheduled${mine ? '' : ' by another editor'} to start ${startWindowText(schedule.at, zone)}.`;
  if (why && mine) text += ` It cannot run now: ${why}.`;
  else if (why)
    text += ` It cannot run: ${why}. You may cancel it, or schedule your own send, which replaces it.`;
  else if (!mine) text += ' Only they can change or cancel it (it is sent with their key).';
  return {
    when: Utilities.formatDate(new Date(schedule.at), zone, "yyyy-MM-dd'T'HH:mm"),
    text,
    zone,
    cancellable: mine || why !== null,
  };
}
