// What a long job still has to do is kept in document properties, so any later execution (the next step
// of the progress dialog, the menu action run again, the next trigger run) carries on where it stopped.
// A state larger than one property value (9 KB) is split over several; the progress of the running step is
// kept apart, small, so the dialog can poll it while the step works.
import { deleteLarge, readLarge, writeLarge } from './large-property';
import { withDocumentLock } from './locks';

export interface JobProgress {
  kind: string;
  done: number;
  total: number;
  finished: boolean;
  message: string;
  error?: string;
  /** Another execution is working on this job right now: ask again a little later. */
  busy?: boolean;
  /** The job waits (a rate limit): it is kept, and the message says when to go on. */
  paused?: boolean;
  /** When the running step saved this progress (ms), for the dialog's elapsed time. */
  at?: number;
  /** The job ended because the user pressed Stop (said calmly: it is not an error). */
  userStopped?: boolean;
  /** Stop was asked for while a step works in another execution: it ends after the batch under way. */
  stopping?: boolean;
}

const PREFIX = 'job.';

export function loadJob<T>(kind: string): T | null {
  return readLarge<T>(PropertiesService.getDocumentProperties().getProperties(), PREFIX + kind);
}

export function saveJob(kind: string, state: unknown): void {
  writeLarge(PropertiesService.getDocumentProperties(), PREFIX + kind, state);
}

export function clearJob(kind: string): void {
  const properties = PropertiesService.getDocumentProperties();
  deleteLarge(properties, PREFIX + kind);
  properties.deleteProperty(`${PREFIX}${kind}.progress`);
  properties.deleteProperty(`${PREFIX}${kind}.stop`);
}

/**
 * Stop, asked for from the progress dialog while a step of the job works in another execution: that step
 * reads it before each unit (one property read) and ends the job there.
 */
export function requestStop(kind: string): void {
  PropertiesService.getDocumentProperties().setProperty(`${PREFIX}${kind}.stop`, String(Date.now()));
}

export function stopRequested(kind: string): boolean {
  return !!PropertiesService.getDocumentProperties().getProperty(`${PREFIX}${kind}.stop`);
}

/** A new job of this kind starts: a stop asked for the one before is no longer meant. */
export function forgetStop(kind: string): void {
  PropertiesService.getDocumentProperties().deleteProperty(`${PREFIX}${kind}.stop`);
}

/**
 * What a step driven by the progress dialog did, kept until the dialog says it showed it (or asks for the
 * next step). A dialog closed while its step worked never does: the next menu action of the job says it.
 */
export function keepUnseenReport(kind: string, text: string): void {
  PropertiesService.getDocumentProperties().setProperty(`${PREFIX}${kind}.unseen`, text);
}

export function forgetUnseenReport(kind: string): void {
  PropertiesService.getDocumentProperties().deleteProperty(`${PREFIX}${kind}.unseen`);
}

/** The report nobody saw, once (it is deleted), or null. */
export function takeUnseenReport(kind: string): string | null {
  const properties = PropertiesService.getDocumentProperties();
  const text = properties.getProperty(`${PREFIX}${kind}.unseen`);
  if (text) properties.deleteProperty(`${PREFIX}${kind}.unseen`);
  return text;
}

/** The running step's progress, for the dialog to poll. */
export function saveProgress(kind: string, progress: JobProgress): void {
  PropertiesService.getDocumentProperties().setProperty(
    `${PREFIX}${kind}.progress`,
    JSON.stringify({ ...progress, at: Date.now() }),
  );
}

export function readProgress(kind: string): JobProgress | null {
  const text = PropertiesService.getDocumentProperties().getProperty(`${PREFIX}${kind}.progress`);
  try {
    return text ? (JSON.parse(text) as JobProgress) : null;
  } catch {
    return null;
  }
}

/** How long a step may hold its job: an execution's limit plus a margin (a killed step's lease runs out). */
const LEASE_MS = 6.5 * 60 * 1000;

/**
 * Runs one step of a job unless another execution is running one (the progress dialog and the menu action
 * run again, or two editors): two steps at once would pay for the same rows twice. The lease is taken under
 * the document lock and held in document properties, so the lock is not kept during the work.
 */
export function withJobLease<T>(kind: string, work: () => T, busy: () => T): T {
  const properties = PropertiesService.getDocumentProperties();
  const key = `${PREFIX}${kind}.lease`;
  const takeLease = () => {
    if (Number(properties.getProperty(key) || 0) > Date.now()) return false;
    properties.setProperty(key, String(Date.now() + LEASE_MS));
    return true;
  };
  if (!withDocumentLock(10000, takeLease, () => false, { flush: false })) return busy();
  try {
    return work();
  } finally {
    properties.deleteProperty(key);
  }
}

export const BUSY_MESSAGE =
  'This job is already running in another window or for another editor. Try again when it has finished.';
