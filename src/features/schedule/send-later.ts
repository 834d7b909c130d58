// Send later: "Send to all unsent rows" of a sheet, with its saved template, started by the hourly trigger
// of the user who scheduled it, in the first run at or after the time given (add-on triggers run at most
// hourly: the dialog states the hour). Scheduling checks the rows as a send would and states the cost
// against the usable EDM; when it runs, with no UI, the rows are checked again as they are then, and what
// happened goes to the Mail status cells and to the Tracking summary.
import { readSettings } from '../../platform/settings';
import { savedJob } from '../jobs/job-runner';
import { recordLastRun, unattendedReporter } from '../jobs/reporters';
import { MAIL_STATUS } from '../../sheets/layouts';
import { UserError } from '../inputs';
import { costLines, launchSend, prepareSend, writeStatuses } from '../mail/send';
import { SEND_JOB } from '../mail/send-job';
import { skippedLines } from '../mail/send-plan';
import { withJobLease } from '../../platform/jobs';
import { describe } from '../settings';
import {
  claimSchedule,
  deleteSchedule,
  mySchedules,
  saveSchedule,
  ScheduledSend,
  scheduleOf,
  ScheduleView,
  scheduleView,
} from './schedules';
import { parseWhen, startWindowText } from './send-later-time';
import { ensureTimer, releaseTimerIfIdle } from './timer';
import { userToken } from './timer-store';

const YEAR_MS = 365 * 24 * 3600 * 1000;

/** Compose dialog: schedules "Send to all unsent rows" of the active sheet at `when` (ISO 8601). */
export function scheduleSend(when: unknown): { message: string; schedule: ScheduleView | null } {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getActiveSheet();
  const zone = sheet.getParent().getSpreadsheetTimeZone();
  if (!readSettings().outreachApiKey) throw new UserError('Add your outreach API key in Settings first.');
  const at = parseWhen(when, zone);
  if (at <= Date.now()) {
    throw new UserError('That time has passed: choose a later one, or use "Send to all unsent rows" now.');
  }
  if (at > Date.now() + YEAR_MS) throw new UserError('Choose a time within the next year.');
  const prepared = prepareSend(sheet, 'all');
  if (!prepared) throw new UserError('Save the mail first.');
  const n = prepared.plan.rows.length;
  const { lines, usable } = costLines(prepared);
  try {
    ensureTimer();
  } catch (error) {
    throw new UserError(`The send could not be scheduled: ${describe(error)}`);
  }
  saveSchedule({
    sheetId: sheet.getSheetId(),
    sheetName: sheet.getName(),
    at,
    owner: userToken(),
    savedAt: Date.now(),
  });
  const notes = [
    `Scheduled: "Send to all unsent rows" of "${sheet.getName()}" will start ${startWindowText(at, zone)}; add-on triggers run about once an hour, so not at the minute.`,
    `As the rows are now: ${lines.join(' ')}`,
  ];
  if (n > 0 && usable < n) {
    notes.push(
      `Usable EDM is ${n - usable} short: add EDM before then (${prepared.client.pricingUrl}), or nothing is sent.`,
    );
  }
  notes.push(
    "The rows are checked again when it starts; each row's Mail status and the Tracking summary say what happened.",
  );
  return { message: notes.join('\n'), schedule: scheduleView(sheet) };
}

/** Compose dialog: cancels the active sheet's scheduled send (whoever scheduled it). */
export function cancelScheduledSend(): { message: string } {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getActiveSheet();
  const schedule = scheduleOf(sheet.getSheetId());
  if (!schedule) return { message: `No send is scheduled for "${sheet.getName()}".` };
  deleteSchedule(sheet.getSheetId());
  if (schedule.owner === userToken()) releaseTimerIfIdle();
  return { message: `The scheduled send of "${sheet.getName()}" was cancelled: nothing will be sent.` };
}

/** The trigger's part: starts this user's scheduled sends that are due. */
export function runDueSchedules(): number {
  const due = mySchedules().filter((s) => s.at <= Date.now());
  let started = 0;
  for (const schedule of due) {
    const claimed = claimSchedule(schedule.sheetId);
    if (!claimed) continue;
    try {
      if (startScheduled(claimed)) started++;
    } catch (error) {
      recordLastRun('send', {
        message: `The send scheduled for "${claimed.sheetName}" did not start.`,
        error: describe(error),
        finished: true,
      });
    }
  }
  return started;
}

/** Plans and starts one scheduled send without UI; true when mails went out. */
function startScheduled(schedule: ScheduledSend): boolean {
  const record = (message: string) => recordLastRun('send', { message, finished: true });
  const sheet = SpreadsheetApp.getActiveSpreadsheet()
    .getSheets()
    .find((s) => s.getSheetId() === schedule.sheetId);
  if (!sheet) {
    record(`The send scheduled for "${schedule.sheetName}" did not start: the sheet was deleted.`);
    return false;
  }
  const later = () => {
    saveSchedule(schedule); // back in the store: the next hourly run tries again
    record(
      `The send scheduled for "${sheet.getName()}" waits for the send in progress; it starts at the next hourly run after it.`,
    );
    return false;
  };
  return withJobLease(
    SEND_JOB.kind,
    () => {
      const running = savedJob<{ n: number }, unknown>(SEND_JOB.kind);
      if (running && !running.stopped && running.units.length > 0) return later();
      const prepared = prepareSend(sheet, 'all');
      if (!prepared) {
        record(`The send scheduled for "${sheet.getName()}" did not start: its mail was deleted.`);
        return false;
      }
      const { plan, list } = prepared;
      writeStatuses(list, plan.skipped);
      if (plan.rows.length === 0) {
        const lines = skippedLines(plan, prepared.hiddenCount);
        record(`Scheduled send of "${sheet.getName()}": nothing to send. ${lines.join(' ')}`.trim());
        return false;
      }
      const { lines, usable } = costLines(prepared);
      if (usable < plan.rows.length) {
        const status = `${MAIL_STATUS.notSent}: the scheduled send needed ${plan.rows.length} EDM and ${usable} were usable`;
        writeStatuses(list, new Map(plan.rows.map((row) => [row.rowNumber, status])));
        record(`Scheduled send of "${sheet.getName()}" not sent: not enough EDM. ${lines.join(' ')}`);
        return false;
      }
      launchSend(prepared, unattendedReporter('send'));
      return true;
    },
    later,
  );
}
