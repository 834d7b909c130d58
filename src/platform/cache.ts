// Short-lived answers for custom functions: Sheets recalculates formulas on edits, copies and re-opens, and
// each recalculation must not become a request. Entries may vanish at any time (CacheService), so a miss
// simply asks the service again; nothing that costs money is cached only here.

const MAX_VALUE_CHARS = 90_000; // CacheService allows 100 KB per value

export function cached<T>(key: string, ttlSeconds: number, compute: () => T): T {
  const cache = CacheService.getDocumentCache() ?? CacheService.getScriptCache();
  const hit = cache.get(key);
  if (hit !== null) {
    try {
      return JSON.parse(hit) as T;
    } catch {
      // damaged entry: compute again
    }
  }
  const value = compute();
  const text = JSON.stringify(value);
  if (text.length <= MAX_VALUE_CHARS) cache.put(key, text, ttlSeconds);
  return value;
}

/** A cache key from parts that may hold secrets: only their SHA-256 digest is kept. */
export function cacheKey(...parts: unknown[]): string {
  const digest = Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, JSON.stringify(parts));
  return `cf.${Utilities.base64EncodeWebSafe(digest)}`;
}
