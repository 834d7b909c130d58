// The keyed marks the outbox keeps instead of addresses and mails. The key is a secret in the payer's own
// properties, so no editor can make a row whose mark matches one confirmed. A mail's and a row's mark are the
// first 64 bits of an HMAC-SHA256 (a guess succeeds once in 2^64 tries a mark); an address's mark only finds
// the row's record again (48 bits of a keyed hash: a collision costs a lookup, never a send, as the row's
// content mark must match too).
import { type ListRow } from '../../sheets';
import { type MailTemplate, placeholderNames } from './mail-template';
import type { FollowUp } from './follow-ups';

export const ADDRESS_CHARS = 8;
export const CONTENT_CHARS = 11;
export const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The mail a list's payer confirmed: the first mail and every follow-up step. */
export type ConfirmedMail = MailTemplate & {
  followUps?: FollowUp[];
  /** subject-test.ts SubjectTest (written out: that module reads marks). */
  subjectTest?: { variants: string[]; share: number; decideAfterHours: number };
  /** send-timing.ts Timing: when and how fast its mails may go. */
  timing?: {
    skipDates?: string[];
    sendWindow?: unknown;
    hourlyLimit?: number;
    bounceLimit?: number;
    dailyLimit?: number;
    dailyRamp?: number;
  };
};

/** 64 bits of HMAC-SHA256(secret, text), 11 characters. */
export function hmac64(secret: string, text: string): string {
  const bytes = Utilities.computeHmacSha256Signature(text, secret, Utilities.Charset.UTF_8);
  return Utilities.base64Encode(bytes.slice(0, 8)).slice(0, CONTENT_CHARS);
}

/**
 * The mark of the mail as confirmed: campaign, first subject and body, format, every step, the subject test
 * and when and how fast it goes (window, days, zone rule, hourly limit, dates to skip), and when it pauses (the
 * bounce threshold) and how many a day (the daily limit and its ramp).
 */
export function mailMark(secret: string, mail: ConfirmedMail): string {
  const steps = (mail.followUps || []).map((s) => [
    s.afterDays,
    s.workingDaysOnly,
    s.unopenedOnly,
    s.subject,
    s.body,
  ]);
  const parts: unknown[] = [mail.campaign, mail.subject, mail.body, mail.bodyFormat, steps];
  // A subject test is part of what is confirmed; a mail without one keeps the mark it always had.
  const test = mail.subjectTest;
  if (test) parts.push([test.variants, test.share, test.decideAfterHours]);
  const timing = mail.timing;
  if (timing && (timing.skipDates || timing.sendWindow || timing.hourlyLimit))
    parts.push({ timing: [timing.skipDates || [], timing.sendWindow || null, timing.hourlyLimit || 0] });
  // The bounce guard's threshold, when it is not the default (a mail saved before it keeps its mark).
  if (timing && timing.bounceLimit) parts.push({ bounceLimit: timing.bounceLimit });
  if (timing && timing.dailyLimit) parts.push({ daily: [timing.dailyLimit, timing.dailyRamp || 0] });
  return hmac64(secret, JSON.stringify(parts));
}

/**
 * The columns whose values fill the mail (first mail and steps), normalised and sorted: with the mail's mark,
 * they decide what each row is sent. The name columns are always among them ({{First name}} may come from Name).
 */
export function boundFields(mail: ConfirmedMail): string[] {
  const texts = [
    mail.subject,
    mail.body,
    ...(mail.followUps || []).flatMap((s) => [s.subject, s.body]),
    ...((mail.subjectTest && mail.subjectTest.variants) || []),
  ];
  const names = new Set(['name', 'first name', 'last name', 'nickname']);
  for (const text of texts)
    for (const name of placeholderNames(text)) if (name !== 'unsubscribe') names.add(name);
  return [...names].sort();
}

/** The mark of a row as it is sent: its address, its salutation and the values of `fields`. */
export function contentMark(secret: string, fields: string[], row: ListRow): string {
  const values = fields.map((field) => row.display.get(field) ?? '');
  return hmac64(secret, JSON.stringify([row.key, row.nickname, values]));
}

/** An address's (or a company's) mark: 48 bits of a keyed hash, 8 characters. */
export function addressMark(secret: string, key: string): string {
  return digits(hash32(secret, key), 4) + digits(hash32(`${secret}:2`, key), 4);
}

function digits(n: number, count: number): string {
  let text = '';
  for (let i = 0, v = n; i < count; i++, v = Math.floor(v / 64)) text += DIGITS[v % 64];
  return text;
}

/** A number in `count` base-64 characters (most significant first) and back. */
export function encodeNumber(n: number, count: number): string {
  let text = '';
  for (let i = 0, v = Math.max(0, Math.floor(n)); i < count; i++, v = Math.floor(v / 64))
    text = DIGITS[v % 64] + text;
  return text;
}

export function decodeNumber(text: string): number {
  let n = 0;
  for (const ch of text) n = n * 64 + DIGITS.indexOf(ch);
  return n;
}

/** A 32-bit hash of `text` keyed with `secret` (cyrb53's mixing, its low word). */
export function hash32(secret: string, text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  const feed = (s: string) => {
    for (let i = 0; i < s.length; i++) {
      const ch = s.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
  };
  feed(secret);
  feed('\u0000');
  feed(text);
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 ^ h2) >>> 0;
}
