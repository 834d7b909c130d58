// The progress dialog's endpoints (continue, stop, poll, end shown) for every long job: each JobKind has its
// job here, and a kind a page names is checked before use. It runs no slice itself (jobs/job-runner.ts does).
import {
  forgetUnseenReport,
  isJobKind,
  JobKind,
  JobProgress,
  readProgress,
  type JobDefinition,
  continueSavedJob,
  DIALOG_REPORTER,
  stopSavedJob,
} from './jobs';
import { PHONE_JOB } from './phone';
import { SEND_JOB } from './mail';
import { UNLOCK_JOB } from './prospecting';
import { TRACKING_JOB } from './tracking';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const JOBS: Record<JobKind, JobDefinition<any, any, any>> = {
  unlock: UNLOCK_JOB,
  send: SEND_JOB,
  phone: PHONE_JOB,
  tracking: TRACKING_JOB,
};

// A page may name any string: the kind is checked where it arrives (in the entry point itself, so that a
// stack trace reads forwarder → guard → entry point).
export function continueJob(kind: string): JobProgress {
  if (!isJobKind(kind)) throw new Error(`Unknown job "${kind}".`);
  return continueSavedJob(JOBS[kind], DIALOG_REPORTER);
}

/** Stop: ends the job now, or (while a slice works) after the unit under way; rows left say "Stopped". */
export function stopJob(kind: string): JobProgress {
  if (!isJobKind(kind)) throw new Error(`Unknown job "${kind}".`);
  return stopSavedJob(JOBS[kind]);
}

/** The dialog showed how the job ended: the next menu action need not say it again. */
export function jobEndShown(kind: string): void {
  if (isJobKind(kind)) forgetUnseenReport(kind);
}

/** What the running slice has done so far (the dialog polls this while continueJob works). */
export function jobProgress(kind: string): JobProgress | null {
  return isJobKind(kind) ? readProgress(kind) : null;
}
