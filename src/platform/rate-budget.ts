// Client-side rate limiting shared by every execution of the add-on (menus, triggers, custom functions and
// sidebars each run in their own execution), so that normal use never meets a 429 / code 1005.
//
// Limits: outreach 60 requests per rolling 60 s per key; phone-check 1000 per rolling hour per key.
// Each request takes a slot stamped with the time it was reserved (just before sending), or the time it may go
// (reserveSchedule: a run sent over several fetches stamps them again as they went). A slot stays taken
// for the window plus a guard (0.5 s): the services count the window from the request's arrival, which is a
// little later than the reservation.
//
// Storage: the limits belong to the API key, and a key lives in one user's properties, so the log of slot
// times lives in that user's cache (CacheService.getUserCache()) under `rate.<service>.<hash>`, where
// <hash> is the SHA-256 of the API key (never the key), and is changed under that user's lock
// (LockService.getUserLock()). Custom functions run with the spreadsheet owner's properties, cache and lock,
// so they share the owner's budget. The script lock and cache are shared by every user of a published
// add-on: one busy user would make everyone wait. Compact encoding: `v1:<first ms, base 36>:` then the
// gaps to the previous time in base 36, comma-separated (1000 phone slots take ~5 KB of the 100 KB a value
// may hold). The lock is taken with tryLock (short timeout, retried until the deadline: a busy lock is never
// bypassed); when locks or the cache are unavailable the budget proceeds best-effort with what it can
// read, and a per-execution memory log. A vanished cache entry, or one key saved by two users (two
// budgets), only makes the budget optimistic; the transport still waits and retries on a 429.
//
// Waiting: reserve(n, deadline) sleeps (Utilities.sleep, never while holding the lock) until n slots are
// free; when that moment is after the deadline it throws RateDeadlineError at once, without sleeping (the
// transport turns it into ApiError kind 'rate-budget'), and the feature continues later.

/** The services whose rate limits are kept (their names, as the API layer uses them). */
type ApiService = 'outreach' | 'phone';

/** No slot before the deadline: the wait it would take, and the limit in words. */
export class RateDeadlineError extends Error {
  constructor(
    readonly service: ApiService,
    readonly waitMs: number,
    readonly limitText: string,
  ) {
    super(`No ${service} rate-limit slot before the deadline (${limitText})`);
    this.name = 'RateDeadlineError';
  }
}

interface RateLimit {
  limit: number;
  windowMs: number;
}

const RATE_LIMITS: Record<ApiService, RateLimit> = {
  outreach: { limit: 60, windowMs: 60_000 },
  phone: { limit: 1000, windowMs: 3_600_000 },
};

/** Added to every window: covers the time between reservation and arrival at the service. */
const RATE_GUARD_MS = 500;
const LOCK_TIMEOUT_MS = 2000;
/** Utilities.sleep accepts at most 5 minutes. */
const MAX_SLEEP_MS = 300_000;
const CACHE_PREFIX = 'rate.';

interface RateBudgetOptions {
  service: ApiService;
  apiKey: string;
  limit?: number;
  windowMs?: number;
  guardMs?: number;
}

/** Times of the slots of each budget held in this execution when the cache cannot be used. */
const memoryLogs: Record<string, number[]> = {};
const keyHashes: Record<string, string> = {};

/** Forgets this execution's memory logs (a new execution starts without them; tests simulate one). */
export function forgetExecutionMemory(): void {
  for (const key of Object.keys(memoryLogs)) delete memoryLogs[key];
}

export function hashKey(apiKey: string): string {
  const known = keyHashes[apiKey];
  if (known) return known;
  const bytes = Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, apiKey, Utilities.Charset.UTF_8);
  const hex = bytes.map((b) => ((b + 256) % 256).toString(16).padStart(2, '0')).join('');
  keyHashes[apiKey] = hex;
  return hex;
}

export function encodeLog(times: readonly number[]): string {
  if (times.length === 0) return 'v1:';
  const parts = [times[0].toString(36)];
  const gaps: string[] = [];
  for (let i = 1; i < times.length; i++) gaps.push(Math.max(0, times[i] - times[i - 1]).toString(36));
  return `v1:${parts[0]}:${gaps.join(',')}`;
}

/** Decodes a stored log; a damaged value reads as empty. */
export function decodeLog(value: string | null | undefined): number[] {
  if (!value || !value.startsWith('v1:')) return [];
  const [, first, gaps] = value.split(':');
  if (!first) return [];
  let t = parseInt(first, 36);
  if (!Number.isFinite(t)) return [];
  const times = [t];
  if (gaps) {
    for (const gap of gaps.split(',')) {
      const step = parseInt(gap, 36);
      if (!Number.isFinite(step) || step < 0) return [];
      t += step;
      times.push(t);
    }
  }
  return times;
}

export class RateBudget {
  readonly service: ApiService;
  readonly limit: number;
  readonly windowMs: number;
  readonly guardMs: number;
  private readonly apiKey: string;
  private cacheKeyMemo?: string;

  constructor(options: RateBudgetOptions) {
    this.service = options.service;
    this.apiKey = options.apiKey;
    this.limit = options.limit ?? RATE_LIMITS[options.service].limit;
    this.windowMs = options.windowMs ?? RATE_LIMITS[options.service].windowMs;
    this.guardMs = options.guardMs ?? RATE_GUARD_MS;
  }

  /** `60 requests per minute` */
  describe(): string {
    return this.windowMs === 60_000
      ? `${this.limit} requests per minute`
      : this.windowMs === 3_600_000
        ? `${this.limit} requests per hour`
        : `${this.limit} requests per ${Math.round(this.windowMs / 1000)} s`;
  }

  /** How long a slot stays taken. */
  get holdMs(): number {
    return this.windowMs + this.guardMs;
  }

  /** Slots free right now (no reservation). */
  available(now: number = Date.now()): number {
    return Math.max(0, this.limit - this.live(this.read(), now).length);
  }

  /** Milliseconds until n slots are free (0 when they are free now). */
  waitFor(n: number, now: number = Date.now()): number {
    return this.waitIn(this.live(this.read(), now), n, now);
  }

  /**
   * The wait after an unexpected 429 (one without Retry-After): until the oldest taken slot frees, at least
   * 1 s and at most 1 minute — the service counted requests this budget did not see (another device on the
   * same key), so an hour-long phone window must not turn into an hour of waiting.
   */
  backoffMs(now: number = Date.now()): number {
    const log = this.live(this.read(), now);
    if (log.length === 0) return 1000;
    return Math.min(60_000, Math.max(1000, log[0] + this.holdMs - now));
  }

  /** Takes n slots, sleeping until they are free. Throws RateDeadlineError if that is after deadlineMs. */
  reserve(n: number, deadlineMs?: number): void {
    if (!(n >= 1 && n <= this.limit)) throw new RangeError(`reserve(${n}): 1 to ${this.limit} slots`);
    this.take(n, n, deadlineMs);
  }

  /**
   * Takes as many slots as are free, up to max (at least 1: sleeps until one frees). Returns the number
   * taken. For fetchAll batches sized to the free budget.
   */
  reserveUpTo(max: number, deadlineMs?: number): number {
    if (!(max >= 1)) throw new RangeError(`reserveUpTo(${max}): at least 1 slot`);
    return this.take(1, Math.min(max, this.limit), deadlineMs);
  }

  /**
   * Takes up to max slots at once, each stamped with the earliest time its request may go (now, or when an
   * older slot frees), none after the deadline (RateDeadlineError when not even the first fits). For a caller
   * that sends them over several fetches, each at its time: one reservation instead of one a fetch. The
   * caller stamps them again with their requests' times once sent (restamp).
   */
  reserveSchedule(max: number, deadlineMs?: number): number[] {
    if (!(max >= 1)) throw new RangeError(`reserveSchedule(${max}): at least 1 slot`);
    for (;;) {
      let busy = true;
      const lockMs = Math.min(LOCK_TIMEOUT_MS, Math.max(0, (deadlineMs ?? Infinity) - Date.now()));
      const times = this.withLock(lockMs, () => {
        busy = false;
        const now = Date.now();
        const log = this.live(this.read(), now);
        const times: number[] = [];
        for (let i = 0; i < Math.min(max, this.limit); i++) {
          const older = log.length + i - this.limit; // the slot this one waits for, if any
          const at = older < 0 ? now : Math.max(now, log[older] + this.holdMs);
          if (deadlineMs !== undefined && at > deadlineMs) break;
          times.push(at);
        }
        if (times.length) this.write([...log, ...times]);
        return times;
      });
      if (times && times.length) return times;
      if (!busy) {
        const waitMs = this.waitFor(1);
        throw new RateDeadlineError(this.service, waitMs, this.describe());
      }
      if (deadlineMs !== undefined && Date.now() + 1 > deadlineMs) {
        throw new RateDeadlineError(this.service, 1, this.describe());
      }
      Utilities.sleep(1); // the lock was busy: try again
    }
  }

  /**
   * Replaces slots stamped `reserved` (a schedule) with the times their requests went (`sent`; the slots not
   * used are given back). Best-effort: a busy lock or cache leaves them as scheduled.
   */
  restamp(reserved: readonly number[], sent: readonly number[]): void {
    this.withLock(LOCK_TIMEOUT_MS, () => {
      const drop = new Map<number, number>();
      for (const t of reserved) drop.set(t, (drop.get(t) ?? 0) + 1);
      const kept = this.read().filter((t) => {
        const left = drop.get(t) ?? 0;
        if (left === 0) return true;
        drop.set(t, left - 1);
        return false;
      });
      this.write(this.live([...kept, ...sent], Date.now()));
    });
  }

  /**
   * Takes between min and max slots once at least min are free, under the user lock. A lock held by
   * another execution is waited for, never bypassed: a read-modify-write beside another one loses slots and
   * lets a 429 through. Neither a slot nor the lock is waited for past the deadline.
   */
  private take(min: number, max: number, deadlineMs?: number): number {
    for (;;) {
      let waitMs = 1; // stays 1 when the lock was busy: try again
      const lockMs = Math.min(LOCK_TIMEOUT_MS, Math.max(0, (deadlineMs ?? Infinity) - Date.now()));
      const granted = this.withLock(lockMs, () => {
        const now = Date.now();
        const log = this.live(this.read(), now);
        const free = this.limit - log.length;
        if (free < min) {
          waitMs = this.waitIn(log, min, now);
          return 0;
        }
        const n = Math.min(free, max);
        for (let i = 0; i < n; i++) log.push(now);
        this.write(log);
        return n;
      });
      if (granted) return granted;
      if (deadlineMs !== undefined && Date.now() + waitMs > deadlineMs) {
        throw new RateDeadlineError(this.service, waitMs, this.describe());
      }
      Utilities.sleep(Math.min(Math.ceil(waitMs), MAX_SLEEP_MS));
    }
  }

  private waitIn(log: readonly number[], n: number, now: number): number {
    const excess = log.length + n - this.limit;
    if (excess <= 0) return 0;
    return Math.max(1, log[excess - 1] + this.holdMs - now);
  }

  /** Slots still taken at `now`, oldest first. */
  private live(log: readonly number[], now: number): number[] {
    const fresh = log.filter((t) => t + this.holdMs > now && t <= now + this.holdMs);
    return fresh.sort((a, b) => a - b);
  }

  private get cacheKey(): string {
    if (!this.cacheKeyMemo) {
      let hash: string;
      try {
        hash = hashKey(this.apiKey);
      } catch {
        hash = 'nohash';
      }
      this.cacheKeyMemo = `${CACHE_PREFIX}${this.service}.${hash.slice(0, 40)}`;
    }
    return this.cacheKeyMemo;
  }

  private read(): number[] {
    const memory = memoryLogs[this.cacheKey] ?? [];
    let stored: number[];
    try {
      stored = decodeLog(CacheService.getUserCache().get(this.cacheKey));
    } catch {
      return memory.slice();
    }
    // The memory log covers this execution's own slots if the cache entry vanished: merge as multisets.
    if (memory.length === 0) return stored;
    const counts = new Map<number, number>();
    for (const t of stored) counts.set(t, (counts.get(t) ?? 0) + 1);
    const merged = stored.slice();
    for (const t of memory) {
      const left = counts.get(t) ?? 0;
      if (left > 0) counts.set(t, left - 1);
      else merged.push(t);
    }
    return merged;
  }

  private write(log: number[]): void {
    const key = this.cacheKey;
    memoryLogs[key] = log.slice(-this.limit);
    try {
      const seconds = Math.min(21600, Math.ceil(this.holdMs / 1000) + 60);
      CacheService.getUserCache().put(key, encodeLog(log), seconds);
    } catch {
      // best-effort: the memory log keeps this execution within the limit
    }
  }

  /** Runs work under the user lock; undefined when another execution holds it past timeoutMs. */
  private withLock<T>(timeoutMs: number, work: () => T): T | undefined {
    let lock: GoogleAppsScript.Lock.Lock | undefined;
    try {
      lock = LockService.getUserLock();
      // Already held by this execution (a caller's own critical section): use it, leave its release to them.
      if (lock.hasLock()) lock = undefined;
      else if (!lock.tryLock(timeoutMs)) return undefined;
    } catch {
      lock = undefined; // no lock service here (custom function): best-effort
    }
    try {
      return work();
    } finally {
      try {
        lock?.releaseLock();
      } catch {
        // nothing to do
      }
    }
  }
}
