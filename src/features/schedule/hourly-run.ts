// The hourly trigger's handler: this user's hourly work in this document, with no UI. It first checks
// the permissions it needs (granular consent: refused ones are named) and ScriptApp.getAuthorizationInfo (a
// trigger keeps firing when the add-on needs the user's authorization
// again): then it only records that on the Tracking summary, where the user sees it, and waits. Otherwise:
// a send waiting for the quota (or cut off by the time limit) goes on, the scheduled sends that are due
// start, the auto-refresh runs (or, with it off, the refresh owed after a waiting or scheduled send: the first run after a
// waiting or scheduled send refreshes what it sent, before it starts any other send, so a bounce is known before a later
// send); the answers in Gmail are read when the user turned reply detection on (inbox/inbox.ts); the
// follow-up steps that are due go out (sequence/sequence-run.ts); the summary says what
// happened; whether this user's key can pay for their sends scheduled later is written where the other
// editors see it (schedule-check.ts); the trigger removes itself when nothing is left for it.
import {
  JobProgress,
  hasWorkLeft,
  continueSavedJob,
  savedJob,
  recordLastRun,
  unattendedReporter,
  type UnattendedWork,
  adoptRunningTrigger,
  releaseHourlyTriggerIfIdle,
  removeMyHourlyTrigger,
  myHourlyTrigger,
  saveMyHourlyTrigger,
} from '../jobs';
import { missingScopes, SCOPES, type ScopeName, needsReauthorization, userToken } from '../../platform';
import { SEND_JOB, SendData, SendUnit } from '../mail';
import { PHONE_JOB, PhoneData, PhoneUnit } from '../phone';
import { autoRefreshHourly, refreshHourly, writeStatusBlock } from '../tracking';
import { runDueSchedules } from './scheduled-send';
import { checkMySchedules } from './schedule-check';
import { runMySequences } from '../sequence';
import { scanReplies } from '../inbox';
import { describe } from '../errors';

export function onHourlyTimer(event?: { triggerUid?: string }): void {
  const uid = event && event.triggerUid;
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  if (!spreadsheet) {
    removeMyHourlyTrigger(uid); // no document: nothing this trigger could ever do
    return;
  }
  adoptRunningTrigger(uid);
  // Some permissions refused (granular consent): named; none left, or the grant is needed again: re-authorize.
  const refused = missingScopes(HOURLY_SCOPES);
  const missing = refused.length < HOURLY_SCOPES.length ? refused : [];
  if (missing.length > 0 || needsReauthorization(HOURLY_SCOPES.map((n) => SCOPES[n]))) {
    noteReauthorization(spreadsheet, missing);
    return;
  }
  const record = myHourlyTrigger();
  if (record.reauthAt) saveMyHourlyTrigger({ ...record, reauthAt: undefined, missing: undefined });
  // What a waiting or scheduled send of an earlier run posted is refreshed before any other send: its bounces are known.
  const refreshedFirst = !!record.refreshAfterSend;
  if (refreshedFirst) refreshHourly();
  const continued = guarded('The waiting send could not go on.', continueMySend);
  const started = guarded('A scheduled send could not start.', runDueSchedules);
  // Whether this user's key can pay for their later sends, where the other editors see it.
  guarded('The scheduled sends could not be checked.', checkMySchedules);
  // Answers read in Gmail before any step goes: a reply stops it, an out-of-office answer pauses it.
  guarded('The replies could not be read from Gmail.', () => scanReplies(), 'inbox');
  const followUps = guarded('The follow-ups could not go on.', () => runMySequences(), 'sequence');
  guarded('The paused phone check could not go on.', continueMyPhoneCheck, 'phone');
  // Auto-refresh only: a refresh owed by what this run posted waits for the next run (its mails are final then).
  if (!refreshedFirst) autoRefreshHourly();
  // What a waiting or scheduled send posted is not final yet: the next run refreshes it.
  if (continued || (started && started > 0) || (followUps && followUps > 0)) {
    saveMyHourlyTrigger({ ...myHourlyTrigger(), refreshAfterSend: Date.now() });
  }
  writeStatusBlock(spreadsheet);
  releaseHourlyTriggerIfIdle(uid);
}

/** This user's send that waits for the quota, or was cut off by the time limit, goes on; true when it posted. */
function continueMySend(): boolean {
  const job = savedJob<SendUnit, SendData>(SEND_JOB.kind);
  if (!job || !hasWorkLeft(job) || job.data.owner !== userToken()) return false;
  continueSavedJob(SEND_JOB, unattendedReporter('send'));
  const after = savedJob<SendUnit, SendData>(SEND_JOB.kind);
  return !after || after.data.sent > job.data.sent;
}

/** This user's phone check that Google's daily fetch limit paused goes on (phone/phone-quota.ts). */
function continueMyPhoneCheck(): JobProgress | null {
  const job = savedJob<PhoneUnit, PhoneData>(PHONE_JOB.kind);
  if (!job || !hasWorkLeft(job) || !job.data.byTimer) return null;
  return continueSavedJob(PHONE_JOB, unattendedReporter('phone'));
}

function guarded<T>(message: string, work: () => T, kind: UnattendedWork = 'send'): T | null {
  try {
    return work();
  } catch (error) {
    recordLastRun(kind, { message, error: describe(error), finished: true });
    return null;
  }
}

/** What the hourly run needs: the document, the services, and to run at all (granular consent). */
const HOURLY_SCOPES: ScopeName[] = ['sheet', 'fetch', 'triggers'];

/**
 * Recorded once per episode (or when other permissions are missing), where the user looks (the summary);
 * the trigger stays and tries hourly.
 */
function noteReauthorization(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  missing: ScopeName[],
): void {
  const record = myHourlyTrigger();
  if (record.reauthAt && String(record.missing || []) === String(missing)) return;
  saveMyHourlyTrigger({ ...record, reauthAt: record.reauthAt || Date.now(), missing });
  try {
    writeStatusBlock(spreadsheet);
  } catch {
    // Without the document's permission the summary cannot be written: the menu says it instead.
  }
}
