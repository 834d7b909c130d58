// The document's mark: 6 random hex characters, made once per document (under the document lock, so two
// executions never make two) and kept in document properties. Every chunk this document sends carries it in
// its tag ("<campaign> · #<mark><10 random hex>", outbox/journal.ts newTag), so a task whose subject ends with
// such a tag is one this document sent. Tracking reads a mail only when its task carries the mark: ids found
// in cells, which any editor can change, are never fetched with a user's key otherwise.
import { withDocumentLock } from './locks';

const MARK = 'document.mark';
const FORMAT = /^[0-9a-f]{6}$/;
/** Random hex characters after the mark in a chunk tag. */
export const TAG_RANDOM_CHARS = 10;

/** Read once per execution (each starts afresh): a batch of 60 chunks makes 60 tags. */
let known: string | null = null;

/** This document's mark, made now if it has none yet. */
export function documentMark(): string {
  if (known) return known;
  const mark = existingMark();
  if (mark) return (known = mark);
  return (known = withDocumentLock(
    10_000,
    () => existingMark() || makeMark(),
    () => {
      throw new Error('The document is busy (another execution holds its lock): try again in a moment.');
    },
    { flush: false },
  ));
}

/** This document's mark, or null when it never sent a chunk (no task can carry it yet). */
export function existingMark(): string | null {
  const mark = PropertiesService.getDocumentProperties().getProperty(MARK);
  return mark && FORMAT.test(mark) ? mark : null;
}

/** True when a task subject ends with a chunk tag carrying this mark ("… · #<mark><10 hex>"). */
export function carriesMark(taskSubject: string | null | undefined, mark: string | null): boolean {
  if (!mark || !taskSubject) return false;
  return new RegExp(`#${mark}[0-9a-f]{${TAG_RANDOM_CHARS}}$`).test(taskSubject.trim());
}

function makeMark(): string {
  const mark = Utilities.getUuid().replace(/-/g, '').slice(0, 6).toLowerCase();
  PropertiesService.getDocumentProperties().setProperty(MARK, mark);
  return mark;
}
