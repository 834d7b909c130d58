// Where the outbox's record lives: the paying user's own properties, one value per document (split in parts
// by large-property.ts). No other editor's execution can read or write it, and a copy of the spreadsheet (another
// id) starts without one. Changes are made under the user's lock, on a fresh read, so that two executions of the
// same user (a send and the hourly run) never lose each other's writes.
import { readLarge, writeLarge } from '../../platform';

const PREFIX = 'outbox.';
/** What the add-on lets its records take of the user's 500 KB store; the rest stays for settings and others. */
const OUTBOX_BUDGET_CHARS = 420_000;

function store(): GoogleAppsScript.Properties.Properties {
  return PropertiesService.getUserProperties();
}

/** The record's key: a digest of the document's id (the id itself need not be kept). */
function keyOf(documentId: string): string {
  const bytes = Utilities.computeDigest(
    Utilities.DigestAlgorithm.SHA_256,
    documentId,
    Utilities.Charset.UTF_8,
  );
  return PREFIX + Utilities.base64EncodeWebSafe(bytes.slice(0, 9));
}

let known: string | undefined; // one document per execution: asked once

function documentId(): string {
  return (known = known || SpreadsheetApp.getActiveSpreadsheet().getId());
}

/** The document's record as this user's runs last wrote it, or null. */
export function readOutbox<T>(all = store().getProperties()): T | null {
  return readLarge<T>(all, keyOf(documentId()));
}

/**
 * Characters this document's record may still grow by: the budget, less what the user's store holds besides it
 * (other documents, settings…) and the record itself (its JSON).
 */
export function roomLeft(): number {
  const all = store().getProperties();
  const own = keyOf(documentId());
  let used = JSON.stringify(readLarge(all, own) || {}).length;
  for (const [key, value] of Object.entries(all))
    if (key !== own && !key.startsWith(`${own}.part`)) used += key.length + value.length;
  return OUTBOX_BUDGET_CHARS - used;
}

/**
 * Reads the record afresh under the user's lock, lets `change` alter it, and writes what it answers (null: an
 * empty record). Answers what was written.
 */
export function changeOutbox<T>(change: (current: T | null) => T | null): T | null {
  const lock = LockService.getUserLock();
  lock.waitLock(30_000);
  try {
    const all = store().getProperties();
    const key = keyOf(documentId());
    const next = change(readLarge<T>(all, key));
    // A record grows and shrinks with each send: its parts are rewritten in one call, never deleted one by one.
    writeLarge(store(), key, next, all, true);
    return next;
  } finally {
    lock.releaseLock();
  }
}
