// Where a long job is kept between executions: its state (document properties, split over several values
// past 9 KB), the running slice's progress (kept apart and small, for the dialog to poll), a Stop asked from
// another execution, the report of a slice nobody saw, and the lease (one slice of a kind per document at a
// time). Each user has their own job of each kind (`job.<kind>.<user token>`): it spends its owner's key,
// so only its owner loads, continues or stops it; other editors only learn that it exists (otherJobs). It
// runs no job and says nothing to the user (features/jobs does both).
import {
  executionEnd,
  deleteLarge,
  readLarge,
  writeLarge,
  withDocumentLock,
  userToken,
} from '../../platform';

/** The long jobs the runner drives; each has its own saved state, lease, progress and Stop per user. */
const JOB_KINDS = ['unlock', 'send', 'phone', 'tracking'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export function isJobKind(kind: unknown): kind is JobKind {
  return (JOB_KINDS as readonly unknown[]).includes(kind);
}

/**
 * Where a job stands after a slice, for the progress dialog. `finished` says whether the dialog asks for another
 * slice; each status fixes it, so the two never disagree.
 */
type ProgressStatus =
  /** Units are left: the dialog asks for the next slice. */
  | { status: 'working'; finished: false; error?: never }
  /** Another execution is working on this job right now: ask again a little later. */
  | { status: 'busy'; finished: false; error?: never }
  /** Stop was asked for while a slice works in another execution: it ends after the batch under way. */
  | { status: 'stopping'; finished: false; error?: never }
  | { status: 'done'; finished: true; error?: never }
  /** Kept, but waiting (a rate limit, Google's daily quota, the key it was started with): `error` says why. */
  | { status: 'paused'; finished: true; error: string }
  /** The job ended early (funds, key, sheet gone…): `error` says why. */
  | { status: 'stopped'; finished: true; error: string }
  /** The job ended because the user pressed Stop (said calmly: it is not an error). */
  | { status: 'user-stopped'; finished: true; error: string };

export type JobProgress = {
  kind: JobKind;
  done: number;
  total: number;
  message: string;
  /** When the running slice saved this progress (ms). */
  at?: number;
  /** Time since the job started (its first slice), by the server's clock, for the dialog's elapsed time. */
  elapsedMs?: number;
} & ProgressStatus;

const PREFIX = 'job.';

/** The current user's key of a job of this kind (the prefix of its progress, stop and report keys). */
function mine(kind: JobKind): string {
  return `${PREFIX}${kind}.${userToken()}`;
}

export function loadJob<T>(
  kind: JobKind,
  all = PropertiesService.getDocumentProperties().getProperties(),
): T | null {
  return readLarge<T>(all, mine(kind));
}

/** The saved jobs of this kind of the document's other users (told, never continued, by this user). */
export function otherJobs<T>(
  kind: JobKind,
  all = PropertiesService.getDocumentProperties().getProperties(),
): T[] {
  const own = mine(kind);
  const pattern = new RegExp(`^${PREFIX}${kind}\\.[0-9a-f]{16}$`);
  return Object.keys(all)
    .filter((key) => key !== own && pattern.test(key))
    .map((key) => readLarge<T>(all, key))
    .filter((state): state is NonNullable<T> => state !== null);
}

export function saveJob(kind: JobKind, state: unknown): void {
  writeLarge(PropertiesService.getDocumentProperties(), mine(kind), state);
}

export function clearJob(kind: JobKind): void {
  const properties = PropertiesService.getDocumentProperties();
  deleteLarge(properties, mine(kind));
  properties.deleteProperty(`${mine(kind)}.progress`);
  properties.deleteProperty(`${mine(kind)}.stop`);
}

/**
 * Stop, asked for from the progress dialog while a slice of the job works in another execution: that slice
 * reads it before each unit (one property read) and ends the job there.
 */
export function requestStop(kind: JobKind): void {
  PropertiesService.getDocumentProperties().setProperty(`${mine(kind)}.stop`, String(Date.now()));
}

export function stopRequested(kind: JobKind): boolean {
  return !!PropertiesService.getDocumentProperties().getProperty(`${mine(kind)}.stop`);
}

/** A new job of this kind starts: a stop asked for the one before is no longer meant. */
export function forgetStop(kind: JobKind): void {
  PropertiesService.getDocumentProperties().deleteProperty(`${mine(kind)}.stop`);
}

/**
 * What a slice driven by the progress dialog did, kept until the dialog says it showed it (or asks for the
 * next slice). A dialog closed while its slice worked never does: the next menu action of the job says it.
 */
export function keepUnseenReport(kind: JobKind, text: string): void {
  PropertiesService.getDocumentProperties().setProperty(`${mine(kind)}.unseen`, text);
}

export function forgetUnseenReport(kind: JobKind): void {
  PropertiesService.getDocumentProperties().deleteProperty(`${mine(kind)}.unseen`);
}

/** The report nobody saw, once (it is deleted), or null. */
export function takeUnseenReport(kind: JobKind): string | null {
  const properties = PropertiesService.getDocumentProperties();
  const text = properties.getProperty(`${mine(kind)}.unseen`);
  if (text) properties.deleteProperty(`${mine(kind)}.unseen`);
  return text;
}

/** The running slice's progress, for the dialog to poll. */
export function saveProgress(kind: JobKind, progress: JobProgress): void {
  PropertiesService.getDocumentProperties().setProperty(
    `${mine(kind)}.progress`,
    JSON.stringify({ ...progress, at: Date.now() }),
  );
}

export function readProgress(kind: JobKind): JobProgress | null {
  const text = PropertiesService.getDocumentProperties().getProperty(`${mine(kind)}.progress`);
  try {
    return text ? (JSON.parse(text) as JobProgress) : null;
  } catch {
    return null;
  }
}

/**
 * A lease ends when the execution that took it ends at the latest (Apps Script stops it 6 minutes after it
 * started, a confirmation's wait included), plus a margin for the clocks of Apps Script's machines: an
 * execution that died without releasing it blocks the next one for that margin, not for minutes.
 */
const LEASE_MARGIN_MS = 30 * 1000;

/**
 * Runs one slice of a job unless another execution is running one (the progress dialog and the menu action
 * run again, or two editors): two slices at once would pay for the same rows twice. The lease is taken under
 * the document lock and held in document properties, so the lock is not kept during the work.
 */
export function withJobLease<T>(kind: JobKind, work: () => T, busy: () => T): T {
  const properties = PropertiesService.getDocumentProperties();
  const key = `${PREFIX}${kind}.lease`;
  const takeLease = () => {
    if (Number(properties.getProperty(key) || 0) > Date.now()) return false;
    properties.setProperty(key, String(executionEnd() + LEASE_MARGIN_MS));
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
