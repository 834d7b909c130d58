// A document property holds at most 9 KB. A value that may be larger (a job's state, a 50,000-character
// mail template, a chunk journal with 100 long addresses) is written as JSON kept ASCII (non-ASCII escaped
// as \uXXXX, so 1 byte a character) and split over `key`, `key.part1`, `key.part2`…; the head says how
// many parts there are.

type Properties = GoogleAppsScript.Properties.Properties;

const PART_CHARS = 8000;
const MAX_PARTS = 60;
const HEAD = /^@parts:(\d+)$/;

/** The value under `key` (reassembled), from properties already read with getProperties(), or null. */
export function readLarge<T>(all: Record<string, string>, key: string): T | null {
  const head = all[key];
  if (head === undefined || head === null) return null;
  const parts = HEAD.exec(head);
  let text = head;
  if (parts) {
    text = '';
    for (let i = 1; i < Number(parts[1]); i++) text += all[`${key}.part${i}`] || '';
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/**
 * Writes `value` under `key` with one setProperties call; parts left from a longer value are deleted.
 * Returns the keys written (the head first).
 */
export function writeLarge(
  store: Properties,
  key: string,
  value: unknown,
  all?: Record<string, string>,
  blankStale = false,
): string[] {
  const ascii = JSON.stringify(value).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  const values: Record<string, string> = {};
  let parts = 1;
  if (ascii.length <= PART_CHARS) values[key] = ascii;
  else {
    const count = Math.ceil(ascii.length / PART_CHARS);
    if (count > MAX_PARTS) throw new Error('This is too large to keep in the document.');
    values[key] = `@parts:${count + 1}`;
    for (let i = 0; i < count; i++)
      values[`${key}.part${i + 1}`] = ascii.slice(i * PART_CHARS, (i + 1) * PART_CHARS);
    parts = count + 1;
  }
  const written = Object.keys(values);
  // Parts of a longer value before: emptied in the same call (one write) or deleted (a call each).
  if (blankStale && all)
    for (const name of Object.keys(all))
      if (name.startsWith(`${key}.part`) && Number(name.slice(key.length + 5)) >= parts) values[name] = '';
  store.setProperties(values);
  if (!blankStale) deleteParts(store, key, parts, all);
  return written;
}

/** Deletes the value and all its parts. */
export function deleteLarge(store: Properties, key: string, all?: Record<string, string>): void {
  store.deleteProperty(key);
  deleteParts(store, key, 1, all);
}

function deleteParts(store: Properties, key: string, from: number, all?: Record<string, string>): void {
  const keys = all ? Object.keys(all) : store.getKeys();
  const prefix = `${key}.part`;
  for (const name of keys) {
    if (name.startsWith(prefix) && Number(name.slice(prefix.length)) >= from) store.deleteProperty(name);
  }
}
