// One endpoint drives every long job from the progress dialog; each kind registers its step here.
import { busyProgress, JobProgress, withJobLease } from '../platform/jobs';
import { continueUnlock } from './unlock';
import { continuePhoneJob } from './phone-check';

type Step = () => JobProgress;

const steps: Record<string, Step> = {
  unlock: continueUnlock,
  phone: continuePhoneJob,
};

export function continueJob(kind: string): JobProgress {
  const step = Object.prototype.hasOwnProperty.call(steps, kind) ? steps[kind] : undefined;
  if (!step) throw new Error(`Unknown job "${kind}".`);
  return withJobLease(kind, step, () => busyProgress(kind));
}
