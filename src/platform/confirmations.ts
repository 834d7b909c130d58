// What a user confirmed before spending, kept in that user's own properties: no other editor's execution
// can read or change it, and it travels with no document. A document's send keeps only its id. Entries of
// sends that never ended (a document deleted mid-send) are dropped after 45 days, when a new one is kept.
import { deleteLarge, readLarge, writeLarge } from './large-property';

const PREFIX = 'confirm.';
const KEEP_MS = 45 * 24 * 3600 * 1000;

/** Keeps `value` (with its time) and answers its id. */
export function keepConfirmation(value: object): string {
  const store = PropertiesService.getUserProperties();
  const all = store.getProperties();
  for (const key of Object.keys(all)) {
    if (!key.startsWith(PREFIX) || key.includes('.part')) continue;
    const old = readLarge<{ at?: number }>(all, key);
    if (!old || !old.at || Date.now() - old.at > KEEP_MS) deleteLarge(store, key, all);
  }
  const id = Utilities.getUuid().replace(/-/g, '').slice(0, 12);
  writeLarge(store, PREFIX + id, { ...value, at: Date.now() }, {});
  return id;
}

export function readConfirmation<T>(id: string): T | null {
  return readLarge<T>(PropertiesService.getUserProperties().getProperties(), PREFIX + id);
}

export function forgetConfirmation(id: string): void {
  deleteLarge(PropertiesService.getUserProperties(), PREFIX + id);
}

/** Replaces what an id holds (the same user adds rows or confirms a changed mail); its time is renewed. */
export function updateConfirmation(id: string, value: object): void {
  writeLarge(PropertiesService.getUserProperties(), PREFIX + id, { ...value, at: Date.now() }, {});
}
