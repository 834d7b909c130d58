// The document lock: one helper for every short critical section on per-document state (the job lease, the
// phone claims and result store). It is per document, so one user's run never waits for another
// document's; the script lock is shared by every user of a published add-on and is no place for this.
//
// A section is meant to be short: read, decide, write properties. Long work (requests, sheet writes of a
// whole job) runs outside it under a lease kept in properties (features/jobs/job-store.ts).

interface LockOptions {
  /**
   * Apply pending spreadsheet changes before releasing (LockService's documentation does so, so that the
   * next holder reads what this one wrote). Default true; a section that changes only properties skips it,
   * saving a spreadsheet call.
   */
  flush?: boolean;
}

/**
 * Runs `work` under the document lock, or answers onBusy() when the lock cannot be had within timeoutMs.
 * Where there is no document lock (a script not bound to a document), `work` runs without one: there is
 * no other execution on the same document to exclude. Inside another section of this execution it runs
 * at once and leaves the release to the enclosing one.
 */
export function withDocumentLock<T>(
  timeoutMs: number,
  work: () => T,
  onBusy: () => T,
  options: LockOptions = {},
): T {
  const lock = documentLock();
  // No lock here, or this execution holds it already (an enclosing section releases it, not this one).
  if (!lock || lock.hasLock()) return work();
  if (!lock.tryLock(timeoutMs)) return onBusy();
  try {
    return work();
  } finally {
    release(lock, options.flush !== false);
  }
}

function documentLock(): GoogleAppsScript.Lock.Lock | null {
  try {
    return LockService.getDocumentLock();
  } catch {
    return null; // no lock service in this context
  }
}

function release(lock: GoogleAppsScript.Lock.Lock, flush: boolean): void {
  try {
    if (flush) SpreadsheetApp.flush();
  } finally {
    lock.releaseLock();
  }
}
