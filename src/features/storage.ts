// The document's add-on storage (document properties: 500 KB per document, shared by every feature). When
// it is full anyway (other data, or an add-on in the same document), every action says so in words instead
// of Apps Script's quota message, and the menu offers to free the add-on's own space: its two caches, the
// company index (search rows → domains) and the phone results. Nothing else is dropped: settings, a send's
// journal (a chunk in doubt must be settled, never forgotten), a running job.
import { utf8Bytes } from '../platform';
import { confirm, toast } from '../ui';

export const STORE_FULL_TEXT =
  "This document's add-on storage is full (Apps Script keeps 500 KB of add-on data per document): nothing was saved by this step, and nothing saved before is lost. Free space with Extensions › Outreach › Free add-on storage (it drops the add-on's caches), then run this again.";

/** Apps Script's "exceeded the property storage quota", or a value over 9 KB. */
export function isStoreFull(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /property storage quota|Argument too large: value/i.test(message);
}

/** The caches the add-on may drop: what each holds and what dropping it costs. */
const CACHES = [
  {
    prefix: 'companyIndex.',
    what: 'the company index (the websites of your search results, kept off the sheet)',
    cost: 'rows of the Companies sheet found before need a new search before they can be unlocked',
  },
  {
    prefix: 'phoneResults.',
    what: 'the phone results (numbers already checked)',
    cost: 'a number checked before is paid for again when it is checked again',
  },
];

/** Menu: Free add-on storage. States what is used, what dropping the caches frees and costs, then asks. */
export function freeStorage(): void {
  const properties = PropertiesService.getDocumentProperties();
  const all = properties.getProperties();
  const size = (keys: string[]) => keys.reduce((n, k) => n + utf8Bytes(k) + utf8Bytes(all[k]), 0);
  const used = size(Object.keys(all));
  const caches = CACHES.map((cache) => {
    const keys = Object.keys(all).filter((k) => k.startsWith(cache.prefix));
    return { ...cache, keys, bytes: size(keys) };
  });
  const freed = caches.reduce((n, c) => n + c.bytes, 0);
  const kb = (bytes: number) => `${Math.ceil(bytes / 1024)} KB`;
  if (freed === 0) {
    toast(
      `The add-on's caches are empty (its data here takes ${kb(used)} of 500 KB).`,
      'Free add-on storage',
    );
    return;
  }
  const lines = caches
    .filter((c) => c.bytes > 0)
    .map((c) => `• ${c.what}: ${kb(c.bytes)}. After this, ${c.cost}.`);
  const question = `The add-on's data in this document takes ${kb(used)} of the 500 KB Apps Script allows. Dropping its caches frees ${kb(freed)}:\n${lines.join('\n')}\nSettings, templates, sends in progress and the sheets are not touched.\n\nDrop the caches?`;
  if (!confirm('Free add-on storage', question)) return;
  for (const cache of caches) for (const key of cache.keys) properties.deleteProperty(key);
  toast(`Freed ${kb(freed)} of add-on storage.`, 'Free add-on storage', 10);
}
