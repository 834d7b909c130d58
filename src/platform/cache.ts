// Short-lived answers for custom functions: Sheets recalculates formulas on edits, copies and re-opens, and
// each recalculation must not become a request. Entries may vanish at any time (CacheService), so a miss
// simply asks the service again; nothing that costs money is cached only here.
//
// An answer from the cache is identical to a fresh one: Dates are stored as {"$date": ms} and revived
// (JSON alone would turn them into text). The cache holds at most 100 KB per value, counted in bytes of
// UTF-8 (a company description in Chinese takes 3 bytes a character): a larger answer is not cached, and a
// put that fails anyway never turns a finished answer into an error.

/** CacheService allows 100 KB per value; counted as 100,000 bytes to stay clear of either reading of "KB". */
const MAX_CACHE_VALUE_BYTES = 100_000;

export function cached<T>(key: string, ttlSeconds: number, compute: () => T): T {
  let cache: GoogleAppsScript.Cache.Cache | null = null;
  try {
    cache = CacheService.getDocumentCache() ?? CacheService.getScriptCache();
    const hit = cache.get(key);
    if (hit !== null) return JSON.parse(hit, reviveDates) as T;
  } catch {
    // no cache here, or a damaged entry: compute again
  }
  const value = compute();
  const text = JSON.stringify(value, keepDates);
  if (cache && utf8Bytes(text) <= MAX_CACHE_VALUE_BYTES) {
    try {
      cache.put(key, text, ttlSeconds);
    } catch {
      // the answer is still good; the next recalculation asks the service again
    }
  }
  return value;
}

/** A cache key from parts that may hold secrets: only their SHA-256 digest is kept. */
export function cacheKey(...parts: unknown[]): string {
  const digest = Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, JSON.stringify(parts));
  return `cf.${Utilities.base64EncodeWebSafe(digest)}`;
}

/** Length of the text in UTF-8 bytes (Apps Script has no TextEncoder). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4; // a surrogate pair: one character outside the BMP
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** JSON.stringify replacer: `this[key]` is the value before Date.prototype.toJSON turned it into text. */
function keepDates(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  return raw instanceof Date ? { $date: raw.getTime() } : value;
}

function reviveDates(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const ms = (value as { $date?: unknown }).$date;
    if (keys.length === 1 && keys[0] === '$date' && typeof ms === 'number') return new Date(ms);
  }
  return value;
}
