// The hourly trigger's handler: this user's timed work in this document, with no UI. It first checks
// ScriptApp.getAuthorizationInfo (a trigger keeps firing when the add-on needs the user's authorization
// again): then it only records that on the Tracking summary, where the user sees it, and waits. Otherwise:
// a send waiting for the quota (or cut off by the time limit) goes on, the scheduled sends that are due
// start, the auto-refresh runs (or, with it off, the refresh owed after a timed send: the first run after a
// timed send refreshes what it sent, before it starts any other send, so a bounce is known before a later
// send); the summary says what happened; the trigger removes itself when nothing is left for it.
import { needsReauthorization } from '../../platform/triggers';
import { continueSavedJob, savedJob } from '../jobs/job-runner';
import { recordLastRun, unattendedReporter } from '../jobs/reporters';
import { SEND_JOB, SendData, SendUnit } from '../mail/send-job';
import { describe } from '../settings';
import { refreshOnTimer } from '../tracking/tracking-auto';
import { writeStatusBlock } from '../tracking/tracking-summary';
import { runDueSchedules } from './send-later';
import { adoptRunningTrigger, releaseTimerIfIdle, removeMyTimer } from './timer';
import { myTimer, saveMyTimer, userToken } from './timer-store';

export function onHourlyTimer(event?: { triggerUid?: string }): void {
  const uid = event && event.triggerUid;
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  if (!spreadsheet) {
    removeMyTimer(uid); // no document: nothing this trigger could ever do
    return;
  }
  adoptRunningTrigger(uid);
  adoptLegacySwitch();
  if (needsReauthorization()) {
    noteReauthorization(spreadsheet);
    return;
  }
  const record = myTimer();
  if (record.reauthAt) saveMyTimer({ ...record, reauthAt: undefined });
  // What a timed send of an earlier run posted is refreshed before any other send: its bounces are known.
  const refreshedFirst = !!record.refreshAfterSend;
  if (refreshedFirst) refreshOnTimer();
  const continued = guarded('The waiting send could not go on.', continueMySend);
  const started = guarded('A scheduled send could not start.', runDueSchedules);
  if (!refreshedFirst) refreshOnTimer();
  // What a timed send posted is not final yet: the next run refreshes it.
  if (continued || (started && started > 0)) {
    saveMyTimer({ ...myTimer(), refreshAfterSend: Date.now() });
  }
  writeStatusBlock(spreadsheet);
  releaseTimerIfIdle(uid);
}

/**
 * Earlier versions kept one auto-refresh switch for the whole document (`tracking.auto`): the user whose
 * trigger still runs is the one who turned it on, so it becomes that user's own switch.
 */
function adoptLegacySwitch(): void {
  const record = myTimer();
  if (record.auto) return;
  const legacy = PropertiesService.getDocumentProperties().getProperty(LEGACY_SWITCH);
  try {
    const auto = legacy ? (JSON.parse(legacy) as { on?: boolean; since?: number }) : null;
    if (auto && auto.on) {
      saveMyTimer({ ...record, auto: { on: true, since: Number(auto.since) || Date.now(), failures: 0 } });
    }
  } catch {
    // unreadable: nothing to adopt
  }
}

const LEGACY_SWITCH = 'tracking.auto';

/** This user's send that waits for the quota, or was cut off by the time limit, goes on; true when it posted. */
function continueMySend(): boolean {
  const job = savedJob<SendUnit, SendData>(SEND_JOB.kind);
  if (!job || job.stopped || job.units.length === 0 || job.data.owner !== userToken()) return false;
  continueSavedJob(SEND_JOB, unattendedReporter('send'));
  const after = savedJob<SendUnit, SendData>(SEND_JOB.kind);
  return !after || after.data.sent > job.data.sent;
}

function guarded<T>(message: string, work: () => T): T | null {
  try {
    return work();
  } catch (error) {
    recordLastRun('send', { message, error: describe(error), finished: true });
    return null;
  }
}

/** Recorded once per episode, where the user looks (the summary); the trigger stays and tries hourly. */
function noteReauthorization(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): void {
  const record = myTimer();
  if (record.reauthAt) return;
  saveMyTimer({ ...record, reauthAt: Date.now() });
  try {
    writeStatusBlock(spreadsheet);
  } catch {
    // Without the document's permission the summary cannot be written: the menu says it instead.
  }
}
