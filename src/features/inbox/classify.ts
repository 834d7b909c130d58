// What an answer in the sender's mailbox is, from its headers and first lines (the message's snippet), as a
// typed verdict: a delivery-failure notice (from mailer-daemon / postmaster, or its subject; the address from
// X-Failed-Recipients, else the first other address it names), an automatic answer (RFC 3834
// Auto-Submitted other than "no", X-Autoreply, Precedence: auto_reply, or an out-of-office subject: it pauses,
// until the return date it gives, else for DEFAULT_PAUSE_DAYS), a mailing (Precedence bulk / list / junk:
// nothing), a request to be removed (its own first lines, not the quoted mail), or a reply. Pure: the scan
// reads the messages, the decisions act on the verdicts.
import { DAY_MS } from '../../platform/time';
import {
  FAILURE_SENDER,
  FAILURE_SUBJECT,
  fold,
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
  'X-Failed-Recipients',
];

/** Days an out-of-office answer without a return date pauses the steps. */
export const DEFAULT_PAUSE_DAYS = 7;

/** A message as the scan hands it over: header names in lower case. */
export interface InboxMessage {
  id: string;
  /** When Gmail received it (internalDate, ms). */
  at: number;
  headers: Record<string, string>;
  snippet: string;
}

/** Why a failure notice failed, as a code and the server's status ("550 5.1.1"), never its prose. */
export type Verdict =
  | { code: 'reply'; address: string }
  | { code: 'outOfOffice'; address: string; until: number; dated: boolean }
  | { code: 'unsubscribe'; address: string }
  | { code: 'bounce'; address: string; status: string }
  | { code: 'ignore' };

export type VerdictCode = Exclude<Verdict['code'], 'ignore'>;

const ADDRESS = /[A-Za-z0-9._%+'-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

/** The address of a From header ("Ann <ann@acme.com>" → ann@acme.com), lower case; '' when none. */
export function addressOf(header: string): string {
  const angle = /<([^<>\s]+@[^<>\s]+)>/.exec(header);
  const found = angle ? angle[1] : (header.match(ADDRESS) || [''])[0];
  return found.trim().toLowerCase();
}

export function classify(message: InboxMessage): Verdict {
  const h = message.headers;
  const from = addressOf(h.from || '');
  const subject = fold(h.subject || '');
  const localPart = from.slice(0, from.indexOf('@'));
  if (FAILURE_SENDER.test(localPart) || FAILURE_SUBJECT.test(subject)) return failure(message, from);
  if (!from) return { code: 'ignore' };
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

function failure(message: InboxMessage, from: string): Verdict {
  const failed = message.headers['x-failed-recipients'] || '';
  const named =
    (failed.match(ADDRESS) || [])[0] ||
    (message.snippet.match(ADDRESS) || []).find((a) => a.toLowerCase() !== from);
  if (!named) return { code: 'ignore' };
  return { code: 'bounce', address: named.toLowerCase(), status: statusOf(message.snippet) };
}

/** The SMTP reply code and enhanced status a notice quotes ("550 5.1.1"), or ''. */
export function statusOf(text: string): string {
  const m = /(?<!\d)([45]\d\d)(?:[ -]#?([45]\.\d{1,3}\.\d{1,3}))?(?!\d)/.exec(text);
  return m ? [m[1], m[2]].filter(Boolean).join(' ') : '';
}
