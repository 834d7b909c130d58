// The sends scheduled for later: one per sheet (document property `schedule.<sheetId>`), made by one user,
// whose hourly trigger starts it (with that user's key) in the first run at or after its time. A schedule
// is taken out of the store under the document lock before its send starts, so it never starts twice.
import { withDocumentLock } from '../../platform/locks';
import { sheetRecords } from '../../platform/sheet-records';
import { startWindowText } from './send-later-time';
import type { ConfirmedRef } from '../outbox/confirm';
import { userToken } from './timer-store';

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

export interface ScheduleView {
  /** The time given, as a wall time in the spreadsheet's zone (for the dialog's date-time field). */
  when: string;
  text: string;
  zone: string;
}

/** The active sheet's scheduled send, for the compose dialog. */
export function scheduleView(sheet: Sheet): ScheduleView | null {
  const schedule = scheduleOf(sheet.getSheetId());
  if (!schedule) return null;
  const zone = sheet.getParent().getSpreadsheetTimeZone();
  return {
    when: Utilities.formatDate(new Date(schedule.at), zone, "yyyy-MM-dd'T'HH:mm"),
    text: `"Send to all unsent rows" is scheduled to start ${startWindowText(schedule.at, zone)}.`,
    zone,
  };
}
