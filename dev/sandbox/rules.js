'use strict';
// The documented, deterministic rules of the sandbox (see dev/sandbox/README.md). Everything here is a pure
// function or a constant so tests, the playground and the benchmark can compute the expected outcome.

const { SECOND, MINUTE, HOUR, DAY } = require('./util');

const DEMO_KEYS = Object.freeze({
  paid: 'sandbox-paid',
  free: 'sandbox-free',
  low: 'sandbox-low',
  revoked: 'sandbox-revoked',
  quota: 'sandbox-quota',
  phone: 'sandbox-phone',
  phoneEmpty: 'sandbox-phone-empty',
});

/** Initial outreach accounts. `monthlyExpiresAt` = sandbox start (or last reset) + MONTHLY_VALIDITY_MS. */
const OUTREACH_ACCOUNTS = Object.freeze({
  [DEMO_KEYS.paid]: {
    userId: 'usr_sandbox_paid',
    plan: 'paid',
    monthlyPoints: 100,
    addonPoints: 400,
    monthlyEdm: 1000,
    addonEdm: 2000,
  },
  [DEMO_KEYS.free]: {
    userId: 'usr_sandbox_free',
    plan: 'free',
    monthlyPoints: 20,
    addonPoints: 0,
    monthlyEdm: 0,
    addonEdm: 0,
  },
  [DEMO_KEYS.low]: {
    userId: 'usr_sandbox_low',
    plan: 'paid',
    monthlyPoints: 1,
    addonPoints: 1,
    monthlyEdm: 60,
    addonEdm: 40,
  },
  [DEMO_KEYS.revoked]: {
    userId: 'usr_sandbox_revoked',
    plan: 'paid',
    revoked: true,
    monthlyPoints: 100,
    addonPoints: 0,
    monthlyEdm: 1000,
    addonEdm: 0,
  },
  [DEMO_KEYS.quota]: {
    userId: 'usr_sandbox_quota',
    plan: 'paid',
    dailyQuotaExhausted: true,
    monthlyPoints: 100,
    addonPoints: 0,
    monthlyEdm: 1000,
    addonEdm: 0,
  },
});

const PHONE_ACCOUNTS = Object.freeze({
  [DEMO_KEYS.phone]: { credits: 1000 },
  [DEMO_KEYS.phoneEmpty]: { credits: 0 },
});

const MONTHLY_VALIDITY_MS = 20 * DAY;
const UNLOCK_FREE_WINDOW_MS = 30 * DAY;

const RATE_LIMITS = Object.freeze({
  outreach: { limit: 60, windowMs: MINUTE },
  phone: { limit: 1000, windowMs: HOUR },
});

/** Delivery timings, all relative to the task's createdAt (virtual clock). */
const TIMINGS = Object.freeze({
  pendingMs: 2 * SECOND, // task and mails: pending  [t, t+2s)
  firstResolveMs: 5 * SECOND, // mail i is sent/failed at t + 5s + i * 20ms (requested before that)
  perMailMs: 20,
  callbackDelayMs: 3 * SECOND, // callbackReceivedAt = sentAt + 3s (sent mails only)
  taskFinalMs: 10 * SECOND, // task: requested [t+2s, t+10s), final from t+10s (completedAt = t+10s)
  openDelayMs: MINUTE, // an "opening" recipient opens the mail at sentAt + 60s
});

// ---------------------------------------------------------------------------------------------- phone

const PHONE_E164 = /^\+[1-9]\d{7,14}$/;
const PHONE_DIGITS = /^\d{8,15}$/;

/** E.164 (`+`, 8-15 digits, first non-zero) or digits only (8-15 digits). Nothing else is accepted. */
function isValidPhone(phone) {
  return typeof phone === 'string' && (PHONE_E164.test(phone) || PHONE_DIGITS.test(phone));
}

/** Registration rule: a valid number is registered iff its last digit is even. */
function isRegisteredPhone(phone) {
  return isValidPhone(phone) && Number(phone[phone.length - 1]) % 2 === 0;
}

const phoneBody = (i) => {
  if (!Number.isInteger(i) || i < 0 || i > 999999) throw new RangeError('i must be an integer 0..999999');
  return '+1202555' + String(i).padStart(6, '0');
};
/** The i-th registered test number (E.164, 14 digits, ends in 2). */
const registeredPhoneNumber = (i) => phoneBody(i) + '2';
/** The i-th unregistered test number (E.164, 14 digits, ends in 1). */
const unregisteredPhoneNumber = (i) => phoneBody(i) + '1';

const PHONE_MESSAGES = Object.freeze({
  1000: 'Internal error',
  1001: 'Missing API key',
  1002: 'Invalid phone parameter',
  1003: 'Invalid API key',
  1004: 'Insufficient credits',
  1005: 'Rate limit exceeded',
  1006: 'Upstream service error',
  1007: 'Failed to deduct credit',
});

const PHONE_HTTP_STATUS = Object.freeze({
  1000: 500,
  1001: 401,
  1002: 400,
  1003: 401,
  1004: 402,
  1005: 429,
  1006: 502,
  1007: 500,
});

// ----------------------------------------------------------------------------------------------- mail

/**
 * Outcome of a mail to `email`:
 * - fails iff the local part starts with "bounce" or the domain ends in ".invalid" (case-insensitive);
 * - a sent mail is opened iff its local part contains "open" (case-insensitive).
 */
function mailOutcome(email) {
  const lower = String(email).toLowerCase();
  const at = lower.lastIndexOf('@');
  const local = lower.slice(0, at);
  const domain = lower.slice(at + 1);
  if (domain.endsWith('.invalid')) {
    return { fails: true, failureReason: 'Domain does not exist (no MX record)', opens: false };
  }
  if (local.startsWith('bounce')) {
    return { fails: true, failureReason: 'Mailbox unavailable (550 hard bounce)', opens: false };
  }
  return { fails: false, failureReason: null, opens: local.includes('open') };
}

// HTML5-style address check, plus a dot in the domain and the 254-character limit.
const EMAIL_RE =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const isValidEmail = (email) => typeof email === 'string' && email.length <= 254 && EMAIL_RE.test(email);

/** Strips leading/trailing whitespace, control (Cc) and invisible format (Cf: U+200B-U+200D, U+2060, U+FEFF...) characters. */
function cleanTaskSubject(text) {
  return String(text).replace(/^[\s\p{Cc}\p{Cf}]+|[\s\p{Cc}\p{Cf}]+$/gu, '');
}

/** Replaces every variable name written bare as a whole word (`\bname\b`, case-sensitive) in one pass. */
function substituteVariables(text, variables) {
  const names = Object.keys(variables || {});
  if (!names.length) return text;
  names.sort((a, b) => b.length - a.length);
  const re = new RegExp(`\\b(?:${names.join('|')})\\b`, 'g');
  return text.replace(re, (name) => variables[name]);
}

const ISO_COUNTRIES = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY ' +
    'BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK ' +
    'FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR ' +
    'IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ' +
    'ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM ' +
    'PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF ' +
    'TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF YE YT ZA ZM ZW'
  ).split(' '),
);

/**
 * What an `echoKey` fault adds to its error text: the request's key lower-cased, and a 20-character
 * fragment of it as sent (the whole key but its first and last characters when it is shorter than 22), as
 * a careless service might echo them. Empty without a key.
 */
function keyEcho(key) {
  if (!key) return '';
  const fragment = key.length >= 22 ? key.slice(2, 22) : key.slice(1, -1);
  return ` (key ${key.toLowerCase()} refused; fragment seen: ...${fragment}...)`;
}

module.exports = {
  keyEcho,
  DEMO_KEYS,
  OUTREACH_ACCOUNTS,
  PHONE_ACCOUNTS,
  MONTHLY_VALIDITY_MS,
  UNLOCK_FREE_WINDOW_MS,
  RATE_LIMITS,
  TIMINGS,
  isValidPhone,
  isRegisteredPhone,
  registeredPhoneNumber,
  unregisteredPhoneNumber,
  PHONE_MESSAGES,
  PHONE_HTTP_STATUS,
  mailOutcome,
  isValidEmail,
  cleanTaskSubject,
  substituteVariables,
  ISO_COUNTRIES,
};
