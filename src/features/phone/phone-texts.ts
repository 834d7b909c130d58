// What the phone check tells the user: the cost confirmation, progress, the final summary and why a run
// stopped or paused. Every text names what the user can do next.
import { whenText } from '../words';
import { type ApiError, FETCH_CALLS_PER_DAY, FETCH_CALLS_PER_DAY_WORKSPACE } from '../../api';
import { PhoneStatus, RECHECK_AFTER_DAYS } from './phone-results';
import { columnName } from '../../sheets';
import { count, formatCount } from '../../platform';

/** Header of a results column; a column with this header right of the numbers is reused. */
export const RESULT_HEADER = 'Phone check';

/** What a results cell holds: the code its text is made from and read back as (parseResultCell). */
export type ResultCell =
  | { kind: 'answer'; status: PhoneStatus }
  /** A number the add-on refused itself (free): why. */
  | { kind: 'refused'; reason: string }
  /** A check that failed after the client's retries (costs nothing; a later run checks it again). */
  | { kind: 'error'; detail: string }
  /** Waits for Google's daily limit of calls (phone-quota.ts). */
  | { kind: 'waiting' }
  /** Left unchecked by Stop: the next check of the selection checks it. */
  | { kind: 'stopped' };

/** The words of results cells and of =PHONE_CHECK's answers. */
export const PHONE_TEXTS = {
  registered: 'registered',
  'not-registered': 'not registered',
  invalid: 'invalid number',
  error: 'error',
  checkFailed: 'the check failed',
  waiting: "Waiting: Google's daily limit of calls is used up; checked when it is back (nothing charged yet)",
  stopped: 'Stopped: not checked, nothing charged',
  notCheckedYet: 'not checked yet — recalculate',
  /** Formulas run with the spreadsheet owner's user properties, whoever edits the sheet. */
  noKey:
    "No phone-check API key for formulas: they use the spreadsheet owner's key. The owner adds it in Extensions › Outreach › Settings; editors can check their selection from the menu with their own key.",
  notAllowed:
    "not checked: formulas here may not spend the owner's phone-check credits. The owner can allow it in Extensions › Outreach › Settings, or check the selection from the menu.",
  noInput: 'Give a phone number or a range, e.g. =PHONE_CHECK(A2) or =PHONE_CHECK(A2:A200).',
  noCredits: 'no phone-check credits left: add credits, then recalculate',
  keyRefused: 'the phone-check API key was refused: check it in Extensions › Outreach › Settings',
};

const ANSWERS: PhoneStatus[] = ['registered', 'not-registered', 'invalid'];

/** A results cell's text. */
export function resultText(cell: ResultCell): string {
  switch (cell.kind) {
    case 'answer':
      return PHONE_TEXTS[cell.status];
    case 'refused':
      return `${PHONE_TEXTS.invalid}: ${cell.reason}`;
    case 'error':
      return `${PHONE_TEXTS.error}: ${cell.detail}`;
    default:
      return PHONE_TEXTS[cell.kind];
  }
}

/**
 * What a results cell says, read back (resuming a check, and telling the add-on's cells from others); null
 * for a text the check does not write. With resultText, the only code that reads these words.
 */
export function parseResultCell(value: unknown): ResultCell | null {
  if (typeof value !== 'string') return null;
  const status = ANSWERS.find((s) => PHONE_TEXTS[s] === value);
  if (status) return { kind: 'answer', status };
  if (value === PHONE_TEXTS.waiting) return { kind: 'waiting' };
  if (value === PHONE_TEXTS.stopped) return { kind: 'stopped' };
  const after = (word: string) => (value.startsWith(`${word}: `) ? value.slice(word.length + 2) : null);
  const reason = after(PHONE_TEXTS.invalid);
  if (reason !== null) return { kind: 'refused', reason };
  const detail = after(PHONE_TEXTS.error);
  return detail === null ? null : { kind: 'error', detail };
}

/** A check that failed after the client's retries, as a results cell or a formula says it. */
export function errorCell(error: ApiError | undefined): ResultCell {
  return { kind: 'error', detail: error ? error.userMessage : PHONE_TEXTS.checkFailed };
}

/** What a check of the selection costs, as the confirmation states it. */
interface CostFacts {
  cells: number;
  distinct: number;
  invalidCells: number;
  /** Numbers answered from earlier checks (free). */
  known: number;
  /** Numbers to check (1 credit each). */
  checks: number;
  credits: number;
  resuming: boolean;
  /** "Sheet1!A2:A50": an unfinished check of another selection that this one replaces. */
  dropped: string | null;
}

/** A question for the user: its title and text. */
interface Question {
  title: string;
  text: string;
}

/** The confirmation: `limit` is how many numbers it offers to check (0: none, no question but an OK). */
export function costQuestion(facts: CostFacts): Question & { limit: number } {
  const lines = [
    `${count(facts.cells, 'cell')} with ${count(facts.distinct, 'distinct number')}` +
      (facts.invalidCells > 0 ? ` (${count(facts.invalidCells, 'cell')} not valid: not checked).` : '.'),
    `${formatCount(facts.known)} already known from earlier checks (free).`,
    `${count(facts.checks, 'check')} needed: ${count(facts.checks, 'credit')} (1 per check).`,
    `Credits left: ${formatCount(facts.credits)}.`,
  ];
  const daily = dailyQuotaWarning(facts.checks);
  if (daily) lines.push(daily);
  if (facts.resuming) lines.unshift('Resuming the unfinished check of this selection.');
  else if (facts.dropped)
    lines.push(`(An unfinished check of ${facts.dropped} is dropped; its results are kept.)`);
  const text = lines.join('\n');
  if (facts.credits <= 0) {
    return {
      title: 'No phone-check credits',
      text: `${text}\n\nAdd credits to the phone-check account, then run the check again.`,
      limit: 0,
    };
  }
  if (facts.credits < facts.checks) {
    return {
      title: 'Not enough credits',
      text: `${text}\n\nNot enough credits: check the first ${count(facts.credits, 'number')} now (the others stay blank)?`,
      limit: facts.credits,
    };
  }
  return {
    title: 'Check phone numbers',
    text: `${text}\n\nCheck ${count(facts.checks, 'number')} now?`,
    limit: facts.checks,
  };
}

export function insertQuestion(columns: number[]): Question {
  const names = columns.map((c) => columnName(c + 1)).join(', ');
  return {
    title: 'Insert a results column?',
    text:
      `Column ${names} next to the phone numbers holds other data.\n\n` +
      `Insert a new "${RESULT_HEADER}" column for the results? Nothing is overwritten.`,
  };
}

/** Counts of a run, as the job keeps them. */
export interface RunCounts {
  /** Numbers this run has an answer for (errors included). */
  done: number;
  /** Numbers the run set out to check. */
  total: number;
  /** Checks paid for. */
  charged: number;
  /** Numbers left out because the credits were short. */
  leftOut: number;
  /** Distinct numbers already known when the run started (free). */
  known: number;
}

export function progressText(counts: RunCounts): string {
  return `Checked ${formatCount(counts.done)} of ${count(counts.total, 'number')}…`;
}

export function summaryText(counts: RunCounts): string {
  if (counts.total === 0 && counts.known > 0) {
    const all = counts.known === 1 ? 'The number was' : `All ${count(counts.known, 'number')} were`;
    return `${all} already checked (no credits used).`;
  }
  const text = `${formatCount(counts.done)} of ${count(counts.total, 'number')} checked (${count(counts.charged, 'credit')} used; results are kept for ${RECHECK_AFTER_DAYS} days).`;
  if (counts.leftOut === 0) return text;
  return `${text} ${count(counts.leftOut, 'number')} not checked: the credits were used up (add credits and run the check again).`;
}

/** Why a run stopped before checking `left` numbers (their cells are left blank). */
export function notCheckedText(left: number): string {
  return `${count(left, 'number')} not checked (their cells are blank).`;
}

export function pauseText(until: number, byTimer = false): string {
  const at = whenText(until);
  const limit = `The phone-check service's limit of ${formatCount(1000)} checks per hour is reached: `;
  if (byTimer)
    return `${limit}the check goes on by itself after ${at} (the add-on's hourly run; nothing is checked twice).`;
  return (
    limit +
    `run "Check phone numbers in selection" again on the same cells after ${at} to check the rest (nothing is checked twice).`
  );
}

export function movedText(source: number): string {
  return `The "${RESULT_HEADER}" column right of column ${columnName(source)} has moved: select the numbers and run the check again (checked numbers are not paid twice).`;
}

export function sheetGoneText(name: string): string {
  return `The sheet "${name}" is gone: select the numbers and run the check again.`;
}

/** A confirmation's warning when the checks need more calls than Google allows in a day; "" otherwise. */
function dailyQuotaWarning(checks: number): string {
  if (checks <= FETCH_CALLS_PER_DAY) return '';
  return (
    `Each number is one call, and Google allows ${formatCount(FETCH_CALLS_PER_DAY)} calls a day ` +
    `(${formatCount(FETCH_CALLS_PER_DAY_WORKSPACE)} with Google Workspace, shared with your other scripts): ` +
    "the check pauses when the day's calls are used up and goes on by itself when they are back."
  );
}
