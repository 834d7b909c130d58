// The phone check as a job on the runner (job-runner.ts). A unit is up to CHUNK_SIZE distinct numbers that
// had no known result when the check was planned. work: claim them (a number another execution is
// checking right now is its to pay for: wait for its result) and check them; record: keep the results in
// the document's store (phone-results.ts), then write them next to their numbers. The store
// first, then the sheet: a cut-off in between never loses a paid result, and a redone unit pays for nothing
// twice (claim() skips numbers with a stored result).
// 1004 (no credits) and 1001/1003 (key) stop the run with what to do; cells of unchecked numbers stay blank
// (never stale). 1005: the client waits within the hourly budget; a wait that fits in this execution is
// waited out, a longer one pauses the job and tells the user when to go on.
import { ApiError, isForLater, type PhoneCheckManyResult } from '../../api';
import { phoneClient } from '../clients';
import { PhoneResults } from './phone-results';
import { JobDefinition, JobPause, JobState, JobStop, SliceContext } from '../jobs';
import { PhoneTarget } from './phone-plan';
import { openTarget, writeResults } from './phone-sheet';
import {
  errorCell,
  notCheckedText,
  pauseText,
  progressText,
  type ResultCell,
  RunCounts,
  summaryText,
} from './phone-texts';
import { dailyQuotaPause } from './phone-quota';
import { describe } from '../errors';
import { count, plural } from '../../platform';

export type PhoneUnit = string[];

export interface PhoneData extends PhoneTarget {
  /** Checks paid for by this job. */
  charged: number;
  /** Numbers this job got an answer for, errors included. */
  done: number;
  /** Numbers left out because the credits were short (their cells stay blank). */
  leftOut: number;
  /** Distinct numbers already known when the job started (free). */
  known?: number;
  /** Google's daily fetch limit paused it: the hourly trigger goes on with it (phone-quota.ts). */
  byTimer?: boolean;
}

type PhoneState = JobState<PhoneUnit, PhoneData>;

interface Checked {
  store: PhoneResults;
  /** The unit's numbers this execution claimed and sent, in the order of the outcome's indexes. */
  claimed: string[];
  outcome: PhoneCheckManyResult | null;
}

/** How much earlier than the hourly budget frees a trigger run may start (it waits the rest out). */
const TRIGGER_EARLY_MS = 5 * 60_000;

/** How long to wait before asking again for numbers another execution has claimed. */
const CLAIM_POLL_MS = 5000;

export const PHONE_JOB: JobDefinition<PhoneUnit, PhoneData, Checked> = {
  kind: 'phone',
  name: 'Phone check',
  title: 'Checking phone numbers',
  action: 'Check phone numbers in selection',
  service: 'phone',
  // One fetchAll round; the runner then goes by the longest unit it measured.
  unitMs: () => 5000,
  size: (unit) => unit.length,
  work: checkUnit,
  record: recordUnit,
  summary: (state, finished) => (finished ? summaryText(countsOf(state)) : progressText(countsOf(state))),
  markStopped: (state) => {
    const left = state.units.flat();
    if (left.length === 0) return '';
    writeResults(state.data, new Map(left.map((phone) => [phone, STOPPED])));
    return `${count(left.length, 'number')} ${plural(left.length, 'was', 'were')} not checked, nothing charged for them: their cells say "Stopped". Run the check again to check them.`;
  },
  workDone: (before, after) => {
    const checked = after.done - before.done;
    const charged = after.charged - before.charged;
    return checked ? `checked ${count(checked, 'number')} (${count(charged, 'credit')})` : '';
  },
};

const STOPPED: ResultCell = { kind: 'stopped' };

function checkUnit(unit: PhoneUnit, state: PhoneState, context: SliceContext): Checked {
  openTarget(state.data); // nothing is paid for numbers whose sheet is gone
  const store = PhoneResults.load();
  const claimed = store.claim(unit, unit.length);
  if (claimed.length === 0) {
    if (unit.some((phone) => !store.get(phone))) Utilities.sleep(CLAIM_POLL_MS);
    return { store, claimed, outcome: null };
  }
  try {
    const client = phoneClient({ deadlineMs: context.deadline.at });
    return { store, claimed, outcome: client.checkMany(claimed) };
  } catch (error) {
    store.save(); // releases the claims
    throw error;
  }
}

/** Stores and writes the unit's answers; the numbers still unanswered come back as the next unit. */
function recordUnit(
  unit: PhoneUnit,
  checked: Checked,
  state: PhoneState,
  context: SliceContext,
): PhoneUnit[] {
  const { store, claimed, outcome } = checked;
  const texts = new Map<string, ResultCell>();
  for (const result of outcome ? outcome.results : []) {
    const phone = claimed[result.index];
    state.data.done++;
    if (result.status === 'error') {
      texts.set(phone, errorCell(result.error));
      continue;
    }
    store.put(phone, result.status);
    texts.set(phone, { kind: 'answer', status: result.status });
    if (result.status !== 'invalid') state.data.charged++;
  }
  // Numbers another execution answered meanwhile (claim() read the store again).
  for (const phone of unit) {
    const known = !texts.has(phone) && store.get(phone);
    if (known) texts.set(phone, { kind: 'answer', status: known.status });
  }
  const notKept = keep(store);
  writeResults(state.data, texts);
  if (notKept) {
    throw new JobStop(
      `The results could not be kept in this document (${notKept}); the ones checked so far are in the sheet.`,
    );
  }
  const rest = unit.filter((phone) => !texts.has(phone));
  const stopped = outcome && outcome.stopped;
  if (stopped && stopped.kind === 'fetch-quota') {
    const others = state.units.filter((u) => u !== unit).flat();
    state.units = [rest, ...state.units.filter((u) => u !== unit)].filter((u) => u.length > 0);
    throw dailyQuotaPause(stopped, state.data, [...rest, ...others]);
  }
  if (stopped) afterStop(stopped, numbersLeft(state, unit, rest), context, !!state.data.byTimer);
  return rest.length > 0 ? [rest] : [];
}

/** Saves the store (which releases the claims); why it failed, or null. */
function keep(store: PhoneResults): string | null {
  try {
    store.save();
    return null;
  } catch (error) {
    return describe(error);
  }
}

/** What a stop of checkMany means; returns to go on (the next slice, or now after a wait that fits). */
function afterStop(stopped: ApiError, left: number, context: SliceContext, byTimer = false): void {
  const notChecked = notCheckedText(left);
  if (stopped.kind === 'funds') {
    throw new JobStop(['No phone-check credits left:', notChecked, stopped.action].filter(Boolean).join(' '));
  }
  if (!isForLater(stopped)) throw new JobStop(`${describe(stopped)} ${notChecked}`);
  if (context.deadline.passed(5000)) return; // out of time: the next slice goes on
  const wait = stopped.retryAfterMs && stopped.retryAfterMs > 0 ? stopped.retryAfterMs : 60_000;
  if (Date.now() + wait < context.deadline.at - 5000) {
    Utilities.sleep(wait);
    return;
  }
  // The hourly budget is used up: the progress dialog must not spin on it.
  const until = Date.now() + wait;
  // The hourly trigger may start a few minutes early: the rate budget waits out the rest within the run.
  throw new JobPause(pauseText(until, byTimer), byTimer ? until - TRIGGER_EARLY_MS : until);
}

/** Numbers of the job still without an answer: the rest of this unit and the units after it. */
function numbersLeft(state: PhoneState, unit: PhoneUnit, rest: PhoneUnit): number {
  return state.units.filter((u) => u !== unit).reduce((n, u) => n + u.length, rest.length);
}

function countsOf(state: PhoneState): RunCounts {
  const { done, charged, leftOut, known } = state.data;
  return { done, total: state.total, charged, leftOut, known: known || 0 };
}
