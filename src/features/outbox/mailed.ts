// Who got each campaign's first mail, for as long as it matters: one set per campaign of the document, in the
// payer's record (ledger.ts), whatever the sheets say. Exact sets of 100,000 addresses do not fit in the user's
// 500 KB store, so a set holds each recipient's keyed fingerprint (the top `bits` of a 32-bit keyed hash),
// sorted and Rice-coded: about 12 bits a recipient. Its only error is one way: an address that was never mailed
// may match another's fingerprint (1 in 2,000 looks while a set is at its planned size, 1 in 500 at four times) and is then left
// out, saying so; a mailed address always matches, so nobody gets the mail twice. `bits` is fixed when a set
// is made (the fingerprints of the addresses are kept, not the addresses: they cannot be widened later).
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

/** Bits beyond four times the planned size: a stranger matches once in 2^11 looks at the planned size, 2^9 at four times. */
const SPARE_BITS = 9;
const MIN_PLANNED = 1000;

/** A new set for about `planned` recipients (a campaign grows: four times its first send is planned for). */
export function newMailedSet(planned: number, at: number): MailedSet {
  const size = Math.max(MIN_PLANNED, planned * 4);
  const bits = Math.min(32, Math.ceil(Math.log2(size)) + SPARE_BITS);
  return { bits, fingerprints: new Set(), first: at, last: at };
}

/** The fingerprint of `key` (an address key) in `set`, under the payer's secret and the campaign's mark. */
export function fingerprint(secret: string, campaign: string, key: string, bits: number): number {
  return Math.floor(hash32(`${secret}:mailed:${campaign}`, key) / 2 ** (32 - bits));
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
