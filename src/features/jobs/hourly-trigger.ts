// The one time-driven trigger a user may have in a document (Google's "Triggers for Editor add-ons": at most
// hourly, one per user per document). Auto-refresh, the sends scheduled for later and a send waiting for
// the sending quota all ride on it: turning one on while another is on keeps the trigger, and it is removed
// only when none of them is left. The trigger is found by the id stored when it was made (platform/
// triggers.ts), so it works whether or not getUserTriggers(spreadsheet) lists time-driven triggers.
import {
  missingScopes,
  createHourlyTrigger,
  deleteTriggers,
  listedClockTrigger,
  triggerById,
  userToken,
  count,
} from '../../platform';
import { loadJob } from './job-store';
import { mySchedules, mySequences } from '../outbox';
import { myHourlyTrigger, saveMyHourlyTrigger } from './hourly-trigger-store';

type Trigger = GoogleAppsScript.Script.Trigger;

/** The handler every hourly trigger of the add-on runs (a top-level function of index.ts). */
const HOURLY_HANDLER = 'onHourlyTimer';

const ADOPT_LATER =
  'You already have an hourly trigger of this add-on in this document that could not be found by its id: it takes over at its next run (within the hour). Try again after that.';

/** This user's hourly trigger in this document, made when missing; 'kept' when it was already there. */
export function ensureHourlyTrigger(): 'created' | 'kept' | 'adopted' {
  const record = myHourlyTrigger();
  if (triggerById(record.triggerId)) return 'kept';
  let trigger: Trigger;
  let how: 'created' | 'adopted' = 'created';
  try {
    trigger = createHourlyTrigger(HOURLY_HANDLER);
  } catch (error) {
    // "Too many time-based triggers": this user has one here whose id was not recorded.
    const unrecorded = listedClockTrigger(SpreadsheetApp.getActiveSpreadsheet(), [HOURLY_HANDLER]);
    if (!unrecorded) throw new Error(ADOPT_LATER, { cause: error });
    trigger = unrecorded;
    how = 'adopted';
  }
  saveMyHourlyTrigger({ ...myHourlyTrigger(), triggerId: trigger.getUniqueId() });
  return how;
}

/** The trigger that runs this execution is this user's hourly trigger here (it may have been made before ids were kept). */
export function adoptRunningTrigger(uid: string | undefined): void {
  const record = myHourlyTrigger();
  if (uid && record.triggerId !== uid) saveMyHourlyTrigger({ ...record, triggerId: uid });
}

/** Deletes this user's trigger in this document (found by its stored id, or the running one's). */
export function removeMyHourlyTrigger(runningUid?: string): boolean {
  const record = myHourlyTrigger();
  const removed = deleteTriggers([record.triggerId, runningUid].filter((id): id is string => !!id));
  if (record.triggerId) {
    delete record.triggerId;
    saveMyHourlyTrigger(record);
  }
  return removed > 0;
}

/** What this user's trigger still has to do here. */
function myPendingWork(): {
  autoRefresh: boolean;
  scheduled: number;
  waitingSend: boolean;
  refreshAfterSend: boolean;
  waitingPhone: boolean;
  sequences: number;
} {
  const job = loadJob<{ data?: { owner?: string; waiting?: unknown; held?: number } }>('send');
  const phone = loadJob<{ data?: { byTimer?: boolean } }>('phone'); // this user's (jobs are per user)
  const record = myHourlyTrigger();
  return {
    autoRefresh: !!(record.auto && record.auto.on),
    scheduled: mySchedules().length,
    // Waiting for the sending quota, or for its rows' send window or hourly limit (mail/send-hold.ts).
    waitingSend: !!(job && job.data && (job.data.waiting || job.data.held) && job.data.owner === userToken()),
    refreshAfterSend: !!record.refreshAfterSend,
    waitingPhone: !!(phone && phone.data && phone.data.byTimer),
    sequences: mySequences().length,
  };
}

/**
 * The hourly work this user has left in this document besides auto-refresh, in words ("a send scheduled for
 * later"), or null when none: while there is some, auto-refresh does not turn itself off and the trigger
 * stays. The one place that says so (a follow-up sequence with steps left included).
 */
export function hourlyWorkLeft(): string | null {
  const work = myPendingWork();
  const left: string[] = [];
  if (work.scheduled > 0)
    left.push(
      work.scheduled === 1
        ? 'a send scheduled for later'
        : `${count(work.scheduled, 'send')} scheduled for later`,
    );
  if (work.waitingSend) left.push('a send waiting for the sending quota, its send window or hourly limit');
  if (work.refreshAfterSend) left.push('the mails of a waiting or scheduled send to refresh');
  if (work.waitingPhone) left.push("a phone check waiting for Google's daily limit");
  if (work.sequences > 0)
    left.push(work.sequences === 1 ? 'a follow-up sequence' : count(work.sequences, 'follow-up sequence'));
  return left.length ? left.join(' and ') : null;
}

/** Removes this user's trigger when nothing is left for it; true when removed. */
export function releaseHourlyTriggerIfIdle(runningUid?: string): boolean {
  if (myPendingWork().autoRefresh || hourlyWorkLeft()) return false;
  if (missingScopes(['triggers']).length > 0) return false; // a refused permission: it cannot be removed
  return removeMyHourlyTrigger(runningUid);
}
