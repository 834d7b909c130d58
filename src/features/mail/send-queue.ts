// Which queued rows a send's unit posts now: the first ones confirmed as they are now, still sendable, inside
// their recipient's send window (send-timing.ts) and within the list's hourly limit. The others are said on
// their rows: held (not as confirmed), skipped (the do-not-contact list grew), or waiting for their window or
// the limit, with when.
import {
  isQueued,
  type MailState,
  notSent,
  skipped as skippedState,
  type ListRow,
  type MailingList,
} from '../../sheets';
import {
  type Confirmed,
  type FirstVerdict,
  listedReason,
  listedStatus,
  readDoNotContact,
  type StoredTemplate,
  problemState,
  rowProblem,
  SEND_TEXTS,
  type SendClock,
  Ledger,
  addressMark,
  decideTest,
  subjectSlot,
  showTest,
} from '../outbox';
import { type OutreachClient } from '../../api';

export interface Queued {
  rows: ListRow[];
  skipped: Map<string, MailState>;
  unconfirmed: Map<string, MailState>;
  /** Confirmed rows outside their send window now: when it opens, in which zone. */
  waiting: Map<string, { at: number; zone: string }>;
  /** Confirmed rows inside their window that this unit did not take (`wanted` reached). */
  over: string[];
  /** Rows outside a running subject test's share: they wait for its winner (until when it is decided). */
  testWait: Map<string, number>;
  /** The subject of each row taken, in a subject test. */
  variants: Map<string, number>;
}

/** A row's subject in a subject test (subject-test.ts subjectSlot), or null when the mail has none. */
type SubjectGate = (row: ListRow) => { variant: number } | { waitUntil: number } | null;

/**
 * The first `wanted` queued rows of `listRows` (the list as read now) that can be sent now, checked again; the queued rows met on
 * the way that cannot (the do-not-contact list may have grown since the plan) with their "Skipped: …", those
 * not as the user confirmed them (added, changed, or "Queued" typed in) with theirs, and those outside their
 * send window with when it opens.
 */
export function queuedRows(
  list: MailingList,
  listRows: ListRow[],
  template: StoredTemplate,
  confirmed: Confirmed,
  wanted: number,
  unsubscribe: string,
  clock: SendClock,
  subjectOf: SubjectGate = () => null,
  now = Date.now(),
): Queued {
  const queued: Queued = {
    rows: [],
    skipped: new Map(),
    unconfirmed: new Map(),
    waiting: new Map(),
    over: [],
    testWait: new Map(),
    variants: new Map(),
  };
  const taken = new Set<string>();
  const doNotContact = readDoNotContact(list.sheet.getParent());
  for (const row of listRows) {
    if (!isQueued(row.state)) continue;
    // Every queued row of the sheet is this send's (one sender per sheet): one not confirmed says so now.
    const verdict = confirmed.verdict(row);
    if (verdict.kind !== 'send') {
      if (!taken.has(row.key)) queued.unconfirmed.set(row.key, heldState(verdict));
      continue;
    }
    const zone = clock.zoneOf(row);
    const at = clock.openAt(zone, now);
    if (at > now) {
      queued.waiting.set(row.key, { at, zone });
      continue;
    }
    const subject = subjectOf(row);
    if (subject && 'waitUntil' in subject) {
      queued.testWait.set(row.key, subject.waitUntil);
      continue;
    }
    if (queued.rows.length >= wanted) {
      queued.over.push(row.key);
      continue;
    }
    const problem = rowProblem(template, row, unsubscribe);
    const listed = listedReason(doNotContact, row.key);
    if (listed !== null) queued.skipped.set(row.key, listedStatus(listed));
    else if (problem) queued.skipped.set(row.key, problemState(problem));
    else if (taken.has(row.key)) queued.skipped.set(row.key, skippedState('duplicate', SEND_TEXTS.duplicate));
    else {
      queued.rows.push(row);
      taken.add(row.key);
      if (subject) queued.variants.set(row.key, subject.variant);
    }
  }
  return queued;
}

/** What a queued row that may not be sent says (the ledger decided). */
function heldState(verdict: Exclude<FirstVerdict, { kind: 'send' }>): MailState {
  switch (verdict.kind) {
    case 'changed':
      return notSent('changed', SEND_TEXTS.changed);
    case 'spent':
      return notSent('spent', SEND_TEXTS.spent);
    case 'stopped':
      return notSent('stopped-elsewhere', SEND_TEXTS.stoppedElsewhere);
    default:
      return notSent('not-confirmed', SEND_TEXTS.notConfirmed);
  }
}

/**
 * The subject gate of a send whose mail has a subject test: decided first when its hours have passed (read
 * once from the service), then each row's subject, or until when it waits. Null gate when there is no test.
 */
export function subjectGate(
  client: OutreachClient,
  list: MailingList,
  template: StoredTemplate,
): { gate: SubjectGate; texts?: string[] } {
  if (!template.subjectTest) return { gate: () => null };
  const sheetId = list.sheet.getSheetId();
  const test = decideTest(client, sheetId);
  if (test) showTest(list.sheet, template.subjectTest.variants, test);
  const secret = Ledger.read().secret;
  return {
    gate: (row) => subjectSlot(test, addressMark(secret, row.key)),
    texts: template.subjectTest.variants,
  };
}
