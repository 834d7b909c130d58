// Many small values in document properties, more than one property holds (9 KB per value): the entries
// are spread over `<prefix>0` … `<prefix><shards-1>` by a hash of their key, each shard kept under
// maxShardChars. Document properties are per document, readable by every editor's executions and by
// custom functions, and kept for good (CacheService forgets after 6 hours); the whole store is limited to
// 500 KB and shared, so a store's size is shards × maxShardChars (the company index 32 × 8,000, the phone
// results 16 × 8,000).
//
// Use:
//   const store = ShardedStore.load<V>({ prefix: 'phoneResults.', shards: 16 });
//   store.get(key) / store.set(key, value) / store.delete(key) / store.entries()
//   store.save();   // under withDocumentLock (platform/locks.ts) when other executions write it too
//
// - load() reads every shard with one getProperties; save() re-reads them (one getProperties), merges this
//   execution's sets and deletes into what is stored now (the later write of a key wins), and writes only
//   the shards that changed with one setProperties, together with the other properties `alsoWrite` makes
//   from what is stored now (the phone claims are released in the same write as the results).
// - Each entry carries the time it was written (`at`). With expiresAfterMs, an older entry is not returned
//   and is dropped the next time its shard is written.
// - When full (more than maxEntries, or a shard over maxShardChars) the oldest entries are dropped: the stores
//   are caches (the company index, the phone results). What must not be lost is kept elsewhere (a job's
//   state, the send journal: large-property.ts, one large value split into parts under one key).
// - The shard text format is the store's: JSON `{"key":[value,at]}` by default; the company index and the
//   phone results keep their own compact formats (ShardFormat). A shard is stored gzip-compressed (base64,
//   packed-text.ts) when that is smaller: the shard limits count the text, the store the bytes kept.

import { packText, unpackText } from './packed-text';

export interface StoredEntry<V> {
  value: V;
  /** When it was written, ms since the epoch. */
  at: number;
}

export interface ShardFormat<V> {
  /** The entries of one shard's text; damaged text or items are skipped, never thrown. */
  parse(text: string): Array<[string, StoredEntry<V>]>;
  format(entries: Iterable<[string, StoredEntry<V>]>): string;
}

export interface ShardedStoreOptions<V> {
  /** Property names are prefix + shard number: 'phoneResults.' → phoneResults.0 … */
  prefix: string;
  shards: number;
  /** Longest text of one shard (default 8,000, under the 9 KB per value limit). */
  maxShardChars?: number;
  /** Most entries in the whole store. */
  maxEntries?: number;
  expiresAfterMs?: number;
  /** Default: JSON `{"key":[value,at]}`. */
  format?: ShardFormat<V>;
}

const DEFAULT_MAX_SHARD_CHARS = 8000;

type Shard<V> = Map<string, StoredEntry<V>>;

export class ShardedStore<V> {
  private readonly shards: Shard<V>[] = [];
  /** The text each shard was last read from (an unchanged shard is not parsed again). */
  private readonly texts: string[] = [];
  /** This execution's unsaved changes: an entry set, or null for a delete. */
  private readonly pending = new Map<string, StoredEntry<V> | null>();
  private readonly format: ShardFormat<V>;
  private readonly maxShardChars: number;

  private constructor(private readonly options: ShardedStoreOptions<V>) {
    this.format = options.format ?? (jsonFormat as ShardFormat<V>);
    this.maxShardChars = options.maxShardChars ?? DEFAULT_MAX_SHARD_CHARS;
  }

  /** Reads every shard with one getProperties (or from the properties the caller has just read). */
  static load<V>(options: ShardedStoreOptions<V>, all?: Record<string, string>): ShardedStore<V> {
    const store = new ShardedStore<V>(options);
    store.reload(all ?? PropertiesService.getDocumentProperties().getProperties());
    return store;
  }

  /** The value of a key, unless absent or expired. */
  get(key: string, now = Date.now()): V | undefined {
    const entry = this.entry(key, now);
    return entry ? entry.value : undefined;
  }

  /** The value and when it was written, unless absent or expired. */
  entry(key: string, now = Date.now()): StoredEntry<V> | undefined {
    const entry = this.shards[this.shardOf(key)].get(key);
    return entry && !this.expired(entry, now) ? entry : undefined;
  }

  set(key: string, value: V, at = Date.now()): void {
    const entry = { value, at };
    this.shards[this.shardOf(key)].set(key, entry);
    this.pending.set(key, entry);
  }

  delete(key: string): void {
    this.shards[this.shardOf(key)].delete(key);
    this.pending.set(key, null);
  }

  /** Every live entry, oldest first. */
  entries(now = Date.now()): Array<[string, V]> {
    return this.all()
      .filter(([, entry]) => !this.expired(entry, now))
      .map(([key, entry]): [string, V] => [key, entry.value]);
  }

  /** True when there are changes save() has not written yet. */
  get changed(): boolean {
    return this.pending.size > 0;
  }

  /** Takes the shards as stored now (from a getProperties result), keeping this execution's unsaved changes. */
  reload(all: Record<string, string>): void {
    for (let i = 0; i < this.options.shards; i++) {
      const text = all[this.options.prefix + i] || '';
      if (this.shards[i] && this.texts[i] === text) continue;
      this.texts[i] = text;
      this.shards[i] = new Map(text ? this.format.parse(unpackText(text)) : []);
    }
    for (const [key, mine] of this.pending) {
      const shard = this.shards[this.shardOf(key)];
      const stored = shard.get(key);
      if (mine === null) shard.delete(key);
      else if (!stored || stored.at <= mine.at) shard.set(key, mine);
    }
  }

  /**
   * Writes this execution's changes merged into what is stored now, dropping what expired or no longer
   * fits, with one getProperties and one setProperties, which also writes what alsoWrite(stored
   * properties) answers. Does not lock: see withDocumentLock.
   */
  save(alsoWrite?: (stored: Record<string, string>) => Record<string, string>, now = Date.now()): void {
    if (this.pending.size === 0 && !alsoWrite) return;
    const properties = PropertiesService.getDocumentProperties();
    const changed = new Set([...this.pending.keys()].map((key) => this.shardOf(key)));
    const stored = properties.getProperties();
    this.reload(stored);
    for (const index of changed) this.dropExpired(index, now);
    for (const index of this.keepMaxEntries()) changed.add(index);
    const updates: Record<string, string> = alsoWrite ? alsoWrite(stored) : {};
    for (const index of changed) {
      updates[this.options.prefix + index] = this.texts[index] = packText(this.fit(index));
    }
    properties.setProperties(updates);
    this.pending.clear();
  }

  private all(): Array<[string, StoredEntry<V>]> {
    return this.shards.flatMap((shard) => [...shard]).sort((a, b) => a[1].at - b[1].at);
  }

  private expired(entry: StoredEntry<V>, now: number): boolean {
    const ttl = this.options.expiresAfterMs;
    return ttl !== undefined && now - entry.at >= ttl;
  }

  private dropExpired(index: number, now: number): void {
    const shard = this.shards[index];
    for (const [key, entry] of shard) if (this.expired(entry, now)) shard.delete(key);
  }

  /** Drops the oldest entries past maxEntries; answers the shards it changed. */
  private keepMaxEntries(): number[] {
    const max = this.options.maxEntries;
    const count = this.shards.reduce((n, shard) => n + shard.size, 0);
    if (max === undefined || count <= max) return [];
    const touched = new Set<number>();
    for (const [key] of this.all().slice(0, count - max)) {
      const index = this.shardOf(key);
      this.shards[index].delete(key);
      touched.add(index);
    }
    return [...touched];
  }

  /** The shard's text, after dropping its oldest entries until it fits. */
  private fit(index: number): string {
    const shard = this.shards[index];
    let text = this.format.format(shard);
    if (text.length <= this.maxShardChars) return text;
    const byAge = [...shard].sort((a, b) => a[1].at - b[1].at);
    let next = 0;
    while (text.length > this.maxShardChars && next < byAge.length) {
      // As many as the excess takes at the mean entry length, then measure again.
      const drop = Math.ceil(((text.length - this.maxShardChars) * shard.size) / text.length);
      for (let n = 0; n < drop && next < byAge.length; n++) shard.delete(byAge[next++][0]);
      text = this.format.format(shard);
    }
    return text;
  }

  private shardOf(key: string): number {
    return shardOf(key, this.options.shards);
  }
}

/** A stable hash of the key (the same in every execution), modulo the number of shards. */
function shardOf(key: string, shards: number): number {
  let hash = 0;
  for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) | 0;
  return Math.abs(hash) % shards;
}

/** `{"key":[value,at]}`. */
const jsonFormat: ShardFormat<unknown> = {
  parse(text) {
    const object = parseObject(text);
    const entries: Array<[string, StoredEntry<unknown>]> = [];
    for (const key of Object.keys(object)) {
      const item = object[key];
      if (Array.isArray(item) && item.length === 2 && typeof item[1] === 'number') {
        entries.push([key, { value: item[0], at: item[1] }]);
      }
    }
    return entries;
  },
  format(entries) {
    const object: Record<string, unknown> = Object.create(null); // a key may be "__proto__"
    for (const [key, entry] of entries) object[key] = [entry.value, entry.at];
    return JSON.stringify(object);
  },
};

/** A JSON object's own fields; {} for damaged text or any other JSON value. */
export function parseObject(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
