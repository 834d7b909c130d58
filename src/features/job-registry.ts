// The progress dialog's endpoints drive every long job; each kind registers its job here.
import { forgetUnseenReport, JobProgress, readProgress } from '../platform/jobs';
import { continueSavedJob, DIALOG_REPORTER, JobDefinition, stopSavedJob } from './jobs/job-runner';
import { PHONE_JOB } from './phone/phone-job';
import { SEND_JOB } from './mail/send-job';
import { UNLOCK_JOB } from './prospecting/unlock-job';
import { TRACKING_JOB } from './tracking/tracking-job';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const JOBS: Record<string, JobDefinition<any, any, any>> = {
  unlock: UNLOCK_JOB,
  send: SEND_JOB,
  phone: PHONE_JOB,
  tracking: TRACKING_JOB,
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function jobOf(kind: string): JobDefinition<any, any, any> | undefined {
  return Object.prototype.hasOwnProperty.call(JOBS, kind) ? JOBS[kind] : undefined;
}

export function continueJob(kind: string): JobProgress {
  const job = jobOf(kind);
  if (!job) throw new Error(`Unknown job "${kind}".`);
  return continueSavedJob(job, DIALOG_REPORTER);
}

/** Stop: ends the job now, or (while a step works) after the unit under way; rows left say "Stopped". */
export function stopJob(kind: string): JobProgress {
  const job = jobOf(kind);
  if (!job) throw new Error(`Unknown job "${kind}".`);
  return stopSavedJob(job);
}

/** The dialog showed how the job ended: the next menu action need not say it again. */
export function jobEndShown(kind: string): void {
  const job = jobOf(kind);
  if (job) forgetUnseenReport(job.kind);
}

/** What the running step has done so far (the dialog polls this while continueJob works). */
export function jobProgress(kind: string): JobProgress | null {
  return readProgress(kind);
}
