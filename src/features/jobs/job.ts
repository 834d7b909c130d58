// What a long job is, for job-runner.ts to run it: its saved state and status, its definition, what its work
// may throw, where it reports, and who may go on with it. It runs nothing itself (the runner and reporters.ts
// import it; it imports neither).
import { type Deadline, ownershipOf, type OwnerStamp, type Service } from '../../platform';
import { type JobKind, type JobProgress } from './job-store';

/** What is saved between slices. `data` is the job's own (counters, settings of the run). */
export interface JobState<U, D> {
  v: 1;
  units: U[];
  /** Work planned, in the job's measure (rows, numbers, pages); done = total − size of the units left. */
  total: number;
  data: D;
  /** Who confirmed it, with which key: only they continue it, with that key. */
  owner?: OwnerStamp;
  /** Absent while the job works through its units. */
  status?: JobStatus;
  /** When the job was planned (ms): the progress dialog's elapsed time counts from here, not per slice. */
  startedAt?: number;
}

/** A job that is not simply working: it waits until a time, or it is over and says why. */
type JobStatus =
  | { is: 'paused'; until: number; message: string }
  /** `byUser`: the user pressed Stop. */
  | { is: 'stopped'; message: string; byUser: boolean };

/** The job is over before its units were done: stopped by the user or by a problem. */
export function isStopped(state: Pick<JobState<unknown, unknown>, 'status'>): boolean {
  return !!state.status && state.status.is === 'stopped';
}

/** The job has units left and was not stopped: it goes on (now, or after its pause). */
export function hasWorkLeft(state: Pick<JobState<unknown, unknown>, 'status' | 'units'>): boolean {
  return !isStopped(state) && state.units.length > 0;
}

/** Until when the job waits (ms): no slice runs before; 0 when it does not wait. */
export function pausedUntil(state: Pick<JobState<unknown, unknown>, 'status'>): number {
  return state.status && state.status.is === 'paused' ? state.status.until : 0;
}

/** Ends the job now with a message for the user (funds used up, key refused, sheet gone…). */
export class JobStop extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobStop';
  }
}

/** Keeps the job but runs no slice before `until` (a rate limit longer than an execution). */
export class JobPause extends Error {
  constructor(
    message: string,
    readonly until: number,
  ) {
    super(message);
    this.name = 'JobPause';
  }
}

export interface SliceContext {
  deadline: Deadline;
  /** Progress inside a long unit: `done` of the running unit's size, saved for the dialog to poll. */
  progress(done: number, message?: string): void;
  /**
   * What the units of this slice share and no later slice needs (a plan read from the sheets, the service's
   * pace): the job's own, empty at the start of every slice unless startJob was given it.
   */
  memory: Record<string, unknown>;
  /** A dialog watches this slice, with its Stop: a unit should let Stop act between its requests. */
  stoppable: boolean;
}

export interface JobDefinition<U, D, R> {
  kind: JobKind;
  /** What the user calls it, e.g. "Unlock": alerts say "Unlock stopped", "Unlock finished". */
  name: string;
  /** Title of the progress dialog, e.g. "Unlocking companies". */
  title: string;
  /** The menu item that starts the job, and goes on with an unfinished one. */
  action: string;
  /** Whose key the job spends (or reads with). */
  service: Service;
  /** Reads only, nothing charged: it goes on with whatever key the user has now (a refresh). */
  free?: boolean;
  /** Virtual ms a unit needs at most when nothing was measured yet (it starts only when that fits). */
  unitMs(unit: U, state: JobState<U, D>): number;
  /** Optional finer test than unitMs (e.g. the rate budget's wait for the unit's first batch). */
  fits?(unit: U, state: JobState<U, D>, context: SliceContext): boolean;
  /** The slow part: API calls. Throws JobStop / JobPause, or an ApiError (one for later, isForLater: out of time). */
  work(unit: U, state: JobState<U, D>, context: SliceContext): R;
  /**
   * Writes the result of a finished unit (sheet, stores, counters in state); may return follow-up units,
   * which go first in line (the rest of a unit cut short, the contacts of the companies just unlocked).
   */
  record(unit: U, result: R, state: JobState<U, D>, context: SliceContext): U[] | void;
  /** Work left in a unit, in the measure of `total` (default 1). */
  size?(unit: U): number;
  /** One line for the user: "Sent 200 of 1,000 e-mails…" or the final summary. */
  summary(state: JobState<U, D>, finished: boolean): string;
  /**
   * Stop was pressed: marks the rows of the units left "Stopped: …" (never "Queued") and says what was
   * left, e.g. "44 companies were not unlocked (nothing charged for them)…".
   */
  markStopped?(state: JobState<U, D>): string;
  /** The job ended (finished, stopped, dropped): lets go of what it kept outside its state. */
  ended?(state: JobState<U, D>): void;
  /** The job ended in an execution a user watches (a menu, a dialog; not a trigger): shows where its results are. */
  showResults?(state: JobState<U, D>): void;
  /** What the work between two saved states did, e.g. "unlocked 62 companies (62 points)"; "" for nothing. */
  workDone?(before: D, after: D): string;
}

export type JobLabels = Pick<
  JobDefinition<unknown, unknown, unknown>,
  'kind' | 'name' | 'title' | 'action' | 'service' | 'free'
>;

/** Where a job tells the user what happened. A trigger's reporter never calls getUi(). */
export interface Reporter {
  /** No dialog watches (a trigger's run): nobody can press Stop, nothing is reported as "after the dialog closed". */
  unattended?: boolean;
  /** A unit was recorded: work is going on. */
  progress(job: JobLabels, progress: JobProgress): void;
  /** This execution's slice is over: the job finished, stopped, paused or continues in the next slice. */
  end(job: JobLabels, progress: JobProgress): void;
}

/**
 * Why the current user may not go on with their own saved job, or '' when they may: it was started with
 * another key (the work in flight can only be settled with it, and the new key never pays for the old one).
 */
export function keyChangedText(job: JobLabels, state: Pick<JobState<unknown, unknown>, 'owner'>): string {
  if (job.free || !state.owner || ownershipOf(state.owner, job.service) === 'mine') return '';
  const service = job.service === 'outreach' ? 'outreach' : 'phone-check';
  return `This ${job.name.toLowerCase()} was started with another ${service} API key. Put that key back in Extensions › Outreach › Settings to go on with it; nothing is spent with the new key for it.`;
}
