// How a send's run ends or waits after a batch, and what the rows and the user are told: the sending quota
// used up (the rows wait and the hourly trigger tries again, for 7 days at most) or an error that ends the
// run (no funds, a refused key…).
import { type ApiError } from '../../api';
import { MailState, notSent } from '../../sheets';
import { SEND_TEXTS, QUOTA_WAIT_DAYS, quotaWait } from '../outbox';
import { JobPause, JobStop, ensureHourlyTrigger } from '../jobs';
import { asClause, neededText } from '../words';

import { describe } from '../errors';
import { count, plural } from '../../platform';
/** The next try: just under an hour, so the next hourly run of the trigger makes it. */
const RETRY_MS = 50 * 60 * 1000;

/** What the words need of a send's saved data. */
export interface EndData {
  sent: number;
  /** Where to buy more EDM, said when the quota runs out. */
  pricing: string;
  /** Set while the send waits for the sending quota: since when, and what the service said. */
  waiting?: { since: number; detail: string };
}

/** How a run ends or waits after a batch: the status of the rows still queued, and what the runner hears. */
interface RunEnd {
  state: MailState;
  error: JobPause | JobStop;
}

/**
 * The quota is used up: nothing more is posted now. Every row still queued says it waits with what the
 * service said; the job pauses until the next hourly run of the sender's trigger, which tries again. After
 * 7 days of waiting the send is given up, and the rows say so.
 */
export function quotaEnd(error: ApiError, data: EndData, left: number): RunEnd {
  const detail = asClause(error.detail || error.userMessage);
  const { since, gaveUp } = quotaWait(data.waiting && data.waiting.since);
  if (gaveUp) {
    data.waiting = undefined;
    return {
      state: notSent('gave-up-waiting', SEND_TEXTS.gaveUp(QUOTA_WAIT_DAYS, detail)),
      error: new JobStop(
        `Gave up waiting for the sending quota after ${QUOTA_WAIT_DAYS} days (${detail}). ${sentText(data)}`,
      ),
    };
  }
  data.waiting = { since, detail };
  let retry = 'the add-on tries again every hour';
  try {
    ensureHourlyTrigger();
  } catch (triggerError) {
    retry = `The hourly retry could not be set up (${describe(triggerError)}): run the send again later`;
  }
  const pause = new JobPause(
    `The sending quota is used up (${detail}). ${sentText(data)} The ${count(left, 'e-mail')} left wait for it: ${retry}, for ${QUOTA_WAIT_DAYS} days, and sends each of them once when it is back. Cancel from the menu: Cancel a waiting or scheduled send.`,
    Date.now() + RETRY_MS,
  );
  return { state: { kind: 'waiting', detail }, error: pause };
}

/** An error that ends the run (no funds, a refused key…): the rows still queued are not sent. */
export function stopEnd(error: ApiError, data: EndData): RunEnd {
  return {
    state: notSent('send-stopped', SEND_TEXTS.sendStopped(error.userMessage)),
    error: new JobStop(stopText(error, data)),
  };
}

function sentText(data: EndData): string {
  return `${count(data.sent, 'e-mail')} ${plural(data.sent, 'was', 'were')} sent and recorded.`;
}

function stopText(error: ApiError, data: EndData): string {
  const sent = `${count(data.sent, 'e-mail')} ${plural(data.sent, 'was', 'were')} sent and recorded; the rows not sent say why.`;
  if (error.kind === 'funds') {
    return `Not enough e-mail credits (EDM).${neededText(error, 'e-mail credits')} Buy an add-on pack (2,000 e-mail credits) at ${data.pricing}. ${sent}`;
  }
  return `${describe(error)} ${sent}`;
}
