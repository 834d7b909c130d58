// The per-number store of phone check results, so that a number is paid for once. It lives in the
// document's properties (readable by every editor's executions and by custom functions, kept beyond
// CacheService's 6 hours) and is shared by the menu action and =PHONE_CHECK.
//
// Layout: SHARDS properties `phoneResults.0` … `phoneResults.15`; a number goes to the shard picked by a hash
// of its normalised form. A shard is one string of entries `<number>=<status><minute>` joined by ',', where
// status is R (registered), N (not registered) or I (invalid number, code 1002) and minute is the check
// time in minutes since the epoch, base 36 (about 24 characters an entry). Each shard is kept under
// MAX_SHARD_CHARS (the limit is 9 KB per value) by dropping its oldest entries, so the whole store stays
// under 16 × 8000 = 128 KB of the document store's 500 KB (the company index and jobs share it): about
// 5,000 numbers. A result is trusted for RECHECK_AFTER_DAYS; after that the number may be checked (and paid
// for) again, and the stale entry is dropped the next time its shard is written. Errors (1000/1006/1007
// after retries) are never stored: the number is still unknown.
//
// Writers merge: save() re-reads the shards it changed and adds its entries to what is there now (under
// the document lock when one can be had), so a custom function and a menu run writing at the same time do
// not erase each other's results.
//
// Executions run at the same time (every =PHONE_CHECK cell is one, beside the menu action): before paying,
// an execution claims its numbers with claim(), under the document lock, in the property `phoneClaims`
// (`<number>=<expiry>` joined by ','; expiry in seconds, base 36). claim() re-reads the store first, so a
// number another execution found meanwhile is answered from it, and a number another execution is checking
// right now is left to it. save() releases the claims in the same write as the results, so there is no
// moment when a paid number is neither stored nor claimed. A claim of an execution that was killed runs out
// when that execution would have been stopped anyway (CLAIM_MS; 30 s for a custom function).

export type PhoneStatus = 'registered' | 'not-registered' | 'invalid';

export interface StoredResult {
  status: PhoneStatus;
  /** When the number was checked, ms since the epoch. */
  checkedAt: number;
}

export const RECHECK_AFTER_DAYS = 30;
export const RECHECK_AFTER_MS = RECHECK_AFTER_DAYS * 24 * 60 * 60 * 1000;
const PREFIX = 'phoneResults.';
const CLAIMS = 'phoneClaims';
const CLAIM_MS = 6.5 * 60 * 1000;
export const SHARDS = 16;
export const MAX_SHARD_CHARS = 8000;
const MINUTE = 60 * 1000;

const CODE: Record<PhoneStatus, string> = { registered: 'R', 'not-registered': 'N', invalid: 'I' };
const STATUS: Record<string, PhoneStatus> = { R: 'registered', N: 'not-registered', I: 'invalid' };

/** number → [status code, minute] */
type Shard = Map<string, [string, number]>;

export class PhoneResults {
  private readonly dirty = new Map<number, Shard>();
  /** Numbers this execution claimed and has not released yet. */
  private readonly claimed = new Set<string>();

  private constructor(private shards: Shard[]) {}

  /** Reads every shard with one getProperties call. */
  static load(): PhoneResults {
    return new PhoneResults(readShards(PropertiesService.getDocumentProperties().getProperties()));
  }

  /** A fresh (younger than RECHECK_AFTER_DAYS) result for a normalised number. */
  get(phone: string, now = Date.now()): StoredResult | undefined {
    const entry = this.shards[shardOf(phone)].get(phone);
    if (!entry) return undefined;
    const checkedAt = entry[1] * MINUTE;
    if (now - checkedAt >= RECHECK_AFTER_MS) return undefined;
    const status = STATUS[entry[0]];
    return status ? { status, checkedAt } : undefined;
  }

  put(phone: string, status: PhoneStatus, now = Date.now()): void {
    if (!isStorable(phone)) return;
    const index = shardOf(phone);
    const entry: [string, number] = [CODE[status], Math.floor(now / MINUTE)];
    this.shards[index].set(phone, entry);
    let changes = this.dirty.get(index);
    if (!changes) this.dirty.set(index, (changes = new Map()));
    changes.set(phone, entry);
  }

  /**
   * The numbers (at most `limit`, in the given order) this execution may check now. Under the document lock:
   * re-reads the store (get() then answers what other executions found meanwhile), skips numbers known or
   * claimed by another execution, and claims the others until save(). None while the lock is busy.
   */
  claim(phones: readonly string[], limit: number, forMs = CLAIM_MS, now = Date.now()): string[] {
    const lock = documentLock();
    if (lock === false) return []; // busy: ask again in a moment
    try {
      const store = PropertiesService.getDocumentProperties();
      const current = store.getProperties();
      this.shards = readShards(current);
      for (const [index, changes] of this.dirty) for (const [p, e] of changes) this.shards[index].set(p, e);
      const claims = parseClaims(current[CLAIMS], now);
      const mine: string[] = [];
      for (const phone of phones) {
        if (mine.length >= limit || (claims.size + 1) * 26 > MAX_SHARD_CHARS) break;
        if (this.get(phone, now) || (claims.has(phone) && !this.claimed.has(phone))) continue;
        claims.set(phone, now + forMs);
        this.claimed.add(phone);
        mine.push(phone);
      }
      if (mine.length > 0) store.setProperty(CLAIMS, serializeClaims(claims));
      return mine;
    } finally {
      if (lock) lock.releaseLock();
    }
  }

  /**
   * Writes the changed shards and releases this execution's claims: re-reads them (one getProperties),
   * merges this execution's entries into what is stored now, prunes, and writes them with one
   * setProperties. Holds the document lock meanwhile when it can be had within a few seconds (it is also
   * available in custom functions). `keepClaims`: results stored mid-run, claims kept for the numbers
   * still on the wire.
   */
  save(now = Date.now(), { keepClaims = false } = {}): void {
    if (this.dirty.size === 0 && (keepClaims || this.claimed.size === 0)) return;
    const lock = documentLock();
    try {
      const store = PropertiesService.getDocumentProperties();
      const current = store.getProperties();
      const updates: Record<string, string> = {};
      for (const [index, changes] of this.dirty) {
        const shard = parseShard(current[PREFIX + index]);
        for (const [phone, entry] of changes) {
          const stored = shard.get(phone);
          if (!stored || stored[1] <= entry[1]) shard.set(phone, entry);
        }
        updates[PREFIX + index] = serializeShard(prune(shard, now));
        this.shards[index] = shard;
      }
      if (this.claimed.size > 0 && !keepClaims) {
        const claims = parseClaims(current[CLAIMS], now);
        for (const phone of this.claimed) claims.delete(phone);
        updates[CLAIMS] = serializeClaims(claims);
      }
      store.setProperties(updates);
      this.dirty.clear();
      if (!keepClaims) this.claimed.clear();
    } finally {
      if (lock) lock.releaseLock();
    }
  }
}

function readShards(props: Record<string, string>): Shard[] {
  const shards: Shard[] = [];
  for (let i = 0; i < SHARDS; i++) shards.push(parseShard(props[PREFIX + i]));
  return shards;
}

function parseShard(text: string | undefined): Shard {
  const shard: Shard = new Map();
  if (!text) return shard;
  for (const item of text.split(',')) {
    const match = /^([+\d]{1,20})=([RNI])([0-9a-z]{1,10})$/.exec(item);
    if (match) shard.set(match[1], [match[2], parseInt(match[3], 36)]);
  }
  return shard;
}

function serializeShard(shard: Shard): string {
  const parts: string[] = [];
  for (const [phone, [code, minute]] of shard) parts.push(`${phone}=${code}${minute.toString(36)}`);
  return parts.join(',');
}

/** Drops expired entries, then the oldest until the shard fits. */
function prune(shard: Shard, now: number): Shard {
  const oldestKept = Math.floor((now - RECHECK_AFTER_MS) / MINUTE);
  for (const [phone, entry] of shard) if (entry[1] < oldestKept) shard.delete(phone);
  let size = serializeShard(shard).length;
  if (size <= MAX_SHARD_CHARS) return shard;
  const byAge = [...shard.entries()].sort((a, b) => a[1][1] - b[1][1]);
  for (const [phone, [code, minute]] of byAge) {
    if (size <= MAX_SHARD_CHARS) break;
    shard.delete(phone);
    size -= phone.length + 2 + code.length + minute.toString(36).length;
  }
  return shard;
}

/** Live claims: number → expiry (ms). */
function parseClaims(text: string | undefined, now: number): Map<string, number> {
  const claims = new Map<string, number>();
  for (const item of (text || '').split(',')) {
    const [phone, expiry] = item.split('=');
    const at = parseInt(expiry, 36) * 1000;
    if (at > now) claims.set(phone, at);
  }
  return claims;
}

function serializeClaims(claims: Map<string, number>): string {
  return [...claims].map(([phone, at]) => `${phone}=${Math.ceil(at / 1000).toString(36)}`).join(',');
}

function isStorable(phone: string): boolean {
  return /^[+\d]{1,20}$/.test(phone);
}

function shardOf(phone: string): number {
  let hash = 0;
  for (let i = 0; i < phone.length; i++) hash = (hash * 31 + phone.charCodeAt(i)) | 0;
  return Math.abs(hash) % SHARDS;
}

/** The document lock; null where there is none (best effort without it), false when it is busy. */
function documentLock(): GoogleAppsScript.Lock.Lock | null | false {
  let lock: GoogleAppsScript.Lock.Lock | null = null;
  try {
    lock = LockService.getDocumentLock();
  } catch {
    // no lock service here
  }
  return !lock ? null : lock.tryLock(5000) && lock;
}
