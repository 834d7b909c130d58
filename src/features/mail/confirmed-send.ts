// What the user who pays confirmed: the mail (campaign, subject, body, format) and each row as it was
// (address, name, Mail ID and the mail rendered for it). A document is shared: between the confirmation and
// the send (a scheduled send, a send waiting for the quota, the next step after the time limit) another
// editor may rewrite the mail, add rows or type "Queued" into a status cell. A send sends only rows whose
// mark is among those confirmed, with the mail confirmed; everything else is said on its row and sent
// nothing. The marks are kept in the payer's own user properties (platform/confirmations): 32-bit hashes
// keyed with a secret kept beside them, so no editor can make a row that passes, and a send of 20,000 rows
// keeps 120 KB, never more. Only its id is kept in the document.
import { forgetConfirmation, keepConfirmation, readConfirmation } from '../../platform/confirmations';
import type { ListRow } from '../../sheets/mailing-list';
import { MailTemplate, renderMail } from './mail-template';
import { formatCount } from '../words';

/** The most rows one send confirms (its marks take 6 characters each in the user's 500 KB store). */
export const MAX_CONFIRMED_ROWS = 20_000;

/** What the document keeps of a confirmation: its id in the payer's user properties. */
export interface ConfirmedRef {
  id: string;
}

interface StoredConfirmation {
  v: 1;
  secret: string;
  mail: string;
  /** The sorted marks, 6 characters each. */
  marks: string;
}

/** A confirmation read back against the mail as it is now. */
export interface Confirmed {
  /** The mail is not the one confirmed: nothing may be sent with it. */
  mailChanged: boolean;
  /** The row is one confirmed, as it was (address, name, Mail ID, its mail). */
  has(row: ListRow): boolean;
}

/** Keeps what the user confirms now: this mail to these rows. */
export function confirmSend(template: MailTemplate, rows: ListRow[], unsubscribe: string): ConfirmedRef {
  const secret = Utilities.getUuid() + Utilities.getUuid();
  const marks = rows.map((row) => rowMark(secret, template, row, unsubscribe)).sort();
  const stored: StoredConfirmation = {
    v: 1,
    secret,
    mail: mailMark(secret, template),
    marks: marks.join(''),
  };
  return { id: keepConfirmation(stored) };
}

/** The confirmation checked against `template`, or null when it is gone (then nothing may be sent). */
export function openConfirmed(
  ref: ConfirmedRef | undefined,
  template: MailTemplate,
  unsubscribe: string,
): Confirmed | null {
  const stored = ref && readConfirmation<StoredConfirmation>(ref.id);
  if (!stored || stored.v !== 1) return null;
  const marks = new Set<string>();
  for (let i = 0; i < stored.marks.length; i += MARK_CHARS) marks.add(stored.marks.slice(i, i + MARK_CHARS));
  const { secret } = stored;
  return {
    mailChanged: mailMark(secret, template) !== stored.mail,
    has: (row) => marks.has(rowMark(secret, template, row, unsubscribe)),
  };
}

export function forgetConfirmed(ref: ConfirmedRef | undefined): void {
  if (ref) forgetConfirmation(ref.id);
}

/** Rows that go beyond what one send confirms, said before anything is asked. */
export function tooManyToConfirm(rows: number): string | null {
  if (rows <= MAX_CONFIRMED_ROWS) return null;
  return `This send has ${formatCount(rows)} rows; one send confirms at most ${formatCount(MAX_CONFIRMED_ROWS)}. Select fewer rows (or filter the sheet) and send the rest in a next send: no row is sent twice.`;
}

const MARK_CHARS = 6;
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function mailMark(secret: string, template: MailTemplate): string {
  const { campaign, subject, body, bodyFormat } = template;
  const text = JSON.stringify([campaign, subject, body, bodyFormat]);
  return `${hash32(secret, text)}.${hash32(`${secret}:2`, text)}`;
}

/** A row as it is sent: its address, name and Mail ID, and the mail rendered for it. */
function rowMark(secret: string, template: MailTemplate, row: ListRow, unsubscribe: string): string {
  const mail = renderMail(template, row.display, unsubscribe);
  const n = hash32(secret, JSON.stringify([row.key, row.nickname, row.mailId, mail.subject, mail.body]));
  let text = '';
  for (let i = 0, v = n; i < MARK_CHARS; i++, v = Math.floor(v / 64)) text += DIGITS[v % 64];
  return text;
}

/**
 * A 32-bit hash of `text` keyed with `secret` (cyrb53's mixing, its low word). It need not be a MAC: the
 * marks and the secret are in the payer's user properties, out of every other editor's reach, so nobody
 * who could change the rows can see a mark or try one.
 */
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
