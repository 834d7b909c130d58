// Who got each campaign's first mail, for as long as it matters: one set per campaign of the document, in the
// ledger (ledger.ts), whatever the sheets say. A set holds each recipient's keyed fingerprint (the top
// `bits` of a 64-bit keyed hash), sorted and Rice-coded. At EXACT_BITS a stranger matches a recipient about once
// in 10^7 looks at 100,000 recipients: exact for any use. When the user's store runs short, the oldest sets are cut
// to fewer bits (compact), about 2 characters a recipient; then an address never mailed may match one that was
// (1 in 2,000 looks) and is left out, saying so. Still short, they are cut to the narrowest width (about 1.4
// characters a recipient, 1 in 64 strangers left out). A mailed address always matches, at any width, so nobody gets
// the mail twice: cutting keeps each fingerprint's top bits, the bits a narrower fingerprint has.
import { DIGITS, hash32 } from './marks';

export interface MailedSet {
  bits: number;
  fingerprints: Set<number>;
  /** When its first and its latest first mail went (ms). */
  first: number;
  last: number;
  /** The set as read, while unchanged: stored again as it was, without coding it again. */
  coded?: { text: string; n: number };
}

/** A stored set, decoded only when first looked into (a record is read by every run; most never look). */
export function readMailed(m: StoredMailed, at: (seconds: number) => number): MailedSet {
  let values: Set<number> | null = null;
  return {
    bits: m.b,
    first: at(m.f),
    last: at(m.l),
    coded: { text: m.s, n: m.n },
    get fingerprints() {
      return (values = values || decodeMailed(m.s, m.b, m.n));
    },
    set fingerprints(next: Set<number>) {
      values = next;
    },
  };
}

/** `value` joins the set (its coded form is then stale). */
export function addFingerprint(set: MailedSet, value: number): void {
  if (set.fingerprints.has(value)) return;
  set.fingerprints.add(value);
  set.coded = undefined;
}

/** The set as stored: its count and its coded text. */
export function codedMailed(set: MailedSet): { text: string; n: number } {
  return set.coded || { text: encodeMailed(set), n: set.fingerprints.size };
}

/** A set as stored: campaign mark, bits, first and last (seconds from EPOCH), count and the coded set. */
export interface StoredMailed {
  c: string;
  b: number;
  f: number;
  l: number;
  n: number;
  s: string;
}

/** A new set's width: strangers match below 1 in 10^7 looks up to 100,000 recipients. */
export const EXACT_BITS = 40;
/**
 * The widths a set is cut to as the store runs shorter, as bits above its size: strangers match once in 2^11 looks,
 * then once in 2^6 (and never below 20 bits).
 */
export const COMPACT_SPARE_BITS = [11, 6];

export function newMailedSet(at: number, bits = EXACT_BITS): MailedSet {
  return { bits, fingerprints: new Set(), first: at, last: at };
}

/** The fingerprint of `key` (an address key): the top `bits` (at most 52) of a 64-bit hash keyed by the payer's secret. */
export function fingerprint(secret: string, campaign: string, key: string, bits: number): number {
  const high = hash32(`${secret}:mailed:${campaign}`, key);
  if (bits <= 32) return Math.floor(high / 2 ** (32 - bits));
  const low = hash32(`${secret}:mailed2:${campaign}`, key);
  return high * 2 ** (bits - 32) + Math.floor(low / 2 ** (64 - bits));
}

/** The width `set` is cut to with `spare` bits above its size; its own when it is that narrow already. */
export function compactBits(set: MailedSet, spare = COMPACT_SPARE_BITS[0]): number {
  return Math.min(set.bits, Math.max(20, Math.ceil(Math.log2(Math.max(2, set.fingerprints.size))) + spare));
}

/** Cuts `set` to `bits`: each fingerprint keeps its top bits (what the narrower fingerprint of its address is). */
export function cutMailed(set: MailedSet, bits: number): void {
  if (bits >= set.bits) return;
  const shift = 2 ** (set.bits - bits);
  set.fingerprints = new Set([...set.fingerprints].map((v) => Math.floor(v / shift)));
  set.bits = bits;
  set.coded = undefined;
}

/** About how many characters a set takes coded at `bits`. */
export function codedChars(n: number, bits: number): number {
  return Math.ceil((n * (Math.max(0, bits - Math.log2(Math.max(1, n))) + 2)) / 6);
}

export function encodeMailed(set: MailedSet): string {
  const values = [...set.fingerprints].sort((a, b) => a - b);
  const k = riceParameter(set.bits, values.length);
  const out = new BitWriter();
  let previous = -1;
  for (const v of values) {
    const delta = v - previous - 1;
    previous = v;
    const q = Math.floor(delta / 2 ** k);
    for (let i = 0; i < q; i++) out.bit(1);
    out.bit(0);
    out.number(delta - q * 2 ** k, k);
  }
  return out.text();
}

export function decodeMailed(text: string, bits: number, n: number): Set<number> {
  const k = riceParameter(bits, n);
  const input = new BitReader(text);
  const values = new Set<number>();
  let previous = -1;
  for (let i = 0; i < n; i++) {
    let q = 0;
    while (input.bit() === 1) q++;
    previous += q * 2 ** k + input.number(k) + 1;
    values.add(previous);
  }
  return values;
}

/** The Rice parameter of n values spread over 2^bits: the mean gap's whole power of two. */
function riceParameter(bits: number, n: number): number {
  return Math.max(0, Math.floor(Math.log2(2 ** bits / Math.max(1, n))));
}

/** Each digit's value, by character code. */
const DIGIT_VALUE: number[] = [];
for (let i = 0; i < DIGITS.length; i++) DIGIT_VALUE[DIGITS.charCodeAt(i)] = i;

/** Bits written six to a digit, several at a time (a set of 100,000 is coded in a few tens of ms). */
class BitWriter {
  private readonly digits: string[] = [];
  private word = 0;
  private used = 0;

  bit(b: number): void {
    this.number(b, 1);
  }

  number(value: number, width: number): void {
    let rest = value;
    for (let left = width; left > 0;) {
      const take = Math.min(left, 6 - this.used);
      const scale = 2 ** (left - take);
      const top = Math.floor(rest / scale);
      rest -= top * scale;
      left -= take;
      this.word = this.word * 2 ** take + top;
      this.used += take;
      if (this.used === 6) {
        this.digits.push(DIGITS[this.word]);
        this.word = 0;
        this.used = 0;
      }
    }
  }

  text(): string {
    if (this.used === 0) return this.digits.join('');
    return this.digits.join('') + DIGITS[this.word * 2 ** (6 - this.used)];
  }
}

class BitReader {
  private at = 0;
  constructor(private readonly text: string) {}

  bit(): number {
    return this.number(1);
  }

  number(width: number): number {
    let value = 0;
    for (let left = width; left > 0;) {
      const offset = this.at % 6;
      const take = Math.min(left, 6 - offset);
      const digit = DIGIT_VALUE[this.text.charCodeAt(Math.floor(this.at / 6))] || 0;
      const bits = Math.floor(digit / 2 ** (6 - offset - take)) % 2 ** take;
      value = value * 2 ** take + bits;
      this.at += take;
      left -= take;
    }
    return value;
  }
}
