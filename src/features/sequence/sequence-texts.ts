// What a follow-up sequence says: in each row's Sequence column, in the compose dialog and in the send's
// confirmation (the most the whole sequence can cost).
import { count, formatCount } from '../words';
import type { FollowUp } from './sequence-steps';

export const SEQUENCE_TEXT = {
  stoppedPrefix: 'Stopped',
  finishedPrefix: 'Finished',
  replied: 'Stopped: replied',
  failed: 'Stopped: the last mail failed',
  byUser: 'Stopped: follow-ups stopped from the menu',
  removed: 'Stopped: the follow-ups were removed from the mail (or its sheet or confirmation is gone)',
  opened: 'Stopped: opened the last mail (the next step goes only to rows that did not open)',
  notConfirmed: 'Stopped: not part of the sequence you confirmed (the row was added after the first send)',
} as const;

/** "Stopped: Acme replied (ann@acme.com)". */
export function companyRepliedText(company: string, email: string): string {
  return `${SEQUENCE_TEXT.stoppedPrefix}: ${company} replied (${email})`;
}

export function listedText(reason: string): string {
  return `${SEQUENCE_TEXT.stoppedPrefix}: on the do-not-contact list${reason ? ` (${reason})` : ''}`;
}

/** "Step 1 of 2 sent 2026-11-26 10:00; next: step 2 on 2026-11-29 10:00" or "Next: step 1 on …". */
export function nextText(step: number, of: number, at: string, lastSent?: string): string {
  const next = `step ${step} on ${at}`;
  return step > 1 && lastSent ? `${sentText(step - 1, of, lastSent)}; next: ${next}` : `Next: ${next}`;
}

export function sentText(step: number, of: number, at: string): string {
  return `Step ${step} of ${of} sent ${at}`;
}

export function finishedText(of: number, at: string): string {
  return `${SEQUENCE_TEXT.finishedPrefix}: ${sentText(of, of, at).toLowerCase()}`;
}

export const QUOTA_WAIT = 'waiting for the sending quota';

/** The rows of a step that waited for the sending quota as long as a send does. */
export function gaveUpText(why: string, days: number): string {
  const detail = /\(([^)]*)\)/.exec(why);
  return `${SEQUENCE_TEXT.stoppedPrefix}: gave up waiting for the sending quota after ${days} days${detail ? ` (${detail[1]})` : ''}`;
}

/** A step that is due but waits (quota, credits, the key, the mail changed): said on its rows. */
export function waitingText(step: number, why: string): string {
  return `Next: step ${step} is due and waits: ${why}`;
}

export function isStopped(text: string): boolean {
  return text.startsWith(`${SEQUENCE_TEXT.stoppedPrefix}:`);
}

/** The confirmation's line: the most the whole sequence can cost, against the usable EDM. */
export function sequenceCostLine(rows: number, steps: number, usable: number): string {
  const most = rows * (1 + steps);
  const short =
    usable < most
      ? ` The usable e-mail credits cover ${formatCount(usable)}: a step that finds too few waits for more (its rows and the Tracking summary say so).`
      : '';
  return `Follow-ups: ${count(steps, 'step')} after this mail, each only to rows with no reply (their company included): the whole sequence costs at most ${count(most, 'e-mail credit')} (${formatCount(rows)} rows × ${1 + steps} mails).${short}`;
}

/** What Compose says under the steps. */
export function sequenceNote(template: { followUps?: FollowUp[] } | null): string {
  const steps = (template && template.followUps) || [];
  if (steps.length === 0) return '';
  const when = steps
    .map(
      (s, i) =>
        `${i + 1}: ${s.afterDays} ${s.workingDaysOnly ? 'working ' : ''}day${s.afterDays === 1 ? '' : 's'} later`,
    )
    .join(', ');
  return `${count(steps.length, 'follow-up')} (${when}), sent by the hourly run to the rows that did not reply. Tick "Replied" on a row when its contact answers: nobody at that company gets a follow-up after that. Each follow-up costs 1 e-mail credit per row.`;
}

/** The Tracking summary's words for each running sequence: its sheet, the next step and when, rows left. */
export function sequenceSummary(
  records: Array<{
    sheetName: string;
    state?: { nextStep: number; nextAt: number; rowsLeft: number; waiting?: string };
  }>,
  time: (ms: number) => string,
): string[] {
  return records.map(({ sheetName, state }) => {
    if (!state || !state.nextStep)
      return `Follow-ups of "${sheetName}": started; the hourly run sends each step when it is due.`;
    const rows = count(state.rowsLeft, 'row');
    if (state.waiting)
      return `Follow-ups of "${sheetName}": step ${state.nextStep} is due and waits: ${state.waiting} (${rows} left).`;
    return `Follow-ups of "${sheetName}": next step ${state.nextStep} on ${time(state.nextAt)}, ${rows} left.`;
  });
}
