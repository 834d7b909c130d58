// Search rows carry a domain that must never be shown (no cell, note, link or viewer-readable metadata), yet
// unlocking a row later needs it. The index maps search row id → (domain, country, a mark of the name the
// row showed) in document properties (a ShardedStore: `companyIndex.0` … `companyIndex.31`, each
// `{"<row id>":[domain, country, savedAt, nameMark]}`) and drops the oldest entries past MAX_ENTRIES (the
// store's whole quota is 500 KB and other features share it). Any editor can type a Search ID into a row:
// the name mark and the country tell whether the row still shows the company its id was found for, so an
// unlock never pays for a company the row does not show.
import {
  withDocumentLock,
  parseObject,
  type ShardFormat,
  ShardedStore,
  type StoredEntry,
} from '../../platform';

export interface CompanyKey {
  domain: string;
  countryCode: string;
  /** nameMark() of the Company cell the search wrote (absent in entries saved before it was kept). */
  nameMark?: string;
}

const MAX_ENTRIES = 3000;

/** `{"<row id>":[domain, countryCode, savedAt]}` */
const FORMAT: ShardFormat<CompanyKey> = {
  parse(text) {
    const object = parseObject(text);
    const entries: Array<[string, StoredEntry<CompanyKey>]> = [];
    for (const id of Object.keys(object)) {
      const item = object[id];
      if (!Array.isArray(item) || typeof item[0] !== 'string' || typeof item[1] !== 'string') continue;
      const value: CompanyKey = { domain: item[0], countryCode: item[1] };
      if (typeof item[3] === 'string' && item[3]) value.nameMark = item[3];
      entries.push([id, { value, at: Number(item[2]) || 0 }]);
    }
    return entries;
  },
  format(entries) {
    const object: Record<string, unknown> = Object.create(null);
    for (const [id, { value, at }] of entries)
      object[id] = value.nameMark
        ? [value.domain, value.countryCode, at, value.nameMark]
        : [value.domain, value.countryCode, at];
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
    const value: CompanyKey = { domain: key.domain, countryCode: key.countryCode };
    if (key.nameMark) value.nameMark = key.nameMark;
    this.store.set(id, value, now);
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

/**
 * 32 bits of the name as shown (FNV-1a over the trimmed, lower-case text, base 36): enough to notice a row
 * that shows another company, short enough for 3,000 entries, and it says nothing of the name.
 */
export function nameMark(name: string): string {
  const text = name.trim().replace(/\s+/g, ' ').toLowerCase();
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

/** True when a row showing this name and country is the company its search entry was saved for. */
export function rowShowsCompany(name: string, country: string, key: CompanyKey): boolean {
  if (country.trim().toUpperCase() !== key.countryCode.toUpperCase()) return false;
  return !key.nameMark || nameMark(name) === key.nameMark;
}
