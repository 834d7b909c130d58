// Search rows carry a domain that must never be shown (no cell, note, link or viewer-readable metadata), yet
// unlocking a row later needs it. The index maps search row id → (domain, country) in document properties
// (a ShardedStore: `companyIndex.0` … `companyIndex.31`, each `{"<row id>":[domain, country, savedAt]}`)
// and drops the oldest entries past MAX_ENTRIES (the store's whole quota is 500 KB and other features
// share it).
import { withDocumentLock } from '../../platform/locks';
import { parseObject, type ShardFormat, ShardedStore, type StoredEntry } from '../../platform/sharded-store';

export interface CompanyKey {
  domain: string;
  countryCode: string;
}

export const MAX_ENTRIES = 3000;

/** `{"<row id>":[domain, countryCode, savedAt]}` */
const FORMAT: ShardFormat<CompanyKey> = {
  parse(text) {
    const object = parseObject(text);
    const entries: Array<[string, StoredEntry<CompanyKey>]> = [];
    for (const id of Object.keys(object)) {
      const item = object[id];
      if (!Array.isArray(item) || typeof item[0] !== 'string' || typeof item[1] !== 'string') continue;
      entries.push([id, { value: { domain: item[0], countryCode: item[1] }, at: Number(item[2]) || 0 }]);
    }
    return entries;
  },
  format(entries) {
    const object: Record<string, unknown> = Object.create(null);
    for (const [id, { value, at }] of entries) object[id] = [value.domain, value.countryCode, at];
    return JSON.stringify(object);
  },
};

export class CompanyIndex {
  private constructor(private readonly store: ShardedStore<CompanyKey>) {}

  /** Reads every shard with one getProperties call. */
  static load(): CompanyIndex {
    return new CompanyIndex(
      ShardedStore.load({ prefix: 'companyIndex.', shards: 32, maxEntries: MAX_ENTRIES, format: FORMAT }),
    );
  }

  get(id: string): CompanyKey | undefined {
    return this.store.get(id);
  }

  put(id: string, key: CompanyKey, now = Date.now()): void {
    this.store.set(id, { domain: key.domain, countryCode: key.countryCode }, now);
  }

  /**
   * Writes the changed shards, merged with what another search wrote meanwhile (under the document lock
   * when it can be had within a few seconds), oldest entries dropped past MAX_ENTRIES.
   */
  save(): void {
    const write = () => this.store.save();
    withDocumentLock(5000, write, write, { flush: false });
  }
}
