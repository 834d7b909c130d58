// Text kept in a property, compressed when that makes it smaller: gzip, then base64 (a property holds a
// string), marked "gz:". Used by the sharded stores (company index, phone results): their shards are
// repetitive text (domains, country codes, phone numbers, base-36 times) that gzip shrinks to about half even
// after base64, so the caches the issue asks for (3,000 search rows, 5,000 numbers) fit in far less of the
// document's 500 KB. Short texts are kept as they are (not worth a service call).
import { utf8Bytes } from './cache';

const MARK = 'gz:';
const MIN_CHARS = 1500;

/** The stored form of `text`: itself, or its compressed form when that takes fewer bytes. */
export function packText(text: string): string {
  if (text.length < MIN_CHARS) return text;
  const gzipped = Utilities.gzip(Utilities.newBlob(text, 'text/plain')).getBytes();
  const packed = MARK + Utilities.base64Encode(gzipped);
  return packed.length < utf8Bytes(text) ? packed : text;
}

/** The text of a stored form written by packText (or any text written before it existed). */
export function unpackText(stored: string): string {
  if (!stored.startsWith(MARK)) return stored;
  const bytes = Utilities.base64Decode(stored.slice(MARK.length));
  return Utilities.ungzip(Utilities.newBlob(bytes, 'application/x-gzip')).getDataAsString();
}
