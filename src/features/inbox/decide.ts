// From verdicts to decisions: each answer is matched to the people of the ledger by its address's
// mark (never a cell): a reply, removal request or automatic answer counts for its sender on every list that
// mailed them before it came (read late, after a later step went, it still stops what is left), a bounce for
// the one list whose mail to that address it came after (the latest such mail). A decision names the lists
// whose rows it concerns; acting on them is inbox-apply.ts (the sheets) and `record` (the ledger).
import { type Ledger, addressMark } from '../outbox';
import { recordStops } from '../sequence';
import { DAY_MS } from '../../platform';
import { classify, type InboxMessage, type Verdict } from './classify';

/** People mailed this long ago are still scanned for answers, sequence or not. */
export const SCAN_DAYS = 30;

type Decided = Exclude<Verdict, { code: 'ignore' }>;

export interface Decision {
  verdict: Decided;
  /** The address's mark in the ledger. */
  addr: string;
  /** When the answer came (ms). */
  at: number;
  /** The lists (sheet ids) whose person it is. */
  sheetIds: number[];
  /** The company of a reply ('id:…' or 'domain:…', filled by inbox-apply.ts from the row). */
  companyKey?: string;
}

/**
 * People the sheets say this document mailed in the last SCAN_DAYS (Mail ID and Sent at on a list) whom the
 * ledger no longer holds (a send that ended): address mark → the address, its last mail, and each
 * list's first mail to it (its Sent at).
 */
export type RecentMail = Map<string, { email: string; at: number; first: Map<number, number> }>;

/** The marks of the people a scan looks for: mailed in the last SCAN_DAYS, or in a running sequence. */
export function scanTargets(ledger: Ledger, now = Date.now(), recent: RecentMail = new Map()): Set<string> {
  const marks = new Set<string>(recent.keys());
  for (const list of ledger.lists.values())
    for (const p of list.people.values())
      if (p.posted > 0 && (now - p.at <= SCAN_DAYS * DAY_MS || (list.steps > 0 && !p.stop)))
        marks.add(p.addr);
  return marks;
}

/** The decisions the messages make, oldest first; an answer from nobody the document mailed makes none. */
export function decide(ledger: Ledger, messages: InboxMessage[], recent: RecentMail = new Map()): Decision[] {
  const decisions: Decision[] = [];
  for (const message of [...messages].sort((a, b) => a.at - b.at)) {
    const verdict = classify(message);
    if (verdict.code === 'ignore') continue;
    const addr = addressMark(ledger.secret, verdict.address);
    const mailed = mailsBefore(ledger, addr, message.at, recent);
    if (verdict.code === 'bounce') mailed.splice(0, mailed.length - 1); // the latest mail it came after
    const sheetIds = mailed.map((m) => m.sheetId);
    if (sheetIds.length) decisions.push({ verdict, addr, at: message.at, sheetIds });
  }
  return decisions;
}

/**
 * The lists that mailed an address before `at`, by the time of their latest mail to it, oldest first: a list
 * whose first mail to it went before then (its one mail, or the Sent at its row shows; a person of several
 * mails whose row shows none counts: what came after a later mail is the answer to it).
 */
function mailsBefore(
  ledger: Ledger,
  addr: string,
  at: number,
  recent: RecentMail,
): Array<{ sheetId: number; at: number }> {
  const shown = recent.get(addr)?.first || new Map<number, number>();
  const found = new Map<number, number>();
  for (const list of ledger.lists.values()) {
    const person = list.people.get(addr);
    if (!person || person.posted === 0) continue;
    const first = person.posted === 1 ? person.at : shown.get(list.sheetId) || 0;
    if (first <= at) found.set(list.sheetId, person.at <= at ? person.at : first);
  }
  for (const [id, first] of shown) if (!found.has(id) && first <= at) found.set(id, first);
  return [...found].map(([sheetId, time]) => ({ sheetId, at: time })).sort((a, b) => a.at - b.at);
}

/** Takes the decisions into the ledger (on a fresh read: Ledger.change), with how far it read. */
export function record(ledger: Ledger, decisions: Decision[], through: number): void {
  for (const d of decisions) {
    const { verdict, at } = d;
    // Marked again with the record's own key: a document with no record yet gets its key in this change.
    const addr = addressMark(ledger.secret, verdict.address);
    const company = d.companyKey && addressMark(ledger.secret, d.companyKey);
    for (const sheetId of d.sheetIds) {
      if (verdict.code === 'reply') recordStops(ledger, sheetId, [{ addr, code: 'replied', company }]);
      else if (verdict.code === 'unsubscribe') recordStops(ledger, sheetId, [{ addr, code: 'optedOut' }]);
      else if (verdict.code === 'bounce') recordStops(ledger, sheetId, [{ addr, code: 'failed' }]);
    }
    if (verdict.code === 'outOfOffice') ledger.pause(addr, verdict.until);
    else ledger.paused.delete(addr); // a person who answers is back
    ledger.answer(addr, ANSWER_OF[verdict.code], at);
  }
  ledger.inboxAfter = Math.max(ledger.inboxAfter, through);
}

const ANSWER_OF = {
  reply: 'replied',
  outOfOffice: 'outOfOffice',
  unsubscribe: 'optedOut',
  bounce: 'bounced',
} as const;
