// Phone numbers as users keep them in cells, turned into what the phone-check service receives.
//
// Canonical form: E.164, a `+` followed by 7 to 15 digits, the first not 0 (`+14155550123`). The service
// accepts "E.164 or digits only"; sending one form only means one cache key per number, whatever way it was
// written. Accepted input:
//   - text with spaces, dashes, dots, slashes or brackets: `+1 (415) 555-0123`, `0049 30 1234567`;
//   - a leading `+` or `00` (international prefix); without either, the digits are taken as an
//     international number without its `+` (a cell holding a number loses the `+`) when they start with a
//     country calling code followed by as many digits as that country's numbers have;
//   - a JS number from a cell: `14155550123` (whole, positive, at most 15 digits).
// Refused for free, with a reason: letters or other signs; a national number (a single leading 0, an area
// code in brackets first, or digits that start with no country code: `(555) 123-4567` is not +55…); fewer
// than 7 or more than 15 digits; fractions; numbers too large to be exact.
import { startsWithCountryCode } from './calling-codes';

export type PhoneNormalization = { ok: true; phone: string } | { ok: false; reason: string };

/** Why a number without its country code is refused; "07946 095 8" and "(555) 123-4567" both get it. */
const NATIONAL_NUMBER = 'add the country code, e.g. +44 20 7946 0000';

const SEPARATORS = /[\s\u00A0\u2000-\u200B\u202F\u205F\u3000\-\u2010-\u2015.()[\]/]/g;

export function normalizePhone(input: unknown): PhoneNormalization {
  if (typeof input === 'number') {
    if (!Number.isFinite(input) || input <= 0) return { ok: false, reason: 'not a phone number' };
    if (!Number.isInteger(input)) return { ok: false, reason: 'not a whole number' };
    if (!Number.isSafeInteger(input)) {
      return { ok: false, reason: 'too long to be kept as a number: format the cell as text' };
    }
    return withoutPrefix(String(input));
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
    // "(555) 123-4567": an area code in brackets opens a national number.
    if (text.startsWith('(')) return { ok: false, reason: NATIONAL_NUMBER };
    return withoutPrefix(compact);
  }
  if (/[A-Za-z]/.test(compact)) return { ok: false, reason: 'contains letters' };
  return { ok: false, reason: 'contains characters other than digits, spaces, dashes, dots and brackets' };
}

/** Digits written without `+` or `00`: an international number only when a country code starts them. */
function withoutPrefix(digits: string): PhoneNormalization {
  if (digits.startsWith('0')) return { ok: false, reason: NATIONAL_NUMBER };
  const checked = fromDigits(digits);
  if (checked.ok && !startsWithCountryCode(digits)) return { ok: false, reason: NATIONAL_NUMBER };
  return checked;
}

function fromDigits(digits: string): PhoneNormalization {
  if (digits.startsWith('0')) return { ok: false, reason: 'a country code never starts with 0' };
  if (digits.length < 7) return { ok: false, reason: 'too short, at least 7 digits' };
  if (digits.length > 15) return { ok: false, reason: 'too long, at most 15 digits' };
  return { ok: true, phone: `+${digits}` };
}
