// The outbox's record: what the paying user confirmed and what their runs posted, kept in their own user
// properties (platform/outbox-store.ts), one value per document. It decides who is mailed; every sheet is a
// view. Per list (a sheet they sent from): the mark of the mail confirmed (first mail and steps), the columns
// bound into each row's mark, and one 26-character record per person: the address's mark, the row's content
// mark, how many of its mails were posted, why it stopped, which confirmation added it, and when its last
// mail went. Per document: the addresses that stopped everywhere (replied, opted out) and the companies that
// replied. It holds people of running sends and sequences only (a list leaves when nothing is left to send),
// so it never grows with what was ever sent; what does not fit is refused before anything is sent. What the
// mailbox scan decided (features/inbox) is kept beside it, bounded, without a word of any message: the
// addresses paused by an out-of-office answer and until when, each answered address's latest verdict and its
// time, how far the mailbox was read, and how far the mail of the people whose steps were due was read
// (optional fields: records written before them read as empty). Per document, bounded in time and size: who got
// each campaign's first mail (mailed.ts) and the ids of the mails posted (posted-mails.ts), for 90 days.
import { changeOutbox, readOutbox, roomLeft } from './outbox-store';
import { DAY_MS, HOUR_MS } from '../../platform';
import { ADDRESS_CHARS, addressMark, CONTENT_CHARS, decodeNumber, DIGITS, encodeNumber } from './marks';
import {
  addFingerprint,
  codedChars,
  codedMailed,
  COMPACT_SPARE_BITS,
  compactBits,
  cutMailed,
  EXACT_BITS,
  fingerprint,
  type MailedSet,
  newMailedSet,
  readMailed,
  type StoredMailed,
} from './mailed';
import { decodePosted, encodePosted, type PostedPairs, type StoredPostedDay } from './posted-mails';
import type { GuardRecord } from './guard-record';

/** Why a person gets no more steps (or, for `firstOnly`, none at all: a first mail only). */
export type StopCode =
  'replied' | 'company' | 'optedOut' | 'menu' | 'failed' | 'opened' | 'gaveUp' | 'firstOnly';
const STOPS: Array<StopCode | ''> = [
  '',
  'replied',
  'company',
  'optedOut',
  'menu',
  'failed',
  'opened',
  'gaveUp',
  'firstOnly',
];
/** Posted counts per state character: the first mail and up to 5 steps, 0 to 6. */
const POSTED_VALUES = 7;

export interface Person {
  addr: string;
  content: string;
  /** 0: nothing posted yet; n: the first mail and n − 1 steps posted. */
  posted: number;
  stop: StopCode | '';
  /** The confirmation that added it (LedgerList.serial when it was made). */
  serial: number;
  /** When its last mail was posted (ms), 0 when none. */
  at: number;
}

export interface LedgerList {
  sheetId: number;
  keyFp: string;
  /** Mark of the mail confirmed (marks.ts mailMark). */
  mail: string;
  steps: number;
  /** The columns bound into each row's content mark. */
  fields: string[];
  /** The latest confirmation's number (0 to 63, then again). */
  serial: number;
  people: Map<string, Person>;
  /** Last change (ms). */
  at: number;
  /** The list's subject test, when its mail has one (subject-test.ts). */
  test?: TestRecord;
  /** Mark of the campaign confirmed (Ledger.campaignMark): whom its first mail went to is kept per campaign. */
  campaign?: string;
  /** People the payer chose to send this first mail again although they got it (address marks). */
  again?: string;
  /** Its bounce guard: the final mails counted, the threshold confirmed, a pause (bounce-guard.ts). */
  guard?: GuardRecord;
}

/** What the list's record keeps of its subject test (subject-test.ts). */
export interface TestRecord {
  share: number;
  n: number;
  hours: number;
  /** Task ids per subject (at most MAX_TASKS each): the open rates are read from them. */
  tasks: number[][];
  /** When the test's first mails went (ms), 0 before. */
  firstAt: number;
  /** The winning subject's index, once decided; with each subject's [sent, opened]. */
  winner?: number;
  counts?: Array<[number, number]>;
}

interface StoredList extends Omit<LedgerList, 'people'> {
  people: string;
}

/** What the mailbox scan decided of an address (features/inbox/decide.ts). */
export type AnswerCode = 'replied' | 'outOfOffice' | 'optedOut' | 'bounced';
const ANSWERS: AnswerCode[] = ['replied', 'outOfOffice', 'optedOut', 'bounced'];

interface StoredLedger {
  v: 1;
  secret: string;
  lists: StoredList[];
  /** Addresses stopped everywhere: mark (8) + state character (its StopCode). */
  stops: string;
  /** Companies where someone replied: marks (8). */
  companies: string;
  /** Addresses whose steps wait for an out-of-office answer's return: mark (8) + until (5, seconds). */
  paused?: string;
  /** Each answered address's latest verdict: mark (8) + AnswerCode character + when (5, seconds). */
  answers?: string;
  /** The mailbox was read up to here (seconds since EPOCH). */
  inbox?: number;
  /** The mail of the people whose steps were due was read up to here (seconds since EPOCH). */
  due?: number;
  /** Who got each campaign's first mail (mailed.ts). */
  mailed?: StoredMailed[];
  /** Mails each list posted in the current clock hour: [sheet id, hour (seconds since EPOCH), count]. */
  hours?: Array<[number, number, number]>;
  /** The mails posted, by day, oldest first (posted-mails.ts). */
  posted?: StoredPostedDay[];
}

const TIME_CHARS = 5;
const PERSON_CHARS = ADDRESS_CHARS + CONTENT_CHARS + 1 + 1 + TIME_CHARS;
/** The fewest people a set is sized for, when what a first mail adds to it is told (a send's list at most). */
const SET_PEOPLE = 10_000;
const EPOCH = Date.UTC(2024, 0, 1);
const SECOND = 1000;
/** Stops kept per document: the oldest go first (the sheets still show Replied and Do not contact). */
const MAX_STOPS = 4000;
const STALE_MS = 45 * DAY_MS;
/** Pauses and answers kept per document: the oldest go first; an answer is kept 90 days (the summary counts it). */
const MAX_PAUSES = 1000;
const MAX_ANSWERS = 2000;
const ANSWER_MS = 90 * DAY_MS;
/** Whom a campaign's first mail went to is kept this long after its last one (and while its list can send). */
const MAILED_MS = 90 * DAY_MS;

/** Posted mails are kept this long after their day, in at most this many characters (the oldest days go first). */
const POSTED_MS = 90 * DAY_MS;
const POSTED_CHARS = 40_000;

/** A step due this soon after the scan that read its people's mail goes (that scan ran in the same run). */
export const STEP_READ_SLACK_MS = 10 * 60_000;

let current: Ledger | undefined;

export class Ledger {
  private constructor(
    readonly secret: string,
    readonly lists: Map<number, LedgerList>,
    readonly stops: Map<string, StopCode>,
    readonly companies: Set<string>,
  ) {}

  /** Address mark → until when its steps wait (ms): an out-of-office answer's return date. */
  paused = new Map<string, number>();
  /** Address mark → the mailbox scan's latest verdict on it, and when the answer came (ms). */
  answers = new Map<string, { code: AnswerCode; at: number }>();
  /** How far the mailbox was read (ms; 0: never). */
  inboxAfter = 0;
  /** How far the mail of the people whose steps were due was read (ms; 0: no scan reads it, steps go). */
  stepsReadTo = 0;
  /** Campaign mark → who got its first mail. */
  mailed = new Map<string, MailedSet>();
  /** Sheet id → the mails its list posted in one clock hour (ms of the hour's start): the hourly limit's count. */
  hours = new Map<number, { hour: number; n: number }>();
  /** The mails posted, by day as stored (decoded only when asked or added to). */
  posted: StoredPostedDay[] = [];

  /**
   * The record as this user's runs last wrote it. Read once an execution (each read of the user's store is a
   * service call): later reads answer the same, or what this execution's last change saved. Decisions made
   * on it are safe against another execution's change meanwhile: every change is made on a fresh read.
   */
  static read(): Ledger {
    return (current = current || Ledger.from(readOutbox<StoredLedger>()));
  }

  /** Changes the record on a fresh read under the user's lock, and saves it; answers it as saved. */
  static change(edit: (ledger: Ledger) => void): Ledger {
    let result: Ledger | undefined;
    changeOutbox<StoredLedger>((stored) => {
      const ledger = Ledger.from(stored);
      edit(ledger);
      result = ledger;
      return ledger.isEmpty() ? null : ledger.stored();
    });
    return (current = result!);
  }

  /**
   * Whether `people` more people fit on a list of the record. When they do not, room is made, least loss first:
   * the campaigns' sets cut to their compact width (mailed.ts), the posted mails' ids let go (Tracking then follows
   * only the ids on the sheets), the sets cut to their narrowest width; what still does not fit is refused.
   */
  static roomFor(people: number): { fits: boolean; most: number } {
    let room = Ledger.room(people);
    const [compact, narrowest] = COMPACT_SPARE_BITS;
    const narrower = (l: Ledger, spare: number) =>
      [...l.mailed.values()].some((set) => compactBits(set, spare) < set.bits);
    const cuts: Array<{ helps: (l: Ledger) => boolean; cut: (l: Ledger) => void }> = [
      { helps: (l) => narrower(l, compact), cut: (l) => cutSets(l, compact) },
      { helps: (l) => l.posted.length > 0, cut: (l) => (l.posted = []) },
      { helps: (l) => narrower(l, narrowest), cut: (l) => cutSets(l, narrowest) },
    ];
    for (const { helps, cut } of cuts) {
      if (room.fits) break;
      if (!helps(Ledger.read())) continue;
      Ledger.change(cut);
      room = Ledger.room(people);
    }
    return room;
  }

  private static room(people: number): { fits: boolean; most: number } {
    const perPerson = PERSON_CHARS + codedChars(SET_PEOPLE, Ledger.read().setBits()) / SET_PEOPLE;
    const most = Math.max(0, Math.floor(roomLeft() / perPerson));
    return { fits: people <= most, most };
  }

  /**
   * The width a new campaign's set starts at: exact, or as narrow as the narrowest set once the store has run
   * short (so that a new campaign does not take back the room the cut made).
   */
  setBits(): number {
    let bits = EXACT_BITS;
    for (const set of this.mailed.values()) bits = Math.min(bits, set.bits);
    return bits;
  }

  private static from(stored: StoredLedger | null): Ledger {
    if (!stored || stored.v !== 1)
      return new Ledger(Utilities.getUuid() + Utilities.getUuid(), new Map(), new Map(), new Set());
    const lists = new Map<number, LedgerList>();
    for (const list of stored.lists) lists.set(list.sheetId, { ...list, people: unpackPeople(list.people) });
    const stops = new Map<string, StopCode>();
    for (let i = 0; i < stored.stops.length; i += ADDRESS_CHARS + 1) {
      const code = STOPS[DIGITS.indexOf(stored.stops[i + ADDRESS_CHARS])];
      if (code) stops.set(stored.stops.slice(i, i + ADDRESS_CHARS), code);
    }
    const companies = new Set<string>();
    for (let i = 0; i < stored.companies.length; i += ADDRESS_CHARS)
      companies.add(stored.companies.slice(i, i + ADDRESS_CHARS));
    const ledger = new Ledger(stored.secret, lists, stops, companies);
    ledger.readInbox(stored);
    return ledger;
  }

  private readInbox(stored: StoredLedger): void {
    const timed = (
      text: string | undefined,
      size: number,
      each: (mark: string, at: number, i: number) => void,
    ) => {
      for (let i = 0; text && i + size <= text.length; i += size)
        each(text.slice(i, i + ADDRESS_CHARS), fromSeconds(text.slice(i + size - TIME_CHARS, i + size)), i);
    };
    timed(stored.paused, ADDRESS_CHARS + TIME_CHARS, (mark, until) => this.paused.set(mark, until));
    timed(stored.answers, ADDRESS_CHARS + 1 + TIME_CHARS, (mark, at, i) => {
      const code = ANSWERS[DIGITS.indexOf(stored.answers![i + ADDRESS_CHARS])];
      if (code) this.answers.set(mark, { code, at });
    });
    this.inboxAfter = stored.inbox ? EPOCH + stored.inbox * SECOND : 0;
    this.stepsReadTo = stored.due !== undefined ? EPOCH + stored.due * SECOND : 0;
    this.posted = stored.posted || [];
    for (const [sheetId, hour, n] of stored.hours || [])
      this.hours.set(sheetId, { hour: EPOCH + hour * SECOND, n });
    for (const m of stored.mailed || [])
      this.mailed.set(
        m.c,
        readMailed(m, (s) => EPOCH + s * SECOND),
      );
  }

  /** The scan read the mail of everyone whose step was due up to `through` (ms), or not all of it (0). */
  readSteps(through: number): void {
    this.stepsReadTo = Math.max(this.stepsReadTo, through, EPOCH);
  }

  /** Whether a step due at `at` may go: its people's mail was read up to then, or no scan reads mail. */
  readForStep(at: number): boolean {
    return this.stepsReadTo === 0 || at <= this.stepsReadTo + STEP_READ_SLACK_MS;
  }

  /** A campaign's mark: its name as the user reads it (case and spaces apart), under the payer's secret. */
  campaignMark(campaign: string): string {
    return addressMark(this.secret, `campaign:${campaign.trim().replace(/\s+/g, ' ').toLowerCase()}`);
  }

  /** Whether `key` (an address key) got the first mail of the campaign (a stranger matches rarely: left out). */
  wasMailed(campaign: string | undefined, key: string): boolean {
    const set = campaign && this.mailed.get(campaign);
    return !!set && set.fingerprints.has(fingerprint(this.secret, campaign, key, set.bits));
  }

  /** When the campaign's first mails went: the first and the latest (ms), or null when none did. */
  mailedSpan(campaign: string | undefined): { first: number; last: number } | null {
    const set = campaign && this.mailed.get(campaign);
    return set ? { first: set.first, last: set.last } : null;
  }

  /** The list of `sheetId` posted `n` mails at `at` (its hourly limit counts them, whatever becomes of the list). */
  countPosted(sheetId: number, at: number, n: number): void {
    const hour = Math.floor(at / HOUR_MS) * HOUR_MS;
    const known = this.hours.get(sheetId);
    if (known && known.hour > hour) return;
    this.hours.set(sheetId, { hour, n: (known && known.hour === hour ? known.n : 0) + n });
  }

  /** Mails the list of `sheetId` posted in the clock hour of `now`. */
  postedInHour(sheetId: number, now = Date.now()): number {
    const known = this.hours.get(sheetId);
    return known && known.hour === Math.floor(now / HOUR_MS) * HOUR_MS ? known.n : 0;
  }

  /** The service took these mails ([task id, mail id]) at `at`: Tracking follows them whatever the cells say. */
  recordPostedMails(pairs: Array<[number, number]>, at: number): void {
    if (pairs.length === 0) return;
    const day = Math.floor((at - EPOCH) / DAY_MS) * (DAY_MS / SECOND);
    let index = this.posted.findIndex(([d]) => d === day);
    if (index < 0) {
      this.posted.push([day, 0, '']);
      this.posted.sort((a, b) => a[0] - b[0]);
      index = this.posted.findIndex(([d]) => d === day);
    }
    const mails = decodePosted(this.posted[index][2]);
    for (const [task, mail] of pairs) mails.set(mail, task);
    this.posted[index] = [day, mails.size, encodePosted(mails)];
  }

  /** Every mail posted in the last 90 days that the record still holds: mail id → task id. */
  postedMails(): PostedPairs {
    const all: PostedPairs = new Map();
    for (const [, , runs] of this.posted) for (const [mail, task] of decodePosted(runs)) all.set(mail, task);
    return all;
  }

  /** `key` got the campaign's first mail at `at`. */
  recordMailed(campaign: string, key: string, at: number): void {
    let set = this.mailed.get(campaign);
    if (!set) this.mailed.set(campaign, (set = newMailedSet(at, this.setBits())));
    addFingerprint(set, fingerprint(this.secret, campaign, key, set.bits));
    set.first = Math.min(set.first, at);
    set.last = Math.max(set.last, at);
  }

  /** An address's steps wait until `until` (ms); a later pause of the same address replaces it. */
  pause(addr: string, until: number): void {
    this.paused.delete(addr);
    this.paused.set(addr, until);
    while (this.paused.size > MAX_PAUSES) this.paused.delete(this.paused.keys().next().value!);
  }

  /** When the address's steps may go on again (ms), or 0 when they do not wait. */
  pausedUntil(addr: string, now = Date.now()): number {
    const until = this.paused.get(addr) || 0;
    return until > now ? until : 0;
  }

  /** Keeps the scan's latest verdict on an address (the newest answer wins). */
  answer(addr: string, code: AnswerCode, at: number): void {
    const known = this.answers.get(addr);
    if (known && known.at > at) return;
    this.answers.delete(addr);
    this.answers.set(addr, { code, at });
    while (this.answers.size > MAX_ANSWERS) this.answers.delete(this.answers.keys().next().value!);
  }

  list(sheetId: number): LedgerList | undefined {
    return this.lists.get(sheetId);
  }

  /** The list's record for a new confirmation with the current key: a new one, or the same user's earlier one. */
  openList(
    sheetId: number,
    mail: string,
    steps: number,
    fields: string[],
    keyFp: string,
    campaign: string,
  ): LedgerList {
    const earlier = this.lists.get(sheetId);
    const list: LedgerList =
      earlier && earlier.keyFp === keyFp
        ? earlier
        : { sheetId, keyFp, mail, steps, fields, serial: 0, people: new Map(), at: Date.now() };
    list.serial = earlier ? (earlier.serial + 1) % 64 : 0;
    Object.assign(list, { mail, steps, fields, campaign, at: Date.now() });
    this.lists.set(sheetId, list);
    return list;
  }

  dropList(sheetId: number): void {
    this.lists.delete(sheetId);
  }

  /**
   * Lists confirmed long ago of which nothing went (a schedule another editor cancelled, a document's send never
   * continued) leave: no send of this add-on waits that long (a quota wait gives up after 7 days).
   */
  dropStale(now = Date.now()): void {
    for (const [sheetId, list] of this.lists)
      if (now - list.at > STALE_MS && ![...list.people.values()].some((p) => p.posted > 0))
        this.lists.delete(sheetId);
  }

  /** A stop that holds on every list of the document (replied, opted out). */
  stopEverywhere(addr: string, code: StopCode): void {
    if (this.stops.has(addr)) return;
    this.stops.set(addr, code);
    while (this.stops.size > MAX_STOPS) this.stops.delete(this.stops.keys().next().value!);
  }

  private isEmpty(): boolean {
    return (
      this.lists.size === 0 &&
      this.stops.size === 0 &&
      this.companies.size === 0 &&
      this.answers.size === 0 &&
      this.mailed.size === 0 &&
      this.posted.length === 0
    );
  }

  private stored(): StoredLedger {
    const lists = [...this.lists.values()].map((list) => ({ ...list, people: packPeople(list.people) }));
    let stops = '';
    for (const [addr, code] of this.stops) stops += addr + DIGITS[STOPS.indexOf(code)];
    const companies = [...this.companies].slice(-MAX_STOPS).join('');
    const stored: StoredLedger = { v: 1, secret: this.secret, lists, stops, companies };
    const now = Date.now();
    let paused = '';
    for (const [addr, until] of this.paused) if (until > now) paused += addr + toSeconds(until);
    let answers = '';
    for (const [addr, { code, at }] of this.answers)
      if (now - at < ANSWER_MS) answers += addr + DIGITS[ANSWERS.indexOf(code)] + toSeconds(at);
    if (paused) stored.paused = paused;
    if (answers) stored.answers = answers;
    if (this.inboxAfter) stored.inbox = Math.floor((this.inboxAfter - EPOCH) / SECOND);
    if (this.stepsReadTo) stored.due = Math.floor((this.stepsReadTo - EPOCH) / SECOND);
    const mailed = this.storedMailed(now);
    if (mailed.length) stored.mailed = mailed;
    const hours = [...this.hours]
      .filter(([, h]) => h.hour + HOUR_MS > now)
      .map(([sheetId, h]): [number, number, number] => [sheetId, Math.floor((h.hour - EPOCH) / SECOND), h.n]);
    if (hours.length) stored.hours = hours;
    const posted = this.keptPosted(now);
    if (posted.length) stored.posted = posted;
    return stored;
  }

  /** The posted days younger than POSTED_MS, the newest that fit in POSTED_CHARS. */
  private keptPosted(now: number): StoredPostedDay[] {
    const young = this.posted.filter(([day]) => EPOCH + day * SECOND + DAY_MS + POSTED_MS > now);
    let chars = young.reduce((sum, [, , runs]) => sum + runs.length, 0);
    while (young.length > 1 && chars > POSTED_CHARS) chars -= young.shift()![2].length;
    return young;
  }

  /** The campaigns' sets, but those whose last mail is older than MAILED_MS and whose lists can send no more. */
  private storedMailed(now: number): StoredMailed[] {
    const sending = new Set<string>();
    for (const list of this.lists.values())
      if (list.campaign && [...list.people.values()].some((p) => p.posted <= list.steps && !p.stop))
        sending.add(list.campaign);
    const kept: StoredMailed[] = [];
    for (const [c, set] of this.mailed) {
      if (now - set.last > MAILED_MS && !sending.has(c)) continue;
      const f = Math.floor((set.first - EPOCH) / SECOND);
      const l = Math.ceil((set.last - EPOCH) / SECOND);
      const { text, n } = codedMailed(set);
      kept.push({ c, b: set.bits, f, l, n, s: text });
    }
    return kept;
  }
}

/** Cuts every campaign's set to `spare` bits above its size. */
function cutSets(ledger: Ledger, spare: number): void {
  for (const set of ledger.mailed.values()) cutMailed(set, compactBits(set, spare));
}

/** The address marks packed one after another in `text` (LedgerList.again). */
export function markSet(text: string | undefined): Set<string> {
  const marks = new Set<string>();
  for (let i = 0; text && i + ADDRESS_CHARS <= text.length; i += ADDRESS_CHARS)
    marks.add(text.slice(i, i + ADDRESS_CHARS));
  return marks;
}

const toSeconds = (ms: number) => encodeNumber(Math.ceil((ms - EPOCH) / SECOND), TIME_CHARS);
const fromSeconds = (text: string) => EPOCH + decodeNumber(text) * SECOND;

function packPeople(people: Map<string, Person>): string {
  let text = '';
  for (const p of people.values()) {
    const state = DIGITS[p.posted + POSTED_VALUES * STOPS.indexOf(p.stop)];
    const at = p.at ? Math.ceil((p.at - EPOCH) / SECOND) : 0;
    text += p.addr + p.content + state + DIGITS[p.serial % 64] + encodeNumber(at, TIME_CHARS);
  }
  return text;
}

function unpackPeople(text: string): Map<string, Person> {
  const people = new Map<string, Person>();
  for (let i = 0; i + PERSON_CHARS <= text.length; i += PERSON_CHARS) {
    const addr = text.slice(i, i + ADDRESS_CHARS);
    let at = i + ADDRESS_CHARS;
    const content = text.slice(at, (at += CONTENT_CHARS));
    const state = DIGITS.indexOf(text[at++]);
    const serial = DIGITS.indexOf(text[at++]);
    const seconds = decodeNumber(text.slice(at, at + TIME_CHARS));
    people.set(addr, {
      addr,
      content,
      posted: state % POSTED_VALUES,
      stop: STOPS[Math.floor(state / POSTED_VALUES)] || '',
      serial,
      at: seconds ? EPOCH + seconds * SECOND : 0,
    });
  }
  return people;
}
