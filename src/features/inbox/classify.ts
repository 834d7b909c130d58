// What an answer in the sender's mailbox is, from its headers and first lines (the message's snippet), as a
// typed verdict. A message Gmail found failing authentication (Authentication-Results: dmarc=fail or spf=fail)
// is nothing: its From may be anyone's. A delivery failure is a delivery report (the null sender or a
// multipart/report of report-type delivery-status, RFC 3464 / 6522) from a mail system (MAILER-DAEMON or
// postmaster at Google's mail system or at the mailbox's own domain), whose delivery-status part says the
// mail failed for a recipient and whose original headers were sent to that recipient: the address is that
// part's, never one its text or other headers name. Every other message counts only for its sender: an
// automatic answer (RFC 3834 Auto-Submitted other than "no", X-Autoreply, Precedence: auto_reply, or an
// out-of-office subject: it pauses, until the return date it gives, else for DEFAULT_PAUSE_DAYS), a mailing
// (Precedence bulk / list / junk: nothing), a request to be removed (its own first lines, not the quoted
// mail), or a reply. Pure: the scan reads the messages, the decisions act on the verdicts.
import { DAY_MS } from '../../platform';
import {
  FAILURE_SENDER,
  fold,
  MAIL_SYSTEMS,
  OUT_OF_OFFICE_SUBJECT,
  QUOTE_START,
  UNSUBSCRIBE_PHRASE,
} from './inbox-words';
import { returnDate } from './return-date';

/** The headers the scan asks Gmail for (format metadata): nothing of the body but its snippet. */
export const METADATA_HEADERS = [
  'From',
  'Subject',
  'Date',
  'Auto-Submitted',
  'X-Autoreply',
  'X-Autorespond',
  'Precedence',
  'Return-Path',
  'Content-Type',
  'Authentication-Results',
  'Delivered-To',
];

/** Days an out-of-office answer without a return date pauses the steps. */
export const DEFAULT_PAUSE_DAYS = 7;

/** A message as the scan hands it over: header names in lower case (the first of each, as Gmail put it on top). */
export interface InboxMessage {
  id: string;
  /** When Gmail received it (internalDate, ms). */
  at: number;
  headers: Record<string, string>;
  snippet: string;
  /** A mail system's delivery report, read whole (gmail-read.ts) only when `isSystemReport` says it is one. */
  report?: DeliveryReport;
}

/** What a delivery report's parts say (RFC 3464): the recipients it failed, and the original's recipients. */
export interface DeliveryReport {
  failed: Array<{ address: string; status: string }>;
  /** The addresses of the original message's To and Cc (its headers part); null when the report has none. */
  originalTo: string[] | null;
}

/** Why a failure notice failed, as a code and the server's status ("550 5.1.1"), never its prose. */
export type Verdict =
  | { code: 'reply'; address: string }
  | { code: 'outOfOffice'; address: string; until: number; dated: boolean }
  | { code: 'unsubscribe'; address: string }
  | { code: 'bounce'; address: string; status: string }
  | { code: 'ignore' };

const ADDRESS = /[A-Za-z0-9._%+'-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

/** The address of a From header ("Ann <ann@acme.com>" → ann@acme.com), lower case; '' when none. */
export function addressOf(header: string): string {
  const angle = /<([^<>\s]+@[^<>\s]+)>/.exec(header);
  const found = angle ? angle[1] : (header.match(ADDRESS) || [''])[0];
  return found.trim().toLowerCase();
}

export function classify(message: InboxMessage): Verdict {
  const h = message.headers;
  if (/\b(?:dmarc|spf)=fail\b/i.test(h['authentication-results'] || '')) return { code: 'ignore' };
  if (isSystemReport(h)) return bounceOf(message.report, message.snippet);
  const from = addressOf(h.from || '');
  if (!from) return { code: 'ignore' };
  const subject = fold(h.subject || '');
  if (isAutomatic(h) || OUT_OF_OFFICE_SUBJECT.test(subject)) {
    const found = returnDate(`${h.subject || ''}\n${message.snippet}`, message.at);
    const until = found ?? message.at + DEFAULT_PAUSE_DAYS * DAY_MS;
    return { code: 'outOfOffice', address: from, until, dated: found !== null };
  }
  if (/^(?:bulk|list|junk)$/.test(fold(h.precedence || '').trim())) return { code: 'ignore' };
  if (UNSUBSCRIBE_PHRASE.test(subject) || UNSUBSCRIBE_PHRASE.test(ownWords(message.snippet)))
    return { code: 'unsubscribe', address: from };
  return { code: 'reply', address: from };
}

/**
 * A delivery report from a mail system, by its headers: the null sender or a delivery-status report, from
 * MAILER-DAEMON / postmaster of Google's mail system or of the mailbox's own domain (Delivered-To).
 */
export function isSystemReport(h: Record<string, string>): boolean {
  const nullSender = (h['return-path'] || '').replace(/\s/g, '') === '<>';
  const type = fold(h['content-type'] || '');
  const report = /^multipart\/report\b/.test(type) && /report-type="?delivery-status\b/.test(type);
  if (!nullSender && !report) return false;
  const from = addressOf(h.from || '');
  const at = from.lastIndexOf('@');
  if (at < 0 || !FAILURE_SENDER.test(from.slice(0, at))) return false;
  const own = addressOf(h['delivered-to'] || '');
  const systems = [...MAIL_SYSTEMS, own.slice(own.lastIndexOf('@') + 1)].filter(Boolean);
  const domain = from.slice(at + 1);
  return systems.some((d) => domain === d || domain.endsWith(`.${d}`));
}

/** The recipient a report failed, when its original headers were sent to that recipient; else nothing. */
function bounceOf(report: DeliveryReport | undefined, snippet: string): Verdict {
  if (!report || !report.originalTo) return { code: 'ignore' };
  const failed = report.failed.find((f) => report.originalTo!.includes(f.address));
  if (!failed) return { code: 'ignore' };
  return { code: 'bounce', address: failed.address, status: failed.status || statusOf(snippet) };
}

/** RFC 3834 and the common vendor headers of automatic answers. */
function isAutomatic(h: Record<string, string>): boolean {
  const submitted = fold(h['auto-submitted'] || '').trim();
  if (submitted && submitted !== 'no') return true;
  if (h['x-autoreply'] !== undefined || h['x-autorespond'] !== undefined) return true;
  return fold(h.precedence || '').trim() === 'auto_reply';
}

/** The reply's own words: its first lines, up to where the quoted mail begins. */
export function ownWords(snippet: string): string {
  const text = fold(snippet);
  const cut = text.search(QUOTE_START);
  return cut < 0 ? text : text.slice(0, cut);
}

/** The failed recipients of a message/delivery-status part's text (RFC 3464 2.3: one field group each). */
export function failedRecipients(text: string): DeliveryReport['failed'] {
  const failed: DeliveryReport['failed'] = [];
  for (const group of text.replace(/\r/g, '').split(/\n\s*\n/)) {
    const fields = new Map<string, string>();
    for (const line of group.replace(/\n[ \t]+/g, ' ').split('\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) fields.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const recipient = fields.get('final-recipient') || fields.get('original-recipient') || '';
    const address = (recipient.match(ADDRESS) || [''])[0].toLowerCase();
    if (!address || fold(fields.get('action') || '').trim() !== 'failed') continue;
    const status = statusOf(fields.get('diagnostic-code') || '') || fields.get('status') || '';
    failed.push({ address, status });
  }
  return failed;
}

/** The addresses of a header block's To and Cc (an original message's headers, RFC 6522 text/rfc822-headers). */
export function recipientsOf(headerText: string): string[] {
  const unfolded = headerText.replace(/\r/g, '').replace(/\n[ \t]+/g, ' ');
  const found: string[] = [];
  for (const line of unfolded.split('\n'))
    if (/^(?:to|cc)\s*:/i.test(line))
      for (const a of line.slice(line.indexOf(':') + 1).match(ADDRESS) || []) found.push(a.toLowerCase());
  return found;
}

/** The SMTP reply code and enhanced status a notice quotes ("550 5.1.1"), or ''. */
export function statusOf(text: string): string {
  const m = /(?<!\d)([45]\d\d)(?:[ -]#?([45]\.\d{1,3}\.\d{1,3}))?(?!\d)/.exec(text);
  return m ? [m[1], m[2]].filter(Boolean).join(' ') : '';
}
