// Auto-refresh: one hourly time-driven trigger per user and document (the add-on limits), whose handler
// refreshes with the UI-free reporter. Google documents that an add-on's installable triggers run in
// AuthMode.FULL with access to the document they were made in (spreadsheets.currentonly covers it), with no
// UI, and that they send no failure e-mails: so every outcome is written to the summary sheet and document
// properties, and the trigger removes itself rather than fail hourly in the background — when every task
// and mail is final, after 30 days, when the key is missing or refused, or after repeated failures.
import { lastSendAt } from '../mail/send-journal';
import { readSettings } from '../../platform/settings';
import { JobProgress, withJobLease } from '../../platform/jobs';
import { autoRefresh, AutoRefresh, lastRefreshOutcome, saveAutoRefresh } from './tracking-store';
import {
  clockTriggers,
  ensureHourlyTrigger,
  removeClockTriggers,
  removeTriggerById,
} from '../../platform/triggers';
import { TRACKING_SUMMARY } from '../../sheets/layouts';
import { Table } from '../../sheets/table';
import { confirm, toast } from '../../ui/dialogs';
import { UserError } from '../inputs';
import { lastRun, recordLastRun, unattendedReporter } from '../jobs/reporters';
import { describe } from '../settings';
import { runRefresh } from './tracking';
import { writeStatusBlock } from './tracking-summary';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** The trigger's handler (a top-level function of index.ts). */
export const TIMER_HANDLER = 'refreshTrackingOnTimer';
const KIND = 'tracking';
const DAY_MS = 24 * 3600 * 1000;
/** Auto-refresh stops this long after it was turned on or after the last send, whichever is later. */
export const AUTO_REFRESH_DAYS = 30;
/** Unexpected failures in a row after which the trigger turns itself off. */
const MAX_FAILURES = 3;

export interface AutoRefreshView {
  on: boolean;
  message: string;
}

const ON_TEXT =
  'Auto-refresh is on: the Tracking sheet is refreshed about every hour. It turns itself off when every mail is final, after 30 days, or if the API key is refused; the summary sheet shows each run.';

/** Turns auto-refresh on or off for the current user in this document; turning it on twice keeps one trigger. */
export function setAutoRefresh(on: boolean): AutoRefreshView {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const previous = autoRefresh();
  let view: AutoRefreshView;
  if (on) {
    if (!readSettings().outreachApiKey)
      throw new UserError('Add your outreach API key in Settings first, then turn auto-refresh on.');
    try {
      ensureHourlyTrigger(spreadsheet, TIMER_HANDLER);
    } catch (error) {
      throw new UserError(`Auto-refresh could not be turned on: ${describe(error)}`);
    }
    saveAutoRefresh({ on: true, since: Date.now(), failures: 0 });
    view = { on: true, message: ON_TEXT };
  } else {
    removeClockTriggers(spreadsheet, TIMER_HANDLER);
    saveAutoRefresh(offState(previous, 'turned off from the menu.'));
    view = { on: false, message: 'Auto-refresh is off. Use Refresh tracking to refresh by hand.' };
  }
  if (Table.find(spreadsheet, TRACKING_SUMMARY)) writeStatusBlock(spreadsheet);
  return view;
}

/** Menu: Auto-refresh tracking: on / off. States the current setting and the last automatic run first. */
export function toggleAutoRefresh(): void {
  const on = clockTriggers(SpreadsheetApp.getActiveSpreadsheet(), TIMER_HANDLER).length > 0;
  const question = on
    ? 'Turn it off?'
    : 'Turn it on? The Tracking sheet will be refreshed about every hour (the most Google allows an add-on), without this window open.';
  const state = on
    ? 'Auto-refresh is ON for you in this document.'
    : 'Auto-refresh is OFF for you in this document.';
  if (!confirm('Auto-refresh tracking', `${state}\n${lastRunText()}\n\n${question}`)) return;
  toast(setAutoRefresh(!on).message, 'Auto-refresh tracking', 10);
}

/** "Last automatic run: …" with its result and error, for the confirmation. */
export function lastRunText(): string {
  const run = lastRun(KIND);
  const auto = autoRefresh();
  const lines = [];
  if (!run) lines.push('No automatic run yet.');
  else {
    const at = Utilities.formatDate(
      new Date(run.at),
      SpreadsheetApp.getActiveSpreadsheet().getSpreadsheetTimeZone(),
      'yyyy-MM-dd HH:mm',
    );
    lines.push(`Last automatic run: ${at}. ${run.message}`);
    if (run.error && run.error !== run.message) lines.push(`Error: ${run.error}`);
  }
  if (auto && !auto.on && auto.offReason) lines.push(`It was turned off: ${auto.offReason}`);
  return lines.join('\n');
}

/** The trigger's handler: a refresh step without UI, then whether the trigger is still needed. */
export function refreshOnTimer(event?: { triggerUid?: string }): void {
  const uid = event && event.triggerUid;
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  if (!spreadsheet) {
    removeTriggerById(uid); // no document to refresh: nothing this trigger could ever do
    return;
  }
  const auto = autoRefresh();
  if (!auto || !auto.on) {
    turnOff(spreadsheet, uid, auto, (auto && auto.offReason) || 'turned off in this document.');
    return;
  }
  const started = Date.now();
  try {
    const reason = reasonToStop(auto);
    if (reason) turnOff(spreadsheet, uid, auto, reason.text, reason.error);
    else timerStep(spreadsheet, uid, auto, started);
  } catch (error) {
    const failures = auto.failures + 1;
    recordLastRun(KIND, { message: 'The automatic refresh failed.', error: describe(error), finished: true });
    if (failures >= MAX_FAILURES)
      turnOff(spreadsheet, uid, auto, `it failed ${failures} times in a row (${describe(error)}).`);
    else saveAutoRefresh({ ...auto, failures });
  }
  writeStatusBlock(spreadsheet);
}

function timerStep(
  spreadsheet: Spreadsheet,
  uid: string | undefined,
  auto: AutoRefresh,
  started: number,
): void {
  const progress = withJobLease<JobProgress | 'nothing' | 'busy'>(
    KIND,
    () => runRefresh('timer', unattendedReporter(KIND)) || 'nothing',
    () => 'busy',
  );
  if (progress === 'busy') {
    recordLastRun(KIND, { message: 'Skipped: another refresh was running.', finished: true });
    return;
  }
  if (progress === 'nothing') {
    turnOff(spreadsheet, uid, auto, 'this document has not sent any e-mail.');
    return;
  }
  const outcome = lastRefreshOutcome();
  const mine = outcome && outcome.at >= started ? outcome : null;
  if (progress.error && mine && (mine.stopKind === 'auth' || mine.stopKind === 'missing-key')) {
    turnOff(
      spreadsheet,
      uid,
      auto,
      'the API key was refused: check it in Settings, then turn auto-refresh on again.',
      progress.error,
    );
  } else if (progress.finished && !progress.error && mine && mine.allFinal) {
    turnOff(spreadsheet, uid, auto, 'every task and every mail is final; nothing will change any more.');
  } else saveAutoRefresh({ ...auto, failures: 0 });
}

function reasonToStop(auto: AutoRefresh): { text: string; error?: string } | null {
  if (!readSettings().outreachApiKey) {
    const text = 'no outreach API key is saved: add it in Settings, then turn auto-refresh on again.';
    return { text, error: `No outreach API key: ${text}` };
  }
  const newest = Math.max(auto.since, lastSendAt());
  if (Date.now() > newest + AUTO_REFRESH_DAYS * DAY_MS) {
    return { text: `${AUTO_REFRESH_DAYS} days have passed since it was turned on and since the last send.` };
  }
  return null;
}

function turnOff(
  spreadsheet: Spreadsheet,
  uid: string | undefined,
  auto: AutoRefresh | null,
  reason: string,
  error?: string,
): void {
  removeClockTriggers(spreadsheet, TIMER_HANDLER);
  removeTriggerById(uid);
  saveAutoRefresh(offState(auto, reason));
  const run = { message: `Auto-refresh turned itself off: ${reason}`, finished: true };
  recordLastRun(KIND, error ? { ...run, error } : run);
}

function offState(previous: AutoRefresh | null, reason: string): AutoRefresh {
  return {
    on: false,
    since: previous ? previous.since : Date.now(),
    failures: 0,
    offAt: Date.now(),
    offReason: reason,
  };
}
