// Menu: "Cancel a waiting or scheduled send". A send waiting for the sending quota is dropped (its rows say
// so and can be sent again later); sends scheduled for later are cancelled one by one after a question.
// Only the user's own: another editor's waiting or scheduled send spends their key, and only they cancel
// it (this user is told it exists), unless it is a scheduled send that cannot run (schedules.ts). The hourly trigger is removed when nothing is left for it.
import { spreadsheetZone } from '../words';
import { withJobLease, isStopped, savedJob, releaseHourlyTriggerIfIdle } from '../jobs';
import { userToken, count, formatCount, plural } from '../../platform';
import { dropSend, rowsLeft, SEND_JOB, SendData, SendUnit } from '../mail';
import {
  forgetConfirmed,
  SEND_TEXTS,
  allSchedules,
  deleteSchedule,
  dropUnrunnable,
  mySchedules,
  whyCannotRun,
  startWindowText,
} from '../outbox';
import { notSent } from '../../sheets';
import { confirm, inform, toast } from '../../ui';

const TITLE = 'Cancel a waiting or scheduled send';

export function cancelWaitingOrScheduledSend(): void {
  const zone = spreadsheetZone();
  let asked = cancelWaitingSend();
  const mine = mySchedules();
  for (const schedule of mine) {
    asked = true;
    const question = `A send of "${schedule.sheetName}" is scheduled to start ${startWindowText(schedule.at, zone)}. Cancel it?`;
    if (!confirm(TITLE, question)) continue;
    deleteSchedule(schedule.sheetId);
    forgetConfirmed(schedule.confirmed);
    toast(`The scheduled send of "${schedule.sheetName}" was cancelled.`, TITLE, 5);
  }
  // Another editor's that cannot run (schedules.ts whyCannotRun): anyone may cancel it.
  for (const schedule of allSchedules().filter((s) => s.owner !== userToken())) {
    const why = whyCannotRun(schedule, zone);
    if (!why) continue;
    asked = true;
    const question = `Another editor scheduled a send of "${schedule.sheetName}" that cannot run: ${why}. Cancel it? Nothing of it is sent, and you may schedule your own.`;
    if (!confirm(TITLE, question) || !dropUnrunnable(schedule.sheetId, zone)) continue;
    toast(`The send another editor scheduled for "${schedule.sheetName}" was cancelled.`, TITLE, 5);
  }
  const others = allSchedules().length - mine.length;
  if (!asked) {
    const theirs = others
      ? ` Another editor scheduled ${count(others, 'send')}: only they can cancel ${plural(others, 'it', 'them')}.`
      : '';
    inform(
      TITLE,
      `You have no send waiting for the sending quota and none scheduled in this document.${theirs}`,
    );
  }
  releaseHourlyTriggerIfIdle();
}

/** Asks about the send waiting for the quota, if any; true when there was one. */
function cancelWaitingSend(): boolean {
  return withJobLease(
    SEND_JOB.kind,
    () => {
      const job = savedJob<SendUnit, SendData>(SEND_JOB.kind);
      if (!job || isStopped(job) || !job.data.waiting) return false;
      const left = rowsLeft(job.units);
      const question =
        `The send from "${job.data.sheetName}" waits for the sending quota (${job.data.waiting.detail}) with ${count(left, 'e-mail')} left; ` +
        `${formatCount(job.data.sent)} ${plural(job.data.sent, 'was', 'were')} sent. Cancel it? The rows left are not sent and can be sent again later.`;
      if (!confirm(TITLE, question)) return true;
      const released = dropSend(job, notSent('cancelled', SEND_TEXTS.cancelled));
      toast(`The waiting send was cancelled: ${count(released, 'row')} not sent.`, TITLE, 10);
      return true;
    },
    () => {
      inform(TITLE, 'The waiting send is being tried right now: try again in a few minutes.');
      return true;
    },
  );
}
