// Who gets a follow-up step, decided from the ledger (outbox/ledger.ts), never from a cell: a row is in
// the sequence when the payer confirmed it as it is now and its first mail went; it gets step N when step N-1
// went and its delay has passed (from the time the record kept), and it has not stopped. A stop seen once is
// kept in the record: a reply ticked on any list of the document (the company too: the same Company hash ID,
// else the same e-mail domain, public webmail excepted), the do-not-contact list, a stop asked from the menu.
// Unticking, deleting or clearing a cell afterwards restarts nothing. The service's own word on the previous
// mails (a failure it knows) is read by the run before anything is posted (sequence-previous.ts). An
// out-of-office answer the mailbox scan read (features/inbox) pauses a row: its next step waits until the
// return date the record keeps, then goes on.
import { type ListRow, isQueued, normalizeHeader } from '../../sheets';
import {
  personOf,
  type Ledger,
  type LedgerList,
  type Person,
  type StopCode,
  addressMark,
  listedReason,
  type DoNotContact,
  companyDomain,
  dueAt,
  type FollowUp,
  type SendClock,
} from '../outbox';
import type { SequenceView } from './sequence-texts';

/** Where a row is. A `due` row's previous mail is read from the service before its step goes. */
type RowPlan =
  /** Not in the sequence (yet: `pending`, its first mail is still queued for a send that goes on). */
  | { kind: 'out'; pending?: boolean }
  /** In the sequence, but its data changed since the payer confirmed it: nothing is sent. */
  | { kind: 'held'; person: Person }
  | { kind: 'stopped'; person: Person; code: StopCode | 'problem'; detail?: string; fresh?: boolean }
  | { kind: 'finished'; person: Person }
  /** `paused`: it waits for an out-of-office answer's return date (`at`), its step may be due before it. */
  | { kind: 'later'; person: Person; step: number; at: number; paused?: boolean }
  | { kind: 'due'; person: Person; step: number; at: number };

export type Due = { row: ListRow; plan: Extract<RowPlan, { kind: 'due' }> };
/** Each address of a list (its first row) with its row and its plan. */
export type Plans = Map<string, { row: ListRow; plan: RowPlan }>;

/** Who replied anywhere in the document, as the sheets show it now. */
export interface Replies {
  emails: Set<string>;
  /** Company key → who replied there. */
  companies: Map<string, { email: string }>;
}

export interface PlanContext {
  ledger: Ledger;
  list: LedgerList;
  now: number;
  zone: string;
  followUps: FollowUp[];
  doNotContact: DoNotContact;
  replies: Replies;
  /** Addresses whose follow-ups an editor stopped from the menu ('*': every one of the list). */
  stopRequests: Set<string>;
  /** The mail's send window, dates to skip (outbox/send-timing.ts): a step goes at the first open time. */
  clock?: SendClock;
  skipDates?: ReadonlySet<string>;
}

const HASH_ID = normalizeHeader('Company hash ID');
const COMPANY = normalizeHeader('Company');

/**
 * The row's company: its Company hash ID where the list has one (named by the row's own Company cell), else
 * its domain when that names one company (outbox/webmail.ts: not webmail, a provider, example.com or a
 * university). A company name alone matches nothing: two rows typed "Acme" may be two companies.
 */
export function companyOf(row: ListRow): { key: string; label: string } | null {
  const hashId = (row.display.get(HASH_ID) || '').trim();
  if (hashId)
    return { key: `id:${hashId}`, label: (row.display.get(COMPANY) || '').trim() || 'their company' };
  const domain = companyDomain(row.key);
  return domain ? { key: `domain:${domain}`, label: domain } : null;
}

/** Where one row is in the sequence (see the module's comment). */
export function planRow(row: ListRow, context: PlanContext): RowPlan {
  const { ledger, list } = context;
  const found = personOf(ledger, list, row);
  if (!found) return { kind: 'out' };
  const { person } = found;
  if (person.posted === 0) return isQueued(row.state) ? { kind: 'out', pending: true } : { kind: 'out' };
  if (person.stop) return { kind: 'stopped', person, code: person.stop, detail: answeredOn(person, context) };
  const stop = newStop(row, person, context);
  if (stop) return { kind: 'stopped', person, ...stop, fresh: true };
  if (person.posted > context.followUps.length) return { kind: 'finished', person };
  if (found.changed) return { kind: 'held', person };
  const step = person.posted; // the next step's number: the first mail and posted − 1 steps went
  const rule = context.followUps[step - 1];
  const base = dueAt(
    person.at || context.now,
    rule.afterDays,
    rule.workingDaysOnly,
    context.zone,
    context.skipDates,
  );
  const { clock, now } = context;
  const at = clock ? clock.openAt(clock.zoneOf(row), Math.max(base, now)) : base;
  const until = context.ledger.pausedUntil(person.addr, now);
  if (until && until >= at) return { kind: 'later', person, step, at: until, paused: true };
  return at > context.now ? { kind: 'later', person, step, at } : { kind: 'due', person, step, at };
}

/** The day a reply the mailbox scan read came ('2026-12-03'), for "Stopped: replied 2026-12-03"; else none. */
function answeredOn(person: Person, context: PlanContext): string | undefined {
  const answer = context.ledger.answers.get(person.addr);
  if (person.stop !== 'replied' || !answer || answer.code !== 'replied') return undefined;
  return Utilities.formatDate(new Date(answer.at), context.zone, 'yyyy-MM-dd');
}

/** A stop the sheets show now that the record does not hold yet. */
function newStop(
  row: ListRow,
  person: Person,
  context: PlanContext,
): { code: StopCode; detail?: string } | null {
  const everywhere = context.ledger.stops.get(person.addr);
  if (everywhere) return { code: everywhere };
  if (context.stopRequests.has(row.key) || context.stopRequests.has('*')) return { code: 'menu' };
  if (context.replies.emails.has(row.key)) return { code: 'replied' };
  const listed = listedReason(context.doNotContact, row.key);
  if (listed !== null) return { code: 'optedOut', detail: listed };
  const company = companyOf(row);
  if (company) {
    const colleague = context.replies.companies.get(company.key);
    // What matched, in the row's own words: its domain, or its company (same Company hash ID), and who replied.
    if (colleague)
      return { code: 'company', detail: `someone at ${company.label} replied (${colleague.email})` };
    if (context.ledger.companies.has(addressMark(context.ledger.secret, company.key)))
      return { code: 'company', detail: `someone at ${company.label} replied` };
  }
  return null;
}

/** The view a plan shows in the row's Sequence cell (a due row's is set by the run: it may wait). */
export function planView(plan: Exclude<RowPlan, { kind: 'out' | 'due' }>, of: number): SequenceView {
  switch (plan.kind) {
    case 'held':
      return { kind: 'held' };
    case 'stopped':
      return { kind: 'stopped', code: plan.code, detail: plan.detail };
    case 'finished':
      return { kind: 'finished', of, at: plan.person.at };
    case 'later':
      if (plan.paused) return { kind: 'paused', until: plan.at };
      return { kind: 'next', step: plan.step, of, at: plan.at, sentAt: plan.person.at };
  }
}

/** Takes the plans' fresh stops into the ledger: they last whatever the sheets say later. */
export function recordStops(
  ledger: Ledger,
  sheetId: number,
  stops: Array<{ addr: string; code: StopCode; company?: string }>,
): void {
  const list = ledger.list(sheetId);
  for (const { addr, code, company } of stops) {
    const person = list && list.people.get(addr);
    if (person && !person.stop) person.stop = code;
    if (code === 'replied' || code === 'optedOut') ledger.stopEverywhere(addr, code);
    if (company) ledger.companies.add(company);
  }
}
