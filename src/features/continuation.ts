// One endpoint drives every long job from the progress dialog; each kind registers its step here.
import { JobProgress } from '../platform/jobs';

type Step = () => JobProgress;

const steps: Record<string, Step> = {};

export function continueJob(kind: string): JobProgress {
  const step = Object.prototype.hasOwnProperty.call(steps, kind) ? steps[kind] : undefined;
  if (!step) throw new Error(`Unknown job "${kind}".`);
  return step();
}
