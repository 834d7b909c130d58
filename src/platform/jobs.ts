// Long work (unlocking many rows, checking many numbers) runs in steps, one execution each, driven by the
// progress dialog. What a job still has to do is kept in document properties so any later execution (the
// next step, or the menu action run again) carries on; finished work is recorded in the sheet and in the
// stores as it happens, so a step that is cut off never redoes it.

export interface JobProgress {
  kind: string;
  done: number;
  total: number;
  finished: boolean;
  message: string;
  error?: string;
  /** Another execution is working on this job right now: ask again a little later. */
  busy?: boolean;
}

const PREFIX = 'job.';

export function loadJob<T>(kind: string): T | null {
  const text = PropertiesService.getDocumentProperties().getProperty(PREFIX + kind);
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

export function saveJob(kind: string, state: unknown): void {
  PropertiesService.getDocumentProperties().setProperty(PREFIX + kind, JSON.stringify(state));
}

export function clearJob(kind: string): void {
  PropertiesService.getDocumentProperties().deleteProperty(PREFIX + kind);
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
  const lock = LockService.getDocumentLock();
  if (!lock.tryLock(10000)) return busy();
  try {
    if (Number(properties.getProperty(key) || 0) > Date.now()) return busy();
    properties.setProperty(key, String(Date.now() + LEASE_MS));
  } finally {
    lock.releaseLock();
  }
  try {
    return work();
  } finally {
    properties.deleteProperty(key);
  }
}

export function busyProgress(kind: string): JobProgress {
  return {
    kind,
    done: 0,
    total: 0,
    finished: false,
    busy: true,
    message: 'Another run of this job is in progress (another window or editor); waiting for it…',
  };
}

export const BUSY_MESSAGE =
  'This job is already running in another window or for another editor. Try again when it has finished.';
