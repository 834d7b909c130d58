// Phone numbers as users keep them in cells, turned into what the phone-check service receives.
//
// Canonical form: E.164, a `+` followed by 7 to 15 digits, the first not 0 (`+14155550123`). The service
// accepts "E.164 or digits only"; sending one form only means one cache key per number, whatever way it was
// written. Accepted input:
//   - text with spaces, dashes, dots, slashes or brackets: `+1 (415) 555-0123`, `0049 30 1234567`;
//   - a leading `+` or `00` (international prefix); without either, the digits are taken as an
//     international number without its `+` (a cell holding a number loses the `+`);
//   - a JS number from a cell: `14155550123` (whole, positive, at most 15 digits).
// Refused, with a reason: letters or other signs, a single leading 0 (a national number: the country code
// is missing), fewer than 7 or more than 15 digits, fractions, numbers too large to be exact.

export type PhoneNormalization = { ok: true; phone: string } | { ok: false; reason: string };

const SEPARATORS = /[\s\u00A0\u2000-\u200B\u202F\u205F\u3000\-\u2010-\u2015.()[\]/]/g;

export function normalizePhone(input: unknown): PhoneNormalization {
  if (typeof input === 'number') {
    if (!Number.isFinite(input) || input <= 0) return { ok: false, reason: 'not a phone number' };
    if (!Number.isInteger(input)) return { ok: false, reason: 'not a whole number' };
    if (!Number.isSafeInteger(input)) {
      return { ok: false, reason: 'too long to be kept as a number: format the cell as text' };
    }
    return fromDigits(String(input));
  }
  if (typeof input !== 'string') {
    return { ok: false, reason: input === null || input === undefined ? 'empty' : 'not a phone number' };
  }
  const text = input.trim();
  if (text === '') return { ok: false, reason: 'empty' };
  const compact = text.replace(SEPARATORS, '');
  if (/^\+\d+$/.test(compact)) return fromDigits(compact.slice(1));
  if (/^00\d+$/.test(compact)) return fromDigits(compact.slice(2));
  if (/^\d+$/.test(compact)) {
    if (compact.startsWith('0')) {
      return { ok: false, reason: 'national number: add the country code, e.g. +44 20 7946 0000' };
    }
    return fromDigits(compact);
  }
  if (/[A-Za-z]/.test(compact)) return { ok: false, reason: 'contains letters' };
  return { ok: false, reason: 'contains characters other than digits, spaces, dashes, dots and brackets' };
}

function fromDigits(digits: string): PhoneNormalization {
  if (digits.startsWith('0')) return { ok: false, reason: 'a country code never starts with 0' };
  if (digits.length < 7) return { ok: false, reason: 'too short' };
  if (digits.length > 15) return { ok: false, reason: 'too long (E.164 allows at most 15 digits)' };
  return { ok: true, phone: `+${digits}` };
}
