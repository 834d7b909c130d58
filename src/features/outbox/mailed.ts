// Who got each campaign's first mail, for as long as it matters: one set per campaign of the document, in the
// payer's record (ledger.ts), whatever the sheets say. A set holds each recipient's keyed fingerprint (the top
// `bits` of a 64-bit keyed hash), sorted and Rice-coded. At EXACT_BITS a stranger matches a recipient about once
// in 10^7 looks at 100,000 recipients: exact for any use. When the user's store runs short, the oldest sets are cut
// to fewer bits (compact), about 2 characters a recipient; then an address never mailed may match one that was
// (1 in 2,000 looks) and is left out, saying so. A mailed address always matches, at any width, so nobody gets
// the mail twice: cutting keeps each fingerprint's top bits, the bits a narrower fingerprint has.
import { DIGITS, hash32 } from './marks';

export interface MailedSet {
  bits: number;
  fingerprints: Set<number>;
  /** When its first and its latest first mail went (ms). */
  first: number;
  last: number;
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
/** The width a compact set is cut to: strangers match once in 2^11 looks (and never below 20 bits). */
const SPARE_BITS = 11;

export function newMailedSet(at: number): MailedSet {
  return { bits: EXACT_BITS, fingerprints: new Set(), first: at, last: at };
}

/** The fingerprint of `key` (an address key): the top `bits` (at most 52) of a 64-bit hash keyed by the payer's secret. */
export function fingerprint(secret: string, campaign: string, key: string, bits: number): number {
  const high = hash32(`${secret}:mailed:${campaign}`, key);
  if (bits <= 32) return Math.floor(high / 2 ** (32 - bits));
  const low = hash32(`${secret}:mailed2:${campaign}`, key);
  return high * 2 ** (bits - 32) + Math.floor(low / 2 ** (64 - bits));
}

/** The width `set` is cut to when the store runs short; its own when it is that narrow already. */
export function compactBits(set: MailedSet): number {
  return Math.min(
    set.bits,
    Math.max(20, Math.ceil(Math.log2(Math.max(2, set.fingerprints.size))) + SPARE_BITS),
  );
}

/** Cuts `set` to `bits`: each fingerprint keeps its top bits (what the narrower fingerprint of its address is). */
export function cutMailed(set: MailedSet, bits: number): void {
  if (bits >= set.bits) return;
  const shift = 2 ** (set.bits - bits);
  set.fingerprints = new Set([...set.fingerprints].map((v) => Math.floor(v / shift)));
  set.bits = bits;
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

class BitWriter {
  private readonly digits: string[] = [];
  private word = 0;
  private used = 0;

  bit(b: number): void {
    this.word = this.word * 2 + b;
    if (++this.used === 6) {
      this.digits.push(DIGITS[this.word]);
      this.word = 0;
      this.used = 0;
    }
  }

  number(value: number, width: number): void {
    for (let i = width - 1; i >= 0; i--) this.bit(Math.floor(value / 2 ** i) % 2);
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
    const digit = DIGITS.indexOf(this.text[Math.floor(this.at / 6)] || 'A');
    const b = Math.floor(digit / 2 ** (5 - (this.at % 6))) % 2;
    this.at++;
    return b;
  }

  number(width: number): number {
    let value = 0;
    for (let i = 0; i < width; i++) value = value * 2 + this.bit();
    return value;
  }
}
