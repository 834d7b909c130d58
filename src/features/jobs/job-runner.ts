// One runner for every long job (unlock, phone check, send, tracking). Apps Script stops an execution after
// 6 minutes, so a job works in slices, one execution each: the menu action plans the job and runs the first
// slice, the progress dialog (or the next trigger run) calls continueJob(kind) for the next ones. The runner
// owns what every job shares:
//   - the lease: one slice of a kind per document at a time (two windows or editors never pay twice);
//   - the saved state in document properties, written after every unit, so a cut-off loses at most the unit
//     that was running, and the job's own work() is written so that redoing it is safe;
//   - the deadline, counted from the start of the execution: a unit starts only when it fits before it;
//   - progress for the dialog (polled while a slice works) and the final summary, given to a reporter, so
//     the same job runs from a menu (toasts, alerts, the dialog) and from a trigger (no UI at all);
//   - Stop (the dialog's button, from another execution while a slice works): the slice ends the job before
//     its next unit, so nothing more is paid for, and the job marks the rows it leaves "Stopped: …";
//   - what a dialog's slice did, kept until the dialog has shown it: a dialog closed while its slice works
//     leaves the slice going on in the background, and the next menu action of the job says what it did.
// A job supplies its units (planned before the first slice), the work of a unit, and how a finished unit is
// recorded (sheet, stores, counters); a recorded unit may add follow-up units (unlock → contacts).
// It must never run two slices of a kind at once, start a unit that would not end before the deadline, or
// go on with a job started with another key (keyChangedText, job.ts).
import { ApiError, isForLater } from '../../api';
import { Deadline, ownerStamp } from '../../platform';
import {
  clearJob,
  forgetStop,
  forgetUnseenReport,
  JobKind,
  JobProgress,
  keepUnseenReport,
  loadJob,
  requestStop,
  saveJob,
  saveProgress,
  stopRequested,
  withJobLease,
} from './job-store';
import {
  isStopped,
  JobDefinition,
  JobPause,
  JobState,
  JobStop,
  keyChangedText,
  Reporter,
  SliceContext,
} from './job';
import { backgroundReport } from './reporters';
import { whenText } from '../words';
import { describe } from '../errors';

/** Silent reporter for the progress dialog: the dialog shows the progress continueJob returns. */
export const DIALOG_REPORTER: Reporter = { progress: () => undefined, end: () => undefined };

export function newJobState<U, D, R>(job: JobDefinition<U, D, R>, units: U[], data: D): JobState<U, D> {
  const size = job.size || (() => 1);
  const total = units.reduce((n, u) => n + size(u), 0);
  return { v: 1, units, total, data, owner: ownerStamp(job.service), startedAt: Date.now() };
}

/** Saves a newly planned job and runs its first slice (the caller holds the lease: see withJobLease). */
export function startJob<U, D, R>(
  job: JobDefinition<U, D, R>,
  state: JobState<U, D>,
  reporter: Reporter,
  deadline = Deadline.forExecution(),
  memory: Record<string, unknown> = {},
): JobProgress {
  saveJob(job.kind, state);
  forgetStop(job.kind); // a Stop that came after the job before it ended
  return runSlice(job, state, reporter, deadline, memory);
}

/** The saved state of a job of this kind, or null. */
export function savedJob<U, D>(kind: JobKind): JobState<U, D> | null {
  const state = loadJob<JobState<U, D>>(kind);
  return state && state.v === 1 && Array.isArray(state.units) ? state : null;
}

/**
 * One slice of a saved job for the progress dialog, under the lease; a second caller gets a "busy"
 * progress. What the slice did is kept until the dialog asks for the next slice or says it showed the end.
 */
export function continueSavedJob<U, D, R>(
  job: JobDefinition<U, D, R>,
  reporter: Reporter,
  deadline = Deadline.forExecution(),
): JobProgress {
  return withJobLease(
    job.kind,
    () => {
      forgetUnseenReport(job.kind); // the dialog asks for this slice only after showing the one before
      const state = savedJob<U, D>(job.kind);
      if (!state) return nothingLeft(job.kind);
      const before = JSON.stringify(state.data);
      const progress = runSlice(job, state, reporter, deadline);
      // Only a dialog's slice can end unseen (the dialog closed meanwhile); a trigger's has its last run.
      const report = reporter.unattended
        ? ''
        : backgroundReport(job, JSON.parse(before) as D, state, progress);
      if (report) keepUnseenReport(job.kind, report);
      return progress;
    },
    () => busyProgress(job.kind),
  );
}

/**
 * The progress dialog's Stop. With no slice working, the job ends now; while a slice works in another
 * execution, that slice ends it after the unit under way (the answer says "stopping").
 */
export function stopSavedJob<U, D, R>(job: JobDefinition<U, D, R>): JobProgress {
  return withJobLease(
    job.kind,
    () => {
      const state = savedJob<U, D>(job.kind);
      if (!state || isStopped(state)) return nothingLeft(job.kind);
      stopByUser(job, state);
      endJob(job, state);
      return progressOf(job, state, true);
    },
    () => {
      requestStop(job.kind);
      return {
        kind: job.kind,
        done: 0,
        total: 0,
        status: 'stopping',
        finished: false,
        message: 'Stopping after the batch under way: nothing more is charged.',
      };
    },
  );
}

function nothingLeft(kind: JobKind): JobProgress {
  return { kind, done: 0, total: 0, status: 'done', finished: true, message: 'Nothing left to do.' };
}

function isPaused<U, D>(state: JobState<U, D>): boolean {
  return !!state.status && state.status.is === 'paused';
}

/**
 * Stop ends the job; `underWay`: what the unit on its way when Stop came did (it went through: a post is
 * never called back), said before what was left.
 */
function stopByUser<U, D, R>(job: JobDefinition<U, D, R>, state: JobState<U, D>, underWay = ''): void {
  let left: string;
  try {
    left = job.markStopped ? job.markStopped(state) : '';
  } catch (error) {
    left = `The rows left could not be marked (${describe(error)}).`; // the sheet is gone or was changed
  }
  const went = underWay ? ` ${UNDER_WAY_TEXT(underWay)}` : '';
  state.status = {
    is: 'stopped',
    byUser: true,
    message: `Stopped, as you asked.${went}${left ? ` ${left}` : ''}`,
  };
}

const UNDER_WAY_TEXT = (done: string) =>
  `The batch on its way when you pressed Stop went through: it ${done}.`;

/** The progress of a slice that may not run: the job is another key's, or paused until later. */
function heldBack<U, D, R>(job: JobDefinition<U, D, R>, state: JobState<U, D>): JobProgress | null {
  const otherKey = keyChangedText(job, state);
  if (otherKey)
    return { ...progressOf(job, state, false), status: 'paused', finished: true, error: otherKey };
  if (state.status && state.status.is === 'paused' && Date.now() < state.status.until)
    return progressOf(job, state, false);
  return null;
}

/** What a unit's work gets: the slice's deadline and memory, and a way to say how far it is. */
function sliceContext<U, D, R>(
  job: JobDefinition<U, D, R>,
  state: JobState<U, D>,
  step: Omit<SliceContext, 'progress'>,
): SliceContext {
  return {
    ...step,
    progress: (done, message) => {
      const before = progressOf(job, state, false);
      saveProgress(job.kind, { ...before, done: before.done + done, message: message || before.message });
    },
  };
}

/** Works on the state's units until none is left, the job stops, or the next unit would not fit. */
export function runSlice<U, D, R>(
  job: JobDefinition<U, D, R>,
  state: JobState<U, D>,
  reporter: Reporter,
  deadline: Deadline,
  memory: Record<string, unknown> = {},
): JobProgress {
  const held = heldBack(job, state);
  if (held) {
    reporter.end(job, held);
    return held;
  }
  if (isPaused(state)) state.status = undefined;
  const context = sliceContext(job, state, { deadline, memory, stoppable: !reporter.unattended });
  let longest = 0;
  let underWay = ''; // what the last unit did: Stop seen after it came while it was on its way
  while (state.units.length > 0 && !isStopped(state)) {
    if (stopRequested(job.kind)) {
      stopByUser(job, state, underWay);
      break;
    }
    const unit = state.units[0];
    if (deadline.remaining() < Math.max(longest, job.unitMs(unit, state)) + MARGIN_MS) break;
    if (job.fits && !job.fits(unit, state, context)) break;
    const started = Date.now();
    const before = job.workDone ? JSON.stringify(state.data) : '';
    underWay = '';
    try {
      const result = job.work(unit, state, context);
      const more = job.record(unit, result, state, context);
      state.units.shift();
      if (more) state.units.unshift(...more);
      if (job.workDone) underWay = job.workDone(JSON.parse(before) as D, state.data);
    } catch (error) {
      if (!handleStop(error, state)) throw error;
      if (!state.status) break; // out of time inside the unit: the next slice redoes it
    } finally {
      longest = Math.max(longest, Date.now() - started);
      saveJob(job.kind, state);
    }
    // Paused, or over: the end, right after, says it (a progress saved now would be cleared at once).
    if (isPaused(state) || state.units.length === 0 || isStopped(state)) break;
    const progress = progressOf(job, state, false);
    saveProgress(job.kind, progress); // what the dialog polls while this slice goes on
    reporter.progress(job, progress);
  }
  const finished = isStopped(state) || state.units.length === 0;
  // Stop pressed while the last requests were on their way: they went, and the end says so.
  const lateStop = finished && !isStopped(state) && stopRequested(job.kind);
  if (finished) endJob(job, state);
  else saveJob(job.kind, state);
  if (finished && job.showResults && !reporter.unattended) job.showResults(state);
  const progress = progressOf(job, state, finished);
  if (lateStop) progress.message = `${progress.message} ${LATE_STOP_TEXT}`;
  reporter.end(job, progress);
  return progress;
}

/** The job is over (finished, stopped or dropped): its state and what it kept elsewhere go. */
export function endJob<U, D, R>(job: JobDefinition<U, D, R>, state: JobState<U, D>): void {
  if (job.ended) job.ended(state);
  clearJob(job.kind);
}

const LATE_STOP_TEXT =
  'Stop came while the last requests were already on their way: they went through, and nothing was left to stop.';

/** Room kept after the last unit: saving the state and the dialog's answer. */
const MARGIN_MS = 10_000;

/** Applies a stop, a pause or an "out of time" to the state; false for an error that is a bug. */
function handleStop<U, D>(error: unknown, state: JobState<U, D>): boolean {
  if (error instanceof JobStop) state.status = { is: 'stopped', byUser: false, message: error.message };
  else if (error instanceof JobPause)
    state.status = { is: 'paused', until: error.until, message: error.message };
  else if (error instanceof ApiError) {
    if (isForLater(error)) return true; // out of time, or the rate budget would wait past the deadline
    if (error.kind === 'fetch-quota') {
      // Google's daily fetch quota: nothing was sent; the job waits (tried again after an hour).
      const until = Date.now() + (error.retryAfterMs || 3_600_000);
      const latest = whenText(Date.now() + 86_400_000);
      const message = `${describe(error)} Run it again after ${whenText(until)} (at the latest ${latest}).`;
      state.status = { is: 'paused', until, message };
      return true;
    }
    state.status = { is: 'stopped', byUser: false, message: describe(error) };
  } else return false;
  return true;
}

function progressOf<U, D, R>(
  job: JobDefinition<U, D, R>,
  state: JobState<U, D>,
  finished: boolean,
): JobProgress {
  const left = state.units.reduce((n, unit) => n + (job.size ? job.size(unit) : 1), 0);
  const status = state.status;
  const base = {
    kind: job.kind,
    done:
      finished && !isStopped(state) ? state.total : Math.max(0, Math.min(state.total - left, state.total)),
    total: state.total,
    message: job.summary(state, finished),
    ...(state.startedAt ? { elapsedMs: Math.max(0, Date.now() - state.startedAt) } : {}),
  };
  if (status && status.is === 'stopped')
    return {
      ...base,
      status: status.byUser ? 'user-stopped' : 'stopped',
      finished: true,
      error: status.message,
    };
  if (!finished && status && status.is === 'paused' && Date.now() < status.until)
    return { ...base, status: 'paused', finished: true, error: status.message };
  return finished
    ? { ...base, status: 'done', finished: true }
    : { ...base, status: 'working', finished: false };
}

function busyProgress(kind: JobKind): JobProgress {
  return {
    kind,
    done: 0,
    total: 0,
    status: 'busy',
    finished: false,
    message: 'Another run of this job is in progress (another window or editor); waiting for it…',
  };
}
