// A saved job spends its owner's key: the runner and the resume questions ask whether it may go on here.
import { ownershipOf } from '../../platform/owner';
import type { JobLabels, JobState } from './job-types';

/**
 * Why the current user may not go on with their own saved job, or '' when they may: it was started with
 * another key (the work in flight can only be settled with it, and the new key never pays for the old one).
 */
export function keyChangedText(job: JobLabels, state: Pick<JobState<unknown, unknown>, 'owner'>): string {
  if (job.free || !state.owner || ownershipOf(state.owner, job.service) === 'mine') return '';
  const service = job.service === 'outreach' ? 'outreach' : 'phone-check';
  return `This ${job.name.toLowerCase()} was started with another ${service} API key. Put that key back in Extensions › Outreach › Settings to go on with it; nothing is spent with the new key for it.`;
}
