// The bounce guard (issue 46): per list, the share of its mails that failed, counted in the ledger
// (ledger.ts, the list's `guard`) from the mails Tracking reads anyway, each mail once (the final mail ids are
// kept as spans of consecutive ids, id-runs.ts: a few characters per chunk of 100, dropped with the list). Once at least
// GUARD_MIN_FINAL of its mails since the last resume are final and the failed share passes the threshold the payer
// confirmed (Compose, part of the mail's mark), the list is paused: nothing of it is posted (first mails, waiting
// or scheduled, continuations, steps) until the payer resumes it. The decision is the record's typed state; the
// document keeps a view of it (`guard.<sheet id>`) for the summary and the other editors, never read to decide.
import { addressKey } from '../../sheets';
import { userToken, sheetRecords } from '../../platform';
import { Ledger, type LedgerList } from './ledger';
import { addressMark } from './marks';
import type { GuardPause, GuardRecord, GuardTiming } from './guard-record';
import { pausedToday } from './daily-limit';
import { addToSpans, decodeSpans, encodeSpans, inSpans, type Span } from './id-runs';

/** The failed share (percent) above which a list pauses, unless its mail says otherwise. */
export const DEFAULT_BOUNCE_LIMIT = 5;
export const MAX_BOUNCE_LIMIT = 50;
/** Fewer final mails than this tell nothing of a list. */
export const GUARD_MIN_FINAL = 20;

/** A mail Tracking read that the service says is final (delivered or failed). */
interface FinalMail {
  mailId: number;
  email: string;
  failed: boolean;
  /** The list whose row shows it (a view: the record must know the person there). */
  sheetId?: number;
}

/** What the document shows of a list's guard (any editor's summary, and who may resume). */
interface GuardView {
  sheetId: number;
  owner: string;
  campaign: string;
  limit: number;
  failed: number;
  final: number;
  paused: boolean;
  at: number;
}

const views = sheetRecords<GuardView>('guard.', (v) => typeof v.sheetId === 'number');

/**
 * The threshold and daily limit a confirmation binds (the list's counts go on: a new send of a paused list stays
 * paused, and its day goes on).
 */
export function confirmGuard(list: LedgerList, timing: GuardTiming | undefined): void {
  const guard = list.guard || { limit: DEFAULT_BOUNCE_LIMIT, ids: '', final: 0, failed: 0 };
  guard.limit = (timing && timing.bounceLimit) || DEFAULT_BOUNCE_LIMIT;
  if (timing && timing.dailyLimit) {
    const daily = { limit: timing.dailyLimit, ramp: timing.dailyRamp || 0 };
    const same = guard.daily && guard.daily.limit === daily.limit && guard.daily.ramp === daily.ramp;
    if (!same) delete guard.day;
    guard.daily = daily;
  } else {
    delete guard.daily;
    delete guard.day;
  }
  list.guard = guard;
}

/** The list's pause, or null when it may send. */
export function guardPause(list: LedgerList | undefined): GuardPause | null {
  return (list && list.guard && list.guard.paused) || null;
}

/** "bounce rate 12 % (24 of 200)". */
export function pauseDetail(pause: Pick<GuardPause, 'failed' | 'final'>): string {
  const rate = pause.final ? Math.round((100 * pause.failed) / pause.final) : 0;
  return `bounce rate ${rate} % (${pause.failed} of ${pause.final})`;
}

/**
 * Counts the final mails of the payer's lists among those a refresh read, each once, and pauses the lists
 * past their threshold. Writes the record only when a mail was new to it.
 */
export function countFinalMails(mails: FinalMail[], campaignOf: (sheetId: number) => string): void {
  const read = Ledger.read();
  const known = spansOf();
  const found = mails.map((m) => ({ mail: m, addr: addressMark(read.secret, addressKey(m.email)) }));
  const fresh = found.filter(({ mail, addr }) => {
    const list = listOfMail(read, mail, addr);
    return !!list && !inSpans(known(list), mail.mailId);
  });
  if (fresh.length === 0) return;
  const counted = new Set<number>();
  Ledger.change((ledger) => {
    const spans = spansOf();
    for (const { mail, addr } of fresh) {
      const list = listOfMail(ledger, mail, addr);
      if (!list) continue;
      if (!list.guard) confirmGuard(list, undefined); // a list confirmed before the guard: the default
      const guard = list.guard!;
      if (!addToSpans(spans(list), mail.mailId)) continue;
      guard.final++;
      if (mail.failed) guard.failed++;
      counted.add(list.sheetId);
    }
    // Judged on everything this read counted; a paused list's counts follow what is known since.
    for (const sheetId of counted) {
      const list = ledger.list(sheetId)!;
      const guard = list.guard!;
      guard.ids = encodeSpans(spans(list));
      if (guard.paused) Object.assign(guard.paused, sinceResume(guard));
      else judge(guard);
    }
  });
  const now = Ledger.read();
  for (const sheetId of counted) {
    const list = now.list(sheetId)!;
    if (list.guard!.paused) saveView(list, campaignOf(sheetId));
  }
}

/** Each list's final mail ids, decoded once for the lists a read meets. */
function spansOf(): (list: LedgerList) => Span[] {
  const decoded = new Map<number, Span[]>();
  return (list) => {
    if (!decoded.has(list.sheetId)) decoded.set(list.sheetId, decodeSpans(list.guard?.ids || ''));
    return decoded.get(list.sheetId)!;
  };
}

/** The counts the guard judges (since the last resume). */
function sinceResume(guard: GuardRecord): { final: number; failed: number } {
  const [final, failed] = guard.base || [0, 0];
  return { final: guard.final - final, failed: guard.failed - failed };
}

/** Pauses the guard when its mails since the last resume are enough and fail above its threshold. */
function judge(guard: GuardRecord): void {
  const { final, failed } = sinceResume(guard);
  if (final < GUARD_MIN_FINAL || failed * 100 <= guard.limit * final) return;
  guard.paused = { at: Date.now(), failed, final };
  guard.told = false;
  pausedToday(guard);
}

/** The payer resumes the list: it sends again, judged from here on. */
export function resumeGuard(sheetId: number): void {
  Ledger.change((ledger) => {
    const guard = ledger.list(sheetId)?.guard;
    if (!guard) return;
    guard.base = [guard.final, guard.failed];
    delete guard.paused;
    delete guard.told;
  });
  views.remove(sheetId);
}

/** The lists of the payer paused and not yet said to them (each said once: marked told). */
export function untoldPauses(): Array<{ sheetId: number; pause: GuardPause }> {
  const untold = [...Ledger.read().lists.values()].filter((l) => l.guard?.paused && !l.guard.told);
  if (untold.length === 0) return [];
  Ledger.change((ledger) => {
    for (const { sheetId } of untold) {
      const guard = ledger.list(sheetId)?.guard;
      if (guard) guard.told = true;
    }
  });
  return untold.map((l) => ({ sheetId: l.sheetId, pause: l.guard!.paused! }));
}

/** The document's view of a list's guard, if a payer's run wrote one. */
export function guardView(sheetId: number): GuardView | null {
  return views.get(sheetId);
}

export function guardViews(): GuardView[] {
  return views.all();
}

/** The list left the ledger (its send is over): the document's view of its guard goes too. */
export function dropGuardView(sheetId: number): void {
  const view = views.get(sheetId);
  if (view && view.owner === userToken()) views.remove(sheetId);
}

function saveView(list: LedgerList, campaign: string): void {
  const guard = list.guard!;
  const pause = guard.paused;
  views.save(list.sheetId, {
    sheetId: list.sheetId,
    owner: userToken(),
    campaign,
    limit: guard.limit,
    failed: pause ? pause.failed : sinceResume(guard).failed,
    final: pause ? pause.final : sinceResume(guard).final,
    paused: !!pause,
    at: Date.now(),
  });
}

/**
 * The payer's list a final mail belongs to: the list whose row shows it, when the record has its person
 * posted there, else the one list of the record that mailed that person.
 */
function listOfMail(ledger: Ledger, mail: FinalMail, addr: string): LedgerList | undefined {
  const mailed = (list: LedgerList | undefined) => {
    const person = list && list.people.get(addr);
    return !!person && person.posted > 0;
  };
  const shown = mail.sheetId === undefined ? undefined : ledger.list(mail.sheetId);
  if (mailed(shown)) return shown;
  const lists = [...ledger.lists.values()].filter(mailed);
  return lists.length === 1 ? lists[0] : undefined;
}
