// Subject tests (issue 37): 2 to 4 subjects; a share of the list gets them in turn, the rest waits, and after
// the hours set the subject with the best open rate (a tie: the first) goes to the rest. Who is in the share
// and which subject they get follow from the address's mark in the ledger (marks.ts), so nothing
// grows with the list; the test's tasks per subject are kept in the list's record, a bounded number, and
// each task holds one subject (outbox.ts posts each subject's rows in chunks of their own). The open rates
// are the service's task counts (openedCount / sentCount), read once, when the test is decided.
import { type OutreachClient } from '../../api';
import { splitEvery, HOUR_MS } from '../../platform';
import { UserError } from '../errors';
import { Ledger, type LedgerList, type TestRecord } from './ledger';
import { decodeNumber } from './marks';

export interface SubjectTest {
  /** 2 to 4 subjects (placeholders allowed); the first is the template's own subject's place. */
  variants: string[];
  /** Percent of the list in the test (5 to 50). */
  share: number;
  decideAfterHours: number;
}

export const MAX_TASKS = 50;
const MAX_VARIANTS = 4;

/** The dialog's subject variants and test, checked (none: no test). */
export function parseSubjectTest(input: Record<string, unknown>): SubjectTest | undefined {
  const raw = input.subjectVariants;
  const variants = (Array.isArray(raw) ? raw : []).map((s) => String(s || '').trim()).filter(Boolean);
  if (variants.length === 0) return undefined;
  if (variants.length < 2 || variants.length > MAX_VARIANTS)
    throw new UserError(
      `A subject test has 2 to ${MAX_VARIANTS} subjects: add or remove one (or clear them all).`,
    );
  if (variants.some((s) => s.length > 1000)) throw new UserError('A test subject is too long.');
  const test = (input.subjectTest || {}) as Record<string, unknown>;
  const share = Number(test.share ?? 20);
  const hours = Number(test.decideAfterHours ?? 4);
  if (!Number.isInteger(share) || share < 5 || share > 50)
    throw new UserError('The share of the list in the subject test is a whole percent from 5 to 50.');
  if (!Number.isInteger(hours) || hours < 1 || hours > 72)
    throw new UserError('The subject test is decided after a whole number of hours from 1 to 72.');
  return { variants, share, decideAfterHours: hours };
}

/** A person's place in the test: in its share or not, and which subject; from the address's mark. */
export function testSlot(addr: string, share: number, n: number): { inTest: boolean; variant: number } {
  return {
    inTest: decodeNumber(addr.slice(0, 4)) % 100 < share,
    variant: decodeNumber(addr.slice(4, 8)) % n,
  };
}

/** The record a confirmation starts (or keeps, when the subjects are those it was started with). */
export function testRecord(test: SubjectTest): TestRecord {
  const n = test.variants.length;
  return {
    share: test.share,
    n,
    hours: test.decideAfterHours,
    tasks: Array.from({ length: n }, () => []),
    firstAt: 0,
  };
}

/**
 * The payer changed the test in Compose: what it found so far is kept (its start, its tasks per subject, a
 * winner that still exists), sized to the subjects as they are now.
 */
export function keptTest(earlier: TestRecord | undefined, test: SubjectTest): TestRecord {
  const fresh = testRecord(test);
  if (!earlier) return fresh;
  const tasks = fresh.tasks.map((_, v) => earlier.tasks[v] || []);
  const winner = earlier.winner !== undefined && earlier.winner < fresh.n ? earlier.winner : undefined;
  return {
    ...fresh,
    tasks,
    firstAt: earlier.firstAt,
    ...(winner !== undefined ? { winner, counts: earlier.counts } : {}),
  };
}

/** A test whose subjects nobody opened in its hours waits this much longer for an open, then keeps the first. */
const OPENS_WAIT_MS = 24 * HOUR_MS;

/** When the test is decided (ms): its hours after its first mails; Infinity before they went. */
export function decideAt(record: TestRecord): number {
  return record.firstAt ? record.firstAt + record.hours * HOUR_MS : Infinity;
}

/** A posted chunk's tasks are taken into the test while it runs (its subject is its first recipient's). */
export function recordTestChunk(list: LedgerList, addr: string, taskIds: number[], postedAt: number): void {
  const test = list.test;
  if (!test || test.winner !== undefined) return;
  const slot = testSlot(addr, test.share, test.n);
  if (!slot.inTest) return;
  const tasks = test.tasks[slot.variant];
  for (const id of taskIds) if (tasks.length < MAX_TASKS && !tasks.includes(id)) tasks.push(id);
  if (!test.firstAt || postedAt < test.firstAt) test.firstAt = postedAt;
}

/**
 * The test is decided once its hours have passed: each subject's sent and opened counts read from its tasks,
 * the best open rate wins (a tie: the first); while no subject was opened at all it waits, up to OPENS_WAIT_MS
 * more, and then the first subject (the mail's own place) goes, for want of a better one. Kept in the ledger, so the rest get the winner exactly
 * once whatever runs after. Answers the record as it stands.
 */
export function decideTest(
  client: OutreachClient,
  sheetId: number,
  now = Date.now(),
): TestRecord | undefined {
  const test = Ledger.read().list(sheetId)?.test;
  if (!test || test.winner !== undefined || now < decideAt(test)) return test;
  const counts: Array<[number, number]> = test.tasks.map(() => [0, 0]);
  const variantOf = new Map<number, number>();
  test.tasks.forEach((ids, v) => ids.forEach((id) => variantOf.set(id, v)));
  const queries = splitEvery([...variantOf.keys()], 100).map((ids) => ({ task_ids: ids, page_size: 100 }));
  let pages;
  try {
    pages = client.listTasksAll(queries);
  } catch {
    return test; // not read now (the service, Google's daily limit): the rest wait, the next run tries again
  }
  for (const page of pages)
    for (const task of page.data) {
      const v = variantOf.get(task.taskId);
      if (v === undefined) continue;
      counts[v][0] += task.sentCount;
      counts[v][1] += task.openedCount;
    }
  // No winner without evidence: with no open at all, the rest wait (up to OPENS_WAIT_MS), then get the first.
  if (counts.every(([, opened]) => opened === 0) && now < decideAt(test) + OPENS_WAIT_MS) return test;
  const rate = ([sent, opened]: [number, number]) => (sent ? opened / sent : 0);
  let winner = 0;
  counts.forEach((c, v) => {
    if (rate(c) > rate(counts[winner])) winner = v;
  });
  const saved = Ledger.change((ledger) => {
    const record = ledger.list(sheetId)?.test;
    if (record && record.winner === undefined) Object.assign(record, { winner, counts });
  });
  return saved.list(sheetId)?.test;
}

/**
 * The subject a row gets, or until when it waits: the test's share always its own (so a step knows what each
 * person got from the mark alone), the rest the winner's once decided.
 */
export function subjectSlot(
  test: TestRecord | undefined,
  addr: string,
  now = Date.now(),
): { variant: number } | { waitUntil: number } | null {
  if (!test) return null;
  const slot = testSlot(addr, test.share, test.n);
  if (slot.inTest) return { variant: slot.variant };
  if (test.winner !== undefined) return { variant: test.winner };
  // Past its time and undecided: it waits for an open, looked at again in the next hour.
  return { waitUntil: Math.max(decideAt(test), now + HOUR_MS) };
}
