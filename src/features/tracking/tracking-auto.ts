// Auto-refresh: the hourly refresh of one user in one document, run by that user's hourly trigger
// (jobs/hourly-trigger.ts: one trigger per user and document serves all hourly work). Triggers run as the user
// who made them, with that user's key, so the switch, its state and its last run are the user's own
// (jobs/hourly-trigger-store.ts): another editor's switch neither shows nor changes it. Google documents that
// an add-on's installable triggers run in AuthMode.FULL with no UI and send no failure e-mails: every
// outcome goes to the summary sheet, and auto-refresh turns itself off rather than fail hourly in the
// background — when every mail is final and no open can still be counted (14 days after a send), after 30
// days, when the key is missing or refused, or after repeated failures. It never turns itself off for
// "nothing sent" or "all final" while the same user has hourly work left (jobs/hourly-trigger.ts: hourlyWorkLeft).
import { lastSendAt } from '../outbox';
import { readSettings, DAY_MS } from '../../platform';
import {
  JobProgress,
  withJobLease,
  ensureHourlyTrigger,
  releaseHourlyTriggerIfIdle,
  hourlyWorkLeft,
  AutoRefresh,
  myHourlyTrigger,
  saveMyHourlyTrigger,
  lastRun,
  recordLastRun,
  unattendedReporter,
} from '../jobs';
import { lastRefreshOutcome } from './tracking-store';
import { TRACKING_SUMMARY, Table } from '../../sheets';
import { confirm, toast } from '../../ui';
import { runRefresh } from './tracking';
import { writeStatusBlock } from './tracking-summary';
import { whenText } from '../words';
import { describe, UserError } from '../errors';

const KIND = 'tracking';
/** Auto-refresh stops this long after it was turned on or after the last send, whichever is later. */
const AUTO_REFRESH_DAYS = 30;
/** Unexpected failures in a row after which it turns itself off. */
const MAX_FAILURES = 3;

interface AutoRefreshView {
  on: boolean;
  message: string;
}

/** What auto-refresh says: the switch's answers, each run's outcome and why it turned itself off. */
const AUTO_REFRESH_TEXTS = {
  needsKey: 'Add your outreach API key in Settings first, then turn auto-refresh on.',
  notTurnedOn: (why: string) => `Auto-refresh could not be turned on: ${why}`,
  on: 'Auto-refresh is on for you: the Tracking sheet is refreshed about every hour with your key. It turns itself off when every mail is final and 14 days have passed since the last send (opens are counted until then), after 30 days, or if the API key is refused; never while you have a send scheduled or waiting. The summary sheet shows each run.',
  off: 'Auto-refresh is off for you. Use Refresh tracking to refresh by hand.',
  title: 'Auto-refresh tracking',
  askOff: 'Turn it off?',
  askOn:
    'Turn it on? The Tracking sheet will be refreshed about every hour (the most Google allows an add-on), without this window open.',
  isOn: 'Auto-refresh is ON for you in this document.',
  isOff: 'Auto-refresh is OFF for you in this document.',
  noRun: 'No automatic run yet.',
  lastRun: (at: string, message: string) => `Last automatic run: ${at}. ${message}`,
  error: (error: string) => `Error: ${error}`,
  wasOff: (reason: string) => `It was turned off: ${reason}`,
  failed: 'The automatic refresh failed.',
  owedFailed: 'The refresh after a waiting or scheduled send failed.',
  busy: 'Skipped: another refresh was running.',
  nothingYet: (left: string) => `Nothing sent yet to refresh; auto-refresh stays on for ${left}.`,
  turnedOff: (reason: string) => `Auto-refresh turned itself off: ${reason}`,
  noKeyError: (text: string) => `No outreach API key: ${text}`,
  // Why it turned itself off (the rest of "Auto-refresh turned itself off: …").
  menu: 'turned off from the menu.',
  failures: (n: number, why: string) => `it failed ${n} times in a row (${why}).`,
  nothingSent: 'this document has not sent any e-mail.',
  keyRefused: 'the API key was refused: check it in Settings, then turn auto-refresh on again.',
  /** Statuses stop moving, and opens are counted for 14 days after a send. */
  final:
    'every mail is delivered or failed, and no open can be counted any more (opens are counted for 14 days after a send), so nothing will change; Refresh tracking reads them again by hand.',
  noKey: 'no outreach API key is saved: add it in Settings, then turn auto-refresh on again.',
  days: (days: number) => `${days} days have passed since it was turned on and since the last send.`,
};
const T = AUTO_REFRESH_TEXTS;

/** Turns auto-refresh on or off for the current user in this document; other users' switches are untouched. */
function setAutoRefresh(on: boolean): AutoRefreshView {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const previous = myHourlyTrigger().auto || null;
  let view: AutoRefreshView;
  if (on) {
    if (!readSettings().outreachApiKey) throw new UserError(T.needsKey);
    try {
      ensureHourlyTrigger();
    } catch (error) {
      throw new UserError(T.notTurnedOn(describe(error)));
    }
    saveAuto({ on: true, since: Date.now(), failures: 0 });
    view = { on: true, message: T.on };
  } else {
    saveAuto(offState(previous, T.menu, Date.now()));
    releaseHourlyTriggerIfIdle();
    view = { on: false, message: T.off };
  }
  if (Table.find(spreadsheet, TRACKING_SUMMARY)) writeStatusBlock(spreadsheet);
  return view;
}

function saveAuto(auto: AutoRefresh): void {
  saveMyHourlyTrigger({ ...myHourlyTrigger(), auto });
}

/** Menu: Auto-refresh tracking: on / off. States the current setting and the last automatic run first. */
export function toggleAutoRefresh(): void {
  const auto = myHourlyTrigger().auto;
  const on = !!(auto && auto.on);
  const question = on ? T.askOff : T.askOn;
  const state = on ? T.isOn : T.isOff;
  if (!confirm(T.title, `${state}\n${lastRunText()}\n\n${question}`)) return;
  toast(setAutoRefresh(!on).message, T.title, 10);
}

/** "Last automatic run: …" with its result and error, for the confirmation. */
function lastRunText(): string {
  const record = myHourlyTrigger();
  const run = record.lastRun || null;
  const auto = record.auto;
  const lines = [];
  if (!run) lines.push(T.noRun);
  else {
    lines.push(T.lastRun(whenText(run.at), run.message));
    if (run.error && run.error !== run.message) lines.push(T.error(run.error));
  }
  // The run that turned it off (turnOff gives both the same time) already said why: say it once.
  const saidByRun = run && auto && run.at === auto.offAt;
  if (auto && !auto.on && auto.offReason && !saidByRun) lines.push(T.wasOff(auto.offReason));
  return lines.join('\n');
}

/**
 * The refresh part of this user's hourly run: the auto-refresh when it is on; otherwise the one refresh
 * owed after a waiting or scheduled send of an earlier run (what it sent is refreshed, so a bounce is known before a
 * later send).
 */
export function refreshHourly(): void {
  const record = myHourlyTrigger();
  if (record.auto && record.auto.on) autoRefreshHourly();
  else if (record.refreshAfterSend) owedRefreshHourly();
}

/** The auto-refresh part of this user's hourly run: a refresh slice without UI, or turning itself off. */
export function autoRefreshHourly(): void {
  const auto = myHourlyTrigger().auto;
  if (!auto || !auto.on) return;
  const started = Date.now();
  try {
    const reason = reasonToStop(auto);
    if (reason) turnOff(auto, reason.text, reason.error);
    else autoStep(auto, started);
  } catch (error) {
    const failures = auto.failures + 1;
    recordLastRun(KIND, { message: T.failed, error: describe(error), finished: true });
    if (failures >= MAX_FAILURES) turnOff(auto, T.failures(failures, describe(error)));
    else saveAuto({ ...auto, failures });
  }
  keepLastRun(started);
}

/** The refresh owed after a waiting or scheduled send, auto-refresh off: one slice; the debt ends when a refresh finishes. */
function owedRefreshHourly(): void {
  const started = Date.now();
  try {
    const progress = refreshStep();
    if (progress === 'nothing' || (progress !== 'busy' && progress.finished)) settleOwedRefresh();
  } catch (error) {
    recordLastRun(KIND, { message: T.owedFailed, error: describe(error), finished: true });
    settleOwedRefresh(); // not tried hourly in the background: the summary says it
  }
  keepLastRun(started);
}

function settleOwedRefresh(): void {
  const record = myHourlyTrigger();
  if (record.refreshAfterSend) saveMyHourlyTrigger({ ...record, refreshAfterSend: undefined });
}

function keepLastRun(started: number): void {
  const run = lastRun(KIND);
  if (run && run.at >= started) saveMyHourlyTrigger({ ...myHourlyTrigger(), lastRun: run });
}

/** One refresh slice without UI under the lease; 'busy' (recorded) when another refresh holds it. */
function refreshStep(): JobProgress | 'nothing' | 'busy' {
  const progress = withJobLease<JobProgress | 'nothing' | 'busy'>(
    KIND,
    () => runRefresh('hourly', unattendedReporter(KIND)) || 'nothing',
    () => 'busy',
  );
  if (progress === 'busy') recordLastRun(KIND, { message: T.busy, finished: true });
  return progress;
}

function autoStep(auto: AutoRefresh, started: number): void {
  const progress = refreshStep();
  if (progress === 'busy') return;
  if (progress !== 'nothing' && progress.finished && !progress.error) settleOwedRefresh();
  const left = hourlyWorkLeft();
  if (progress === 'nothing') {
    if (left) recordLastRun(KIND, { message: T.nothingYet(left), finished: true });
    else turnOff(auto, T.nothingSent);
    return;
  }
  const outcome = lastRefreshOutcome();
  const mine = outcome && outcome.at >= started ? outcome : null;
  if (progress.error && mine && (mine.stopKind === 'auth' || mine.stopKind === 'missing-key')) {
    turnOff(auto, T.keyRefused, progress.error);
  } else if (progress.finished && !progress.error && mine && mine.allFinal && !left) {
    turnOff(auto, T.final);
  } else saveAuto({ ...auto, failures: 0 });
}

function reasonToStop(auto: AutoRefresh): { text: string; error?: string } | null {
  if (!readSettings().outreachApiKey) return { text: T.noKey, error: T.noKeyError(T.noKey) };
  const newest = Math.max(auto.since, lastSendAt());
  if (Date.now() > newest + AUTO_REFRESH_DAYS * DAY_MS) return { text: T.days(AUTO_REFRESH_DAYS) };
  return null;
}

function turnOff(auto: AutoRefresh | null, reason: string, error?: string): void {
  const run = { message: T.turnedOff(reason), finished: true };
  const recorded = recordLastRun(KIND, error ? { ...run, error } : run);
  saveAuto(offState(auto, reason, recorded.at));
}

function offState(previous: AutoRefresh | null, reason: string, at: number): AutoRefresh {
  return { on: false, since: previous ? previous.since : at, failures: 0, offAt: at, offReason: reason };
}
