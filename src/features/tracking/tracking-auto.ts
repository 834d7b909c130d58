// Auto-refresh: the hourly refresh of one user in one document, run by that user's hourly trigger
// (schedule/timer.ts: one trigger per user and document serves every timed job). Triggers run as the user
// who made them, with that user's key, so the switch, its state and its last run are the user's own
// (schedule/timer-store.ts): another editor's switch neither shows nor changes it. Google documents that
// an add-on's installable triggers run in AuthMode.FULL with no UI and send no failure e-mails: every
// outcome goes to the summary sheet, and auto-refresh turns itself off rather than fail hourly in the
// background — when every task and mail is final, after 30 days, when the key is missing or refused, or
// after repeated failures.
import { lastSendAt } from '../mail/send-journal';
import { readSettings } from '../../platform/settings';
import { JobProgress, withJobLease } from '../../platform/jobs';
import { lastRefreshOutcome } from './tracking-store';
import { ensureTimer, releaseTimerIfIdle } from '../schedule/timer';
import { AutoRefresh, myTimer, saveMyTimer } from '../schedule/timer-store';
import { TRACKING_SUMMARY } from '../../sheets/layouts';
import { Table } from '../../sheets/table';
import { confirm, toast } from '../../ui/dialogs';
import { UserError } from '../inputs';
import { lastRun, recordLastRun, unattendedReporter } from '../jobs/reporters';
import { describe } from '../settings';
import { runRefresh } from './tracking';
import { writeStatusBlock } from './tracking-summary';

const KIND = 'tracking';
const DAY_MS = 24 * 3600 * 1000;
/** Auto-refresh stops this long after it was turned on or after the last send, whichever is later. */
export const AUTO_REFRESH_DAYS = 30;
/** Unexpected failures in a row after which it turns itself off. */
const MAX_FAILURES = 3;

export interface AutoRefreshView {
  on: boolean;
  message: string;
}

/** Why it stops when all is final: statuses stop moving, but a task's opens can still grow. */
const FINAL_TEXT =
  'every mail is delivered or failed, so no status will change; later opens show in =PROSPECT_TASK(task ID).';

const ON_TEXT =
  'Auto-refresh is on for you: the Tracking sheet is refreshed about every hour with your key. It turns itself off when every mail is final, after 30 days, or if the API key is refused; the summary sheet shows each run.';

/** Turns auto-refresh on or off for the current user in this document; other users' switches are untouched. */
export function setAutoRefresh(on: boolean): AutoRefreshView {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const previous = myTimer().auto || null;
  let view: AutoRefreshView;
  if (on) {
    if (!readSettings().outreachApiKey)
      throw new UserError('Add your outreach API key in Settings first, then turn auto-refresh on.');
    try {
      ensureTimer();
    } catch (error) {
      throw new UserError(`Auto-refresh could not be turned on: ${describe(error)}`);
    }
    saveAuto({ on: true, since: Date.now(), failures: 0 });
    view = { on: true, message: ON_TEXT };
  } else {
    saveAuto(offState(previous, 'turned off from the menu.'));
    releaseTimerIfIdle();
    view = { on: false, message: 'Auto-refresh is off for you. Use Refresh tracking to refresh by hand.' };
  }
  if (Table.find(spreadsheet, TRACKING_SUMMARY)) writeStatusBlock(spreadsheet);
  return view;
}

function saveAuto(auto: AutoRefresh): void {
  saveMyTimer({ ...myTimer(), auto });
}

/** Menu: Auto-refresh tracking: on / off. States the current setting and the last automatic run first. */
export function toggleAutoRefresh(): void {
  const auto = myTimer().auto;
  const on = !!(auto && auto.on);
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
  const record = myTimer();
  const run = record.lastRun || null;
  const auto = record.auto;
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
  // The run that turned it off already said why: say it once.
  const saidByRun = run && auto && auto.offReason && run.message.includes(auto.offReason);
  if (auto && !auto.on && auto.offReason && !saidByRun) lines.push(`It was turned off: ${auto.offReason}`);
  return lines.join('\n');
}

/** The auto-refresh part of this user's hourly run: a refresh step without UI, or turning itself off. */
export function autoRefreshOnTimer(): void {
  const auto = myTimer().auto;
  if (!auto || !auto.on) return;
  const started = Date.now();
  try {
    const reason = reasonToStop(auto);
    if (reason) turnOff(auto, reason.text, reason.error);
    else timerStep(auto, started);
  } catch (error) {
    const failures = auto.failures + 1;
    recordLastRun(KIND, { message: 'The automatic refresh failed.', error: describe(error), finished: true });
    if (failures >= MAX_FAILURES) turnOff(auto, `it failed ${failures} times in a row (${describe(error)}).`);
    else saveAuto({ ...auto, failures });
  }
  const run = lastRun(KIND);
  if (run && run.at >= started) saveMyTimer({ ...myTimer(), lastRun: run });
}

function timerStep(auto: AutoRefresh, started: number): void {
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
    turnOff(auto, 'this document has not sent any e-mail.');
    return;
  }
  const outcome = lastRefreshOutcome();
  const mine = outcome && outcome.at >= started ? outcome : null;
  if (progress.error && mine && (mine.stopKind === 'auth' || mine.stopKind === 'missing-key')) {
    turnOff(
      auto,
      'the API key was refused: check it in Settings, then turn auto-refresh on again.',
      progress.error,
    );
  } else if (progress.finished && !progress.error && mine && mine.allFinal) {
    turnOff(auto, FINAL_TEXT);
  } else saveAuto({ ...auto, failures: 0 });
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

function turnOff(auto: AutoRefresh | null, reason: string, error?: string): void {
  saveAuto(offState(auto, reason));
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
