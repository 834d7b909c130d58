// A scheduled send: "Send to all unsent rows" of a sheet, with its saved template, started by the hourly trigger
// of the user who scheduled it, in the first run at or after the time given (add-on triggers run at most
// hourly: the dialog states the hour). Scheduling checks the rows as a send would and states the cost
// against the usable EDM; when it runs, with no UI, the rows are checked again as they are then, and what
// happened goes to the Mail status cells and to the Tracking summary.
import { spreadsheetZone } from '../words';
import {
  readSettings,
  ownershipOf,
  ownerStamp,
  userToken,
  DAY_MS,
  count,
  formatCount,
  plural,
} from '../../platform';
import {
  withJobLease,
  hasWorkLeft,
  savedJob,
  recordLastRun,
  unattendedReporter,
  ensureHourlyTrigger,
  releaseHourlyTriggerIfIdle,
} from '../jobs';
import { notSent } from '../../sheets';
import {
  SEND_TEXTS,
  guardPause,
  pauseDetail,
  Ledger,
  claimSchedule,
  deleteSchedule,
  dropUnrunnable,
  EXPIRES_AFTER_MS,
  mySchedules,
  saveSchedule,
  ScheduledSend,
  scheduleOf,
  ScheduleView,
  scheduleView,
  whyCannotRun,
  parseWhen,
  startWindowText,
  forgetConfirmed,
  confirmSend,
  openConfirmed,
  tooManyToConfirm,
} from '../outbox';
import {
  costLines,
  launchSend,
  PreparedSend,
  prepareSend,
  writeStatuses,
  SEND_JOB,
  skippedLines,
  otherSendOnSheet,
} from '../mail';
import { describe, UserError } from '../errors';
import { confirm } from '../../ui';

const YEAR_MS = 365 * DAY_MS;

/**
 * Compose dialog: schedules "Send to all unsent rows" of the active sheet at `when` (ISO 8601), after a Yes to
 * the question that states the rows, the cost, the usable EDM and when they go. `scheduled` is false on No.
 */
export function scheduleSend(when: unknown): {
  message: string;
  schedule: ScheduleView | null;
  scheduled: boolean;
} {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getActiveSheet();
  const zone = spreadsheetZone(sheet.getParent());
  if (!readSettings().outreachApiKey) throw new UserError('Add your outreach API key in Settings first.');
  const at = parseWhen(when, zone);
  if (at <= Date.now()) {
    throw new UserError('That time has passed: choose a later one, or use "Send to all unsent rows" now.');
  }
  if (at > Date.now() + YEAR_MS) throw new UserError('Choose a time within the next year.');
  const prepared = prepareSend(sheet, 'all');
  if (!prepared) throw new UserError('Save the mail first.');
  const n = prepared.plan.rows.length;
  const tooMany = tooManyToConfirm(n);
  if (tooMany) throw new UserError(tooMany);
  const earlier = scheduleOf(sheet.getSheetId());
  const theirs = !!earlier && earlier.owner !== userToken();
  // Another editor's schedule that cannot run (schedules.ts) is replaced; one that can is theirs to change.
  const unrunnable = earlier && theirs ? whyCannotRun(earlier, zone) : null;
  if (theirs && !unrunnable) throw new UserError(theirsText(sheet.getName()));
  const { lines, usable } = costLines(prepared, at);
  const start = `It starts ${startWindowText(at, zone)} (add-on triggers run about once an hour, so not at the minute).`;
  if (
    !confirm(
      'Schedule a send',
      scheduleQuestion(lines, start, n, usable, prepared.client.pricingUrl, unrunnable),
    )
  )
    return { message: 'Nothing was scheduled.', schedule: scheduleView(sheet), scheduled: false };
  try {
    ensureHourlyTrigger();
  } catch (error) {
    throw new UserError(`The send could not be scheduled: ${describe(error)}`);
  }
  if (theirs && !dropUnrunnable(sheet.getSheetId(), zone)) throw new UserError(theirsText(sheet.getName()));
  const stamp = ownerStamp('outreach');
  // What goes out when it runs: this mail to these rows as they are now, and nothing else.
  const confirmed = confirmSend(prepared.sheet.getSheetId(), prepared.template, prepared.plan.rows);
  if (earlier && !theirs) forgetConfirmed(earlier.confirmed);
  const now = Date.now();
  saveSchedule({
    sheetId: sheet.getSheetId(),
    sheetName: sheet.getName(),
    at,
    owner: stamp.owner,
    keyFp: stamp.keyFp,
    savedAt: now,
    confirmed,
    rows: n,
    check: usable < n ? { at: now, cannot: 'no-edm', usable } : { at: now },
  });
  const short =
    n > 0 && usable < n ? ` Add ${formatCount(n - usable)} e-mail credits (EDM) before then.` : '';
  return {
    message: `Scheduled: ${count(n, 'e-mail')} from "${sheet.getName()}" start ${startWindowText(at, zone)}.${short} Each row's Mail status and the Tracking summary say what happened.`,
    schedule: scheduleView(sheet),
    scheduled: true,
  };
}

const theirsText = (name: string) =>
  `Another editor scheduled the send of "${name}": only they can change or cancel it while their key can pay for it. Send now, send from another sheet, or ask them.`;

/** The Yes/No of a schedule: the confirmation's lines, when it starts, what is short, what it replaces. */
function scheduleQuestion(
  lines: string[],
  start: string,
  n: number,
  usable: number,
  pricingUrl: string,
  replaces: string | null,
): string {
  const notes = [...lines, start];
  if (n > 0 && usable < n)
    notes.push(
      `The usable e-mail credits (EDM) are ${formatCount(n - usable)} short: add credits before then (${pricingUrl}), or nothing is sent. Until your hourly run finds them, any editor may cancel this send or schedule their own instead.`,
    );
  notes.push(
    'Only this mail goes, to these rows as they are now: a row added or changed later is not sent, and a change to the mail sends nothing (the rows say so; schedule again to include them).',
  );
  if (replaces) notes.push(`It replaces the send another editor scheduled, which cannot run: ${replaces}.`);
  return `${notes.join('\n')}\n\nSchedule this send?`;
}

/**
 * Compose dialog: cancels the active sheet's scheduled send: its owner's, or another editor's that cannot
 * run (schedules.ts whyCannotRun).
 */
export function cancelScheduledSend(): { message: string; schedule: ScheduleView | null } {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getActiveSheet();
  return { message: cancelOn(sheet), schedule: scheduleView(sheet) };
}

function cancelOn(sheet: GoogleAppsScript.Spreadsheet.Sheet): string {
  const schedule = scheduleOf(sheet.getSheetId());
  if (!schedule) return `No send is scheduled for "${sheet.getName()}".`;
  if (schedule.owner !== userToken()) {
    const why = whyCannotRun(schedule, spreadsheetZone(sheet.getParent()));
    if (!why) {
      return `The send of "${sheet.getName()}" was scheduled by another editor: only they can cancel it while their key can pay for it (it is sent with their key).`;
    }
    if (!dropUnrunnable(sheet.getSheetId(), spreadsheetZone(sheet.getParent())))
      return `The send of "${sheet.getName()}" was not cancelled: its editor's key can pay for it again, or another editor is changing it.`;
    return `The send another editor scheduled for "${sheet.getName()}" was cancelled (it could not run: ${why}): nothing will be sent. You may schedule your own.`;
  }
  deleteSchedule(sheet.getSheetId());
  forgetConfirmed(schedule.confirmed);
  releaseHourlyTriggerIfIdle();
  return `The scheduled send of "${sheet.getName()}" was cancelled: nothing will be sent.`;
}

/** The trigger's part: starts this user's scheduled sends that are due. */
export function runDueSchedules(): number {
  const due = mySchedules().filter((s) => s.at <= Date.now());
  let started = 0;
  for (const schedule of due) {
    const claimed = claimSchedule(schedule.sheetId);
    if (!claimed) continue;
    if (claimed.at + EXPIRES_AFTER_MS < Date.now()) {
      // Run late (this user's runs stopped for hours): sent now, it would surprise everyone.
      forgetConfirmed(claimed.confirmed);
      const why = whyCannotRun(claimed, spreadsheetZone(), true);
      recordLastRun('send', {
        message: `The send scheduled for "${claimed.sheetName}" did not start: ${why}. Schedule it again.`,
        finished: true,
      });
      continue;
    }
    try {
      if (startScheduled(claimed)) started++;
    } catch (error) {
      forgetConfirmed(claimed.confirmed);
      recordLastRun('send', {
        message: `The send scheduled for "${claimed.sheetName}" did not start.`,
        error: describe(error),
        finished: true,
      });
    }
  }
  return started;
}

/**
 * Keeps in the plan only the rows confirmed when the send was scheduled, as they were then; the others say
 * why they are not sent. Answers how many were left out, or null when the mail itself changed (then every
 * row says so and nothing may go).
 */
function keepConfirmedRows(prepared: PreparedSend, schedule: ScheduledSend): number | null {
  const { plan, list } = prepared;
  const confirmed = openConfirmed(schedule.confirmed, prepared.template);
  if (!confirmed || confirmed.mailChanged) {
    const state = notSent('schedule-changed', SEND_TEXTS.scheduleChanged);
    writeStatuses(list, new Map(plan.rows.map((row) => [row.rowNumber, state])));
    return null;
  }
  const added = plan.rows.filter((row) => confirmed.verdict(row).kind !== 'send');
  if (added.length) {
    const state = notSent('schedule-added', SEND_TEXTS.scheduleAdded);
    writeStatuses(list, new Map(added.map((row) => [row.rowNumber, state])));
    plan.rows = plan.rows.filter((row) => confirmed.verdict(row).kind === 'send');
  }
  return added.length;
}

const OTHER_KEY =
  'it was scheduled with another outreach API key, and it is sent only with the key it was scheduled with. Schedule it again.';

/** The list is paused by its bounce guard: the send stays scheduled, and starts at the first run after a resume. */
function waitsForResume(schedule: ScheduledSend, sheetName: string): boolean {
  const pause = guardPause(Ledger.read().list(schedule.sheetId));
  if (!pause) return false;
  saveSchedule(schedule);
  recordLastRun('send', {
    message: `The send scheduled for "${sheetName}" waits: the list is paused, ${pauseDetail(pause)}; it starts at the next hourly run after you resume it.`,
    finished: true,
  });
  return true;
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
  const notStarted = (why: string) => {
    forgetConfirmed(schedule.confirmed);
    record(`The send scheduled for "${sheet.getName()}" did not start: ${why}`);
    return false;
  };
  if (ownershipOf(schedule, 'outreach') !== 'mine') return notStarted(OTHER_KEY);
  if (waitsForResume(schedule, sheet.getName())) return false;
  return withJobLease(
    SEND_JOB.kind,
    () => {
      const running = savedJob<{ n: number }, unknown>(SEND_JOB.kind);
      const zone = spreadsheetZone(sheet.getParent());
      const busy = !!running && hasWorkLeft(running);
      if (busy || otherSendOnSheet(sheet.getSheetId(), sheet.getName(), zone)) return later();
      const prepared = prepareSend(sheet, 'all');
      if (!prepared) return notStarted('its mail was deleted.');
      const { plan, list } = prepared;
      writeStatuses(list, plan.skipped);
      const kept = keepConfirmedRows(prepared, schedule);
      if (kept === null) {
        return notStarted(
          'the mail was changed after you scheduled it (by you or another editor), so nothing was sent: check it and schedule it again.',
        );
      }
      const unconfirmed = kept
        ? ` ${count(kept, 'row')} added or changed after it was scheduled ${plural(kept, 'was', 'were')} not sent (${plural(kept, 'its', 'their')} Mail status says so).`
        : '';
      if (plan.rows.length === 0) {
        const lines = skippedLines(plan, prepared.hiddenCount);
        return notStarted(`nothing to send.${unconfirmed} ${lines.join(' ')}`.trim());
      }
      const { lines, usable } = costLines(prepared);
      if (usable < plan.rows.length) {
        const state = notSent('schedule-edm', SEND_TEXTS.scheduleEdm(plan.rows.length, usable));
        writeStatuses(list, new Map(plan.rows.map((row) => [row.rowNumber, state])));
        return notStarted(`not enough EDM.${unconfirmed} ${lines.join(' ')}`);
      }
      launchSend(prepared, unattendedReporter('send'), schedule.confirmed);
      return true;
    },
    later,
  );
}
