// Search rows carry a domain that must never be shown (no cell, note, link or viewer-readable metadata), yet
// unlocking a row later needs it. The index maps search row id → (domain, country) in document properties,
// split into shards under the 9 KB per value limit, and drops the oldest entries when it grows past
// MAX_ENTRIES (the store's whole quota is 500 KB and other features share it).

export interface CompanyKey {
  domain: string;
  countryCode: string;
}

const PREFIX = 'companyIndex.';
const SHARDS = 32;
export const MAX_ENTRIES = 3000;
const MAX_SHARD_CHARS = 8000;

/** [domain, countryCode, savedAt (ms)] */
type Entry = [string, string, number];
type Shard = Record<string, Entry>;

export class CompanyIndex {
  private readonly shards: Shard[];
  private readonly dirty = new Set<number>();

  private constructor(shards: Shard[]) {
    this.shards = shards;
  }

  /** Reads every shard with one getProperties call. */
  static load(): CompanyIndex {
    const all = PropertiesService.getDocumentProperties().getProperties();
    const shards: Shard[] = [];
    for (let i = 0; i < SHARDS; i++) shards.push(parseShard(all[PREFIX + i]));
    return new CompanyIndex(shards);
  }

  get size(): number {
    return this.shards.reduce((n, shard) => n + Object.keys(shard).length, 0);
  }

  get(id: string): CompanyKey | undefined {
    const entry = this.shards[shardOf(id)][id];
    return entry ? { domain: entry[0], countryCode: entry[1] } : undefined;
  }

  put(id: string, key: CompanyKey, now = Date.now()): void {
    const shard = shardOf(id);
    this.shards[shard][id] = [key.domain, key.countryCode, now];
    this.dirty.add(shard);
  }

  /** Prunes, then writes the changed shards with one setProperties call. */
  save(): void {
    this.prune();
    if (this.dirty.size === 0) return;
    const updates: Record<string, string> = {};
    for (const shard of this.dirty) updates[PREFIX + shard] = JSON.stringify(this.shards[shard]);
    PropertiesService.getDocumentProperties().setProperties(updates);
    this.dirty.clear();
  }

  private prune(): void {
    const excess = this.size - MAX_ENTRIES;
    if (excess > 0) {
      const oldest = this.shards
        .flatMap((shard, index) => Object.entries(shard).map(([id, entry]) => ({ id, index, at: entry[2] })))
        .sort((a, b) => a.at - b.at)
        .slice(0, excess);
      for (const { id, index } of oldest) {
        delete this.shards[index][id];
        this.dirty.add(index);
      }
    }
    for (const index of this.dirty) {
      const shard = this.shards[index];
      while (JSON.stringify(shard).length > MAX_SHARD_CHARS) {
        const [oldestId] = Object.entries(shard).sort((a, b) => a[1][2] - b[1][2])[0];
        delete shard[oldestId];
      }
    }
  }
}

function parseShard(text: string | undefined): Shard {
  if (!text) return {};
  try {
    const parsed = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Shard) : {};
  } catch {
    return {};
  }
}

function shardOf(id: string): number {
  let hash = 0;
  for (let i = 0; i < id.length; i++) hash = (hash * 31 + id.charCodeAt(i)) | 0;
  return Math.abs(hash) % SHARDS;
}
