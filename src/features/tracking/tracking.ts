// Menu: Refresh tracking. Reads the tasks this document sent and all their mails into the Tracking sheet
// and the summary, and moves the Mail status of the rows that sent them. Free and read-only at the service:
// a refresh cut off by the 6-minute limit goes on in the progress dialog, or at the trigger's next run.
import { Deadline } from '../../platform';
import {
  BUSY_MESSAGE,
  JobProgress,
  withJobLease,
  hasWorkLeft,
  Reporter,
  newJobState,
  runSlice,
  savedJob,
  startJob,
  MENU_REPORTER,
} from '../jobs';
import type { RefreshOrigin } from './tracking-store';
import { inform } from '../../ui';
import { ensureKey } from '../settings';
import { newTrackingData, type TrackingData, type TrackingUnit } from './tracking-data';
import { firstStepMemory, TRACKING_JOB } from './tracking-job';
import { readMailIndex } from './tracking-plan';
import { Ledger } from '../outbox';
import { scanReplies } from '../inbox';

const NOTHING_TO_TRACK =
  'This document has not sent any e-mail yet: no Mail ID on a mailing list and no Tracking sheet. Send e-mails first, then refresh.';

/** Menu: Refresh tracking. One refresh at a time per document (the menu, the dialog and the trigger). */
export function refreshTracking(): void {
  if (!ensureKey('outreach')) return;
  scanReplies(); // the answers in Gmail first (Settings › Detect replies in Gmail): nothing when off
  withJobLease(
    TRACKING_JOB.kind,
    () => {
      if (!runRefresh('menu', MENU_REPORTER)) inform('Nothing to track yet', NOTHING_TO_TRACK);
    },
    () => inform('Refresh tracking', BUSY_MESSAGE),
  );
}

/**
 * Runs one slice of the refresh (the caller holds the lease): an unfinished refresh goes on where it
 * stopped, otherwise a new one is planned. Null when the document has nothing to track.
 */
export function runRefresh(origin: RefreshOrigin, reporter: Reporter): JobProgress | null {
  const saved = savedJob<TrackingUnit, TrackingData>(TRACKING_JOB.kind);
  if (saved && hasWorkLeft(saved)) {
    saved.data.origin = origin;
    return runSlice(TRACKING_JOB, saved, reporter, Deadline.forExecution());
  }
  const index = readMailIndex(SpreadsheetApp.getActiveSpreadsheet(), Ledger.read().postedMails());
  if (index.sent.size === 0 && index.tracked.size === 0 && index.open.length === 0) return null;
  const units: TrackingUnit[] = [{ after: 0, left: Math.max(1, index.open.length) }];
  const state = newJobState(TRACKING_JOB, units, { ...newTrackingData(origin), unseen: index.unseen });
  // The first slice works from this reading of the sheets.
  return startJob(TRACKING_JOB, state, reporter, undefined, firstStepMemory(index));
}
