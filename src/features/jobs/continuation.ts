// One endpoint drives every long job from the progress dialog; each kind registers its job here.
import { JobProgress, readProgress } from '../../platform/jobs';
import { continueSavedJob, DIALOG_REPORTER, JobDefinition } from './job-runner';
import { PHONE_JOB } from '../phone/phone-job';
import { SEND_JOB } from '../mail/send-job';
import { UNLOCK_JOB } from '../prospecting/unlock-job';
import { TRACKING_JOB } from '../tracking/tracking-job';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const JOBS: Record<string, JobDefinition<any, any, any>> = {
  unlock: UNLOCK_JOB,
  send: SEND_JOB,
  phone: PHONE_JOB,
  tracking: TRACKING_JOB,
};

export function continueJob(kind: string): JobProgress {
  const job = Object.prototype.hasOwnProperty.call(JOBS, kind) ? JOBS[kind] : undefined;
  if (!job) throw new Error(`Unknown job "${kind}".`);
  return continueSavedJob(job, DIALOG_REPORTER);
}

/** What the running step has done so far (the dialog polls this while continueJob works). */
export function jobProgress(kind: string): JobProgress | null {
  return readProgress(kind);
}
