// What a follow-up sequence says: each row's place (a typed SequenceView, and the one pair between a view and
// its Sequence cell), why a due step waits, the confirmation's lines and the Tracking summary's. Behaviour
// reads the views and codes, never these words.
import { type StopCode, type Wait, type FollowUp } from '../outbox';
import { type WaitCode } from '../../sheets';
import { count, formatCount } from '../../platform';

/** Why a row gets no more steps, as its Sequence cell shows it. */
type RowStop = StopCode | 'problem' | 'removed';

/** Where a row is in its sequence. */
export type SequenceView =
  | { kind: 'next'; step: number; of: number; at: number; sentAt?: number }
  | { kind: 'waiting'; step: number; wait: Wait }
  | { kind: 'held' }
  /** Its steps wait for an out-of-office answer's return date (ms). */
  | { kind: 'paused'; until: number }
  | { kind: 'stopped'; code: RowStop; detail?: string }
  | { kind: 'finished'; of: number; at: number };

const STOPPED = 'Stopped';
const DUE_AND_WAITS = ' is due and waits: ';
const PAUSED = 'Paused';
const FINISHED = 'Finished';
const HELD =
  'Held: this row changed after its follow-ups were confirmed; put it back as it was, or send it as a new row';

const STOP_TEXTS: Record<RowStop, (detail: string) => string> = {
  replied: (on) => (on ? `replied ${on}` : 'replied'),
  company: (who) => who || 'their company replied',
  optedOut: (why) => `on the do-not-contact list${why ? ` (${why})` : ''}`,
  menu: () => 'follow-ups stopped from the menu',
  failed: () => 'the last mail failed',
  opened: () => 'opened the last mail (the next step goes only to rows that did not open)',
  gaveUp: (detail) => `gave up waiting for the sending quota after 7 days${detail ? ` (${detail})` : ''}`,
  firstOnly: () => 'in the follow-ups of another list (this list sent it the first mail only)',
  problem: (detail) => `the step cannot be sent (${detail})`,
  removed: () => 'the follow-ups were removed from the mail (or its sheet or confirmation is gone)',
};

const WAIT_TEXTS: Record<WaitCode, (detail: string) => string> = {
  window: () => "its recipient's send window is closed now; the hourly run sends it when it opens",
  test: () => 'the subject test has not chosen its subject yet; the hourly run sends it then',
  review: () =>
    'the mail was changed after it was confirmed: the user who sent it reviews it in Compose e-mail',
  quota: (detail) =>
    `waiting for the sending quota${detail ? ` (${detail})` : ''}; the hourly run tries again`,
  credits: (detail) => `too few e-mail credits (${detail}); the hourly run tries again`,
  'other-key': () => 'it was confirmed with another outreach API key: put that key back in Settings',
  'steps-changed': () =>
    'the follow-ups were changed after they were confirmed: the user who sent the first mail opens Compose e-mail and saves them to go on',
  'step-problems': (detail) => `fix the follow-ups in Compose e-mail (${detail})`,
  'in-doubt': (detail) =>
    `could not confirm with the service whether a chunk was sent (${detail}): nothing more goes until the next hourly run settles it; no row gets a step twice`,
  later: () => 'the rest goes at the next hourly run',
  busy: () => 'a send is in progress: the next hourly run sends it',
  pace: (limit) => `the list's hourly limit (${limit} an hour) is reached; the next hourly run sends more`,
  unread: () =>
    'its replies in Gmail are not all read up to its time yet (a reply would stop it); the next hourly run reads on',
  daily: (cap) => `the list's daily limit (${cap} today) is reached; the hourly runs send more the next day`,
  bounce: (rate) => `the list is paused, ${rate}; it goes on when the user who sent it resumes the list`,
  error: (detail) => `${detail}; the hourly run tries again`,
};

export function waitText(wait: Wait): string {
  return WAIT_TEXTS[wait.code](wait.detail || '');
}

/** The cell text of a view; `when` formats a time in the spreadsheet's zone. */
export function sequenceText(view: SequenceView, when: (ms: number) => string): string {
  switch (view.kind) {
    case 'next': {
      const next = `step ${view.step} on ${when(view.at)}`;
      return view.step > 1 && view.sentAt
        ? `${sentText(view.step - 1, view.of, when(view.sentAt))}; next: ${next}`
        : `Next: ${next}`;
    }
    case 'waiting':
      return `Next: step ${view.step}${DUE_AND_WAITS}${waitText(view.wait)}`;
    case 'held':
      return HELD;
    case 'paused':
      return `${PAUSED}: out of office until ${when(view.until).slice(0, 10)}`;
    case 'stopped':
      return `${STOPPED}: ${STOP_TEXTS[view.code](view.detail || '')}`;
    case 'finished':
      return `${FINISHED}: ${sentText(view.of, view.of, when(view.at)).toLowerCase()}`;
  }
}

/** What a Sequence cell shows, read back as far as its words tell (the views the add-on writes). */
export function parseSequence(text: string): SequenceView['kind'] | 'none' {
  const t = text.trim();
  if (!t) return 'none';
  if (t.startsWith(`${STOPPED}:`)) return 'stopped';
  if (t.startsWith(`${PAUSED}:`)) return 'paused';
  if (t.startsWith(`${FINISHED}:`)) return 'finished';
  if (t === HELD) return 'held';
  if (t.includes(DUE_AND_WAITS)) return 'waiting';
  return 'next';
}

function sentText(step: number, of: number, at: string): string {
  return `Step ${step} of ${of} sent ${at}`;
}

/** The confirmation's line: the most the whole sequence can cost, against the usable EDM. */
export function sequenceCostLine(rows: number, steps: number, usable: number): string {
  const most = rows * (1 + steps);
  const short =
    usable < most
      ? ` The usable e-mail credits cover ${formatCount(usable)}: a step that finds too few waits for more (its rows and the Tracking summary say so).`
      : '';
  return `Follow-ups: ${count(steps, 'step')} after this mail, each only to rows with no reply (their company included): the whole sequence costs at most ${count(most, 'e-mail credit')} (${count(rows, 'row')} × ${count(1 + steps, 'mail')}).${short}`;
}

/** The confirmation's lines on the steps: each one's subject and first line, and whom the sequence reaches. */
export function stepLines(followUps: FollowUp[], firstSubject: string, people: number): string[] {
  const lines = followUps.map((step, i) => {
    const subject = step.subject || `Re: ${firstSubject}`;
    const first = step.body.split('\n').find((line) => line.trim()) || '';
    const shown = first.length > 80 ? `${first.slice(0, 79)}…` : first;
    return `  Step ${i + 1}, ${count(step.afterDays, step.workingDaysOnly ? 'working day' : 'day')} later: "${subject}" — ${shown.trim()}`;
  });
  return [
    ...lines,
    `The sequence reaches ${count(people, 'person', 'people')} in all (this send and the earlier ones of this list).`,
  ];
}

/** What Compose says under the steps. */
export function sequenceNote(template: { followUps?: FollowUp[] } | null): string {
  const steps = (template && template.followUps) || [];
  if (steps.length === 0) return '';
  const when = steps
    .map((s, i) => `${i + 1}: ${count(s.afterDays, `${s.workingDaysOnly ? 'working ' : ''}day`)} later`)
    .join(', ');
  return `${count(steps.length, 'follow-up')} (${when}), sent by the hourly run to the rows that did not reply. Tick "Replied" on a row when its contact answers: nobody at that company gets a follow-up after that. Each follow-up costs 1 e-mail credit per row.`;
}

/** The Tracking summary's words for each running sequence: its sheet, the next step and when, rows left. */
export function sequenceSummary(
  records: Array<{
    sheetName: string;
    state?: { nextStep: number; nextAt: number; rowsLeft: number; wait?: Wait };
  }>,
  time: (ms: number) => string,
): string[] {
  return records.map(({ sheetName, state }) => {
    if (!state || !state.nextStep)
      return `Follow-ups of "${sheetName}": started; the hourly run sends each step when it is due.`;
    const rows = count(state.rowsLeft, 'row');
    if (state.wait)
      return `Follow-ups of "${sheetName}": step ${state.nextStep} is due and waits: ${waitText(state.wait)} (${rows} left).`;
    return `Follow-ups of "${sheetName}": next step ${state.nextStep} on ${time(state.nextAt)}, ${rows} left.`;
  });
}
