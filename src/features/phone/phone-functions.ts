// =PHONE_CHECK(range) and =PHONE_CREDITS(). Sheets recalculates formulas on edits, copies and re-opens, so a
// number is answered from the document's result store (phone-results.ts, shared with the menu action) once
// it has been checked: a recalculation never pays twice. Custom functions get 30 s, no UI and no set* calls;
// they run with the spreadsheet owner's user properties (their phone-check key), which is never shown, so
// a number nobody checked yet is paid for only where the owner allowed formulas to spend (Settings).
//
// Answers per cell: TRUE (registered), FALSE (not registered), '' for a blank cell, or a text:
//   'invalid number: <why>' / 'invalid number' (the service's 1002), 'not checked yet — recalculate'
//   (out of time; the next recalculation goes on), 'error: <what happened>', or what to do when the key is
//   missing or refused or the credits are used up.
import {
  ApiError,
  isForLater,
  normalizePhone,
  type PhoneCheckManyResult,
  type PhoneCheckResult,
  type PhoneNormalization,
} from '../../api';
import { phoneClient } from '../clients';
import { CUSTOM_FUNCTION_LIMIT_MS, Deadline, readSettings } from '../../platform';
import { formulasMaySpend } from './formula-spending';
import { PhoneResults } from './phone-results';
import { errorCell, PHONE_TEXTS, resultText } from './phone-texts';

const NOT_CHECKED_YET = PHONE_TEXTS.notCheckedYet;
/**
 * Numbers of the first round and of later ones (each one fetchAll batch when the rate budget allows).
 * The first round is half a full one: its answers must come back well inside the 30 s, before anything
 * tells how fast the service answers today; a later round starts only when one as long as the last ends
 * before the deadline. Answers are stored as each batch arrives.
 */
const FIRST_ROUND = 50;
const ROUND = 100;

type Answer = boolean | string;
/** [row, column] of a cell in the range. */
type Cell = [number, number];
type Fill = (phones: Iterable<string>, answer: Answer) => void;

export function phoneCheckFunction(phones: unknown): Answer | Answer[][] {
  if (phones === undefined || phones === null) return PHONE_TEXTS.noInput;
  const single = !Array.isArray(phones);
  const grid: unknown[][] = single
    ? [[phones]]
    : (phones as unknown[]).map((row) => (Array.isArray(row) ? row : [row]));
  const out: Answer[][] = grid.map((row) => row.map(() => ''));
  const store = PhoneResults.load();
  const waiting = answerKnown(grid, out, store);
  if (waiting.size > 0) checkWaiting(waiting, out, store);
  return single ? out[0][0] : out;
}

/** Answers blank, invalid and known cells; returns the cells of each number that waits for a check. */
function answerKnown(grid: unknown[][], out: Answer[][], store: PhoneResults): Map<string, Cell[]> {
  const waiting = new Map<string, Cell[]>();
  grid.forEach((row, r) =>
    row.forEach((value, c) => {
      const normalized = cellPhone(value);
      if (!normalized) return;
      if (!normalized.ok) {
        out[r][c] = resultText({ kind: 'refused', reason: normalized.reason });
        return;
      }
      const known = store.get(normalized.phone);
      if (known) {
        out[r][c] = answerOf(known.status);
        return;
      }
      const cells = waiting.get(normalized.phone);
      if (cells) cells.push([r, c]);
      else waiting.set(normalized.phone, [[r, c]]);
    }),
  );
  return waiting;
}

/** Checks the waiting numbers until all are answered or time is up, and fills their cells. */
function checkWaiting(waiting: Map<string, Cell[]>, out: Answer[][], store: PhoneResults): void {
  const fill: Fill = (phones, answer) => {
    for (const phone of phones) for (const [r, c] of waiting.get(phone) || []) out[r][c] = answer;
  };
  let left = [...waiting.keys()];
  fill(left, NOT_CHECKED_YET);
  const settings = readSettings();
  if (!settings.phoneApiKey) return fill(left, PHONE_TEXTS.noKey);
  // A check costs the owner's credits: only where the owner allowed formulas in this document to spend.
  if (!formulasMaySpend()) return fill(left, PHONE_TEXTS.notAllowed);
  const deadline = Deadline.forCustomFunction();
  const client = phoneClient({ deadlineMs: deadline.at }, settings);
  // A round is started only when one as long as the last one ends in time: Sheets stops the execution at
  // 30 s, and a round cut off there would be paid for without its results being kept.
  let roundMs = 1000;
  let size = FIRST_ROUND;
  while (left.length > 0 && !deadline.passed(roundMs)) {
    // Claimed numbers are this execution's to pay for; the others are known by now (another cell or the
    // menu action checked them) or being checked by another execution: wait for its result.
    const round = store.claim(left, size, CUSTOM_FUNCTION_LIMIT_MS);
    const claimed = new Set(round);
    left = left.filter((phone) => {
      const known = store.get(phone);
      if (known) fill([phone], answerOf(known.status));
      return !known && !claimed.has(phone);
    });
    if (round.length === 0) {
      if (left.length > 0) Utilities.sleep(1000);
      continue;
    }
    let outcome: PhoneCheckManyResult;
    const started = Date.now();
    try {
      outcome = client.checkMany(round, (results) => keepBatch(round, results, store, fill));
      roundMs = Math.max(1000, Date.now() - started);
      size = ROUND;
    } catch (error) {
      store.save(); // releases the claims
      return fill([...round, ...left], stopText(error));
    }
    store.save(); // releases the round's claims
    // A rate limit (out of time or out of the hourly budget) leaves them 'not checked yet'.
    if (outcome.stopped) {
      return fill([...outcome.unchecked.map((i) => round[i]), ...left], stopText(outcome.stopped));
    }
  }
}

/**
 * Stores and answers one batch of a round as it arrives (claims kept for the rest of the round): a
 * cut-off at 30 s never loses a paid result.
 */
function keepBatch(round: string[], results: PhoneCheckResult[], store: PhoneResults, fill: Fill): void {
  for (const result of results) {
    const phone = round[result.index];
    if (result.status === 'error') fill([phone], resultText(errorCell(result.error)));
    else {
      store.put(phone, result.status);
      fill([phone], answerOf(result.status));
    }
  }
  store.save(Date.now(), { keepClaims: true });
}

/** A cell's phone number: null for a blank cell, else the normalised number or why it is not one. */
export function cellPhone(value: unknown): PhoneNormalization | null {
  if (value === '' || value === null || value === undefined) return null;
  if (typeof value === 'string' && value.trim() === '') return null;
  if (value instanceof Date) return { ok: false, reason: 'a date, not a phone number' };
  if (typeof value === 'boolean') return { ok: false, reason: 'TRUE/FALSE, not a phone number' };
  // "+44 (0)20 7946 0000": the (0) is the national trunk prefix, never dialled after the country code.
  return normalizePhone(
    typeof value === 'string' ? value.replace(/^(\s*(\+|00)[\s-]*\d{1,3}[\s-]*)\(0\)/, '$1') : value,
  );
}

export function phoneCreditsFunction(): number | string {
  const settings = readSettings();
  if (!settings.phoneApiKey) return PHONE_TEXTS.noKey;
  try {
    return phoneClient({ deadlineMs: Deadline.forCustomFunction().at }, settings).credits();
  } catch (error) {
    return stopText(error);
  }
}

function answerOf(status: 'registered' | 'not-registered' | 'invalid'): Answer {
  return status === 'registered' ? true : status === 'not-registered' ? false : PHONE_TEXTS.invalid;
}

/** A failure that concerns every number still unchecked. */
function stopText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.kind === 'missing-key') return PHONE_TEXTS.noKey;
    if (error.kind === 'funds') return PHONE_TEXTS.noCredits;
    if (error.kind === 'auth') return PHONE_TEXTS.keyRefused;
    if (isForLater(error)) return NOT_CHECKED_YET;
    return resultText(errorCell(error));
  }
  return resultText({ kind: 'error', detail: error instanceof Error ? error.message : String(error) });
}
