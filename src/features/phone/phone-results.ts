// The per-number store of phone check results, so that a number is paid for once. It lives in the
// document's properties (readable by every editor's executions and by custom functions, kept beyond
// CacheService's 6 hours) and is shared by the menu action and =PHONE_CHECK.
//
// Layout: a ShardedStore of SHARDS properties `phoneResults.0` … `phoneResults.15`. A shard is one string
// of entries `<number>=<status><minute>` joined by ',', where status is R (registered), N (not registered)
// or I (invalid number, code 1002) and minute is the check time in minutes since the epoch, base 36 (about
// 24 characters an entry). Each shard is kept under MAX_SHARD_CHARS by dropping its oldest entries, so the
// whole store stays under 16 × 8000 = 128 KB of the document store's 500 KB (the company index and jobs
// share it): about 5,000 numbers. A result is trusted for RECHECK_AFTER_DAYS; after that the number may be
// checked (and paid for) again, and the stale entry is dropped the next time its shard is written. Errors
// (1000/1006/1007 after retries) are never stored: the number is still unknown.
//
// Writers merge: save() re-reads the shards and adds its entries to what is there now (under the document
// lock when one can be had), so a custom function and a menu run writing at the same time do not erase
// each other's results.
//
// Executions run at the same time (every =PHONE_CHECK cell is one, beside the menu action): before paying,
// an execution claims its numbers with claim(), under the document lock, in the property `phoneClaims`
// (`<number>=<expiry>` joined by ','; expiry in seconds, base 36). claim() re-reads the store first, so a
// number another execution found meanwhile is answered from it, and a number another execution is checking
// right now is left to it. save() releases the claims in the same write as the results, so there is no
// moment when a paid number is neither stored nor claimed. A claim of an execution that was killed runs out
// when that execution would have been stopped anyway (CLAIM_MS; 30 s for a custom function).
import { withDocumentLock, type ShardFormat, ShardedStore, type StoredEntry } from '../../platform';

export type PhoneStatus = 'registered' | 'not-registered' | 'invalid';

interface StoredResult {
  status: PhoneStatus;
  /** When the number was checked, ms since the epoch. */
  checkedAt: number;
}

export const RECHECK_AFTER_DAYS = 30;
const RECHECK_AFTER_MS = RECHECK_AFTER_DAYS * 24 * 60 * 60 * 1000;
const CLAIMS = 'phoneClaims';
const CLAIM_MS = 6.5 * 60 * 1000;
/** How long claim() and save() wait for the document lock. */
const LOCK_WAIT_MS = 5000;
const SHARDS = 16;
const MAX_SHARD_CHARS = 8000;
const MINUTE = 60 * 1000;

const CODE: Record<PhoneStatus, string> = { registered: 'R', 'not-registered': 'N', invalid: 'I' };
const STATUS: Record<string, PhoneStatus> = { R: 'registered', N: 'not-registered', I: 'invalid' };

/** `<number>=<R|N|I><minute, base 36>` joined by ','. */
const FORMAT: ShardFormat<PhoneStatus> = {
  parse(text) {
    const entries: Array<[string, StoredEntry<PhoneStatus>]> = [];
    for (const item of text.split(',')) {
      const match = /^([+\d]{1,20})=([RNI])([0-9a-z]{1,10})$/.exec(item);
      if (match) entries.push([match[1], { value: STATUS[match[2]], at: parseInt(match[3], 36) * MINUTE }]);
    }
    return entries;
  },
  format(entries) {
    const parts: string[] = [];
    for (const [phone, { value, at }] of entries) {
      parts.push(`${phone}=${CODE[value]}${Math.floor(at / MINUTE).toString(36)}`);
    }
    return parts.join(',');
  },
};

export class PhoneResults {
  /** Numbers this execution claimed and has not released yet. */
  private readonly claimed = new Set<string>();

  private constructor(private readonly results: ShardedStore<PhoneStatus>) {}

  /** Reads every shard with one getProperties call. */
  static load(): PhoneResults {
    return new PhoneResults(
      ShardedStore.load({
        prefix: 'phoneResults.',
        shards: SHARDS,
        maxShardChars: MAX_SHARD_CHARS,
        expiresAfterMs: RECHECK_AFTER_MS,
        format: FORMAT,
      }),
    );
  }

  /** A fresh (younger than RECHECK_AFTER_DAYS) result for a normalised number. */
  get(phone: string, now = Date.now()): StoredResult | undefined {
    const entry = this.results.entry(phone, now);
    return entry ? { status: entry.value, checkedAt: entry.at } : undefined;
  }

  put(phone: string, status: PhoneStatus, now = Date.now()): void {
    if (/^[+\d]{1,20}$/.test(phone)) this.results.set(phone, status, Math.floor(now / MINUTE) * MINUTE);
  }

  /**
   * The numbers (at most `limit`, in the given order) this execution may check now. Under the document lock:
   * re-reads the store (get() then answers what other executions found meanwhile), skips numbers known or
   * claimed by another execution, and claims the others until save(). None while the lock is busy.
   */
  claim(phones: readonly string[], limit: number, forMs = CLAIM_MS, now = Date.now()): string[] {
    const claimNow = () => {
      const properties = PropertiesService.getDocumentProperties();
      const current = properties.getProperties();
      this.results.reload(current);
      const claims = parseClaims(current[CLAIMS], now);
      const mine: string[] = [];
      for (const phone of phones) {
        if (mine.length >= limit || (claims.size + 1) * 26 > MAX_SHARD_CHARS) break;
        if (this.get(phone, now) || (claims.has(phone) && !this.claimed.has(phone))) continue;
        claims.set(phone, now + forMs);
        this.claimed.add(phone);
        mine.push(phone);
      }
      if (mine.length > 0) properties.setProperty(CLAIMS, serializeClaims(claims));
      return mine;
    };
    return withDocumentLock(LOCK_WAIT_MS, claimNow, () => [], { flush: false }); // busy: ask again soon
  }

  /**
   * Writes the new results and releases this execution's claims in one setProperties, merged into what is
   * stored now. Holds the document lock meanwhile when it can be had within a few seconds (it is also
   * available in custom functions), and writes without it otherwise: a result must not be lost.
   * `keepClaims`: results stored mid-run, claims kept for the numbers still on the wire.
   */
  save(now = Date.now(), { keepClaims = false } = {}): void {
    const release = this.claimed.size > 0 && !keepClaims;
    if (!this.results.changed && !release) return;
    const releaseClaims = (stored: Record<string, string>): Record<string, string> => {
      if (!release) return {};
      const claims = parseClaims(stored[CLAIMS], now);
      for (const phone of this.claimed) claims.delete(phone);
      return { [CLAIMS]: serializeClaims(claims) };
    };
    const write = () => {
      this.results.save(releaseClaims, now);
      if (release) this.claimed.clear();
    };
    withDocumentLock(LOCK_WAIT_MS, write, write, { flush: false });
  }
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
