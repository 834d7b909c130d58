// The mailbox reads of a scan, through the Gmail advanced service (present only in a build made with
// REPLY_DETECTION=gmail). Google's usage limits charge 5 quota units for each `list` and each `get` and allow
// 15,000 units per user per minute (3,000 calls); Apps Script offers no batch for advanced services, so the
// cost is the calls. First what can stop a step that is due: the messages of the people whose steps are due,
// `from:(a OR b …)` per QUERY_CHARS of addresses, newest first, whatever else fills the mailbox. Then one
// `list` of everything received since the last scan (up to 500 ids a page), then one `get` (format metadata:
// METADATA_HEADERS and the snippet, never the body) per message, oldest first. When the mailbox got
// PLAN_FACTOR times more messages than address queries would take (mostly other mail), it asks the address
// queries of everyone scanned and the failure notices' senders instead, and gets only what they find. A
// mail system's delivery report is read whole (format full: its delivery-status and original-headers parts).
// Never a call per row.
import {
  type DeliveryReport,
  failedRecipients,
  type InboxMessage,
  isSystemReport,
  METADATA_HEADERS,
  recipientsOf,
} from './classify';

/** The two methods of `Gmail.Users.Messages` a scan uses, as the Gmail API documents them. */
interface GmailMessages {
  list(
    userId: string,
    args: { q: string; maxResults: number; pageToken?: string },
  ): { messages?: Array<{ id: string }>; nextPageToken?: string };
  get(
    userId: string,
    id: string,
    args: { format: 'metadata'; metadataHeaders: string[] } | { format: 'full' },
  ): {
    id: string;
    internalDate?: string | number;
    snippet?: string;
    payload?: MessagePart;
  };
}

/** A MIME part of a message as `get` answers it (format full: with its parts and their bodies). */
interface MessagePart {
  mimeType?: string;
  headers?: Array<{ name: string; value: string }>;
  /** base64url text; Apps Script is reported to hand some of these back as bytes. */
  body?: { data?: string | number[] };
  parts?: MessagePart[];
}

declare const Gmail: { Users: { Messages: GmailMessages } };
/** 'gmail' in a build made with REPLY_DETECTION=gmail, else '': written by the build before tree-shaking. */
declare const REPLY_DETECTION: '' | 'gmail';

/** Google documents no length limit for `q` (a GET's URL carries it): address queries stay under this. */
export const QUERY_CHARS = 1500;
/** Gmail answers at most 500 ids a page. */
const PAGE = 500;
/** What a scan reads at most (messages); the rest waits for the next scan, from where this one stopped. */
export const MAX_MESSAGES = 600;
/** How many more inbox messages than address queries make the queries the cheaper plan. */
const PLAN_FACTOR = 3;
/** Mail that arrived while the last scan ran is read again (the decisions are idempotent). */
export const OVERLAP_MS = 10 * 60_000;

/**
 * The Gmail advanced service when the build enabled it, else null: then nothing that reads or classifies mail
 * is in the bundle (rollup leaves out what only runs when this is not null).
 */
export function gmailService(): GmailMessages | null {
  return REPLY_DETECTION === 'gmail' && typeof Gmail !== 'undefined' ? Gmail.Users.Messages : null;
}

interface MailboxRead {
  messages: InboxMessage[];
  /** Read up to here (ms): the next scan starts after it (less OVERLAP_MS). */
  through: number;
  /** The messages of the people whose steps are due were read up to here (ms); 0: not all of them. */
  dueThrough: number;
  plan: 'inbox' | 'addresses';
  calls: number;
}

/**
 * Reads what arrived since `since` (ms): first what the people whose steps are due (`due()`: their addresses,
 * asked only when the inbox is not read whole) sent, then everything from the people of the scan: the inbox,
 * or `addresses()` (the people's addresses, read from their lists only when that plan is cheaper) in queries.
 * `stopAt`: a time (ms) the reads stop before; what is left waits for the next scan.
 */
export function readMailbox(
  gmail: GmailMessages,
  since: number,
  people: number,
  addresses: () => string[],
  stopAt: number,
  due: () => string[] = () => [],
): MailboxRead {
  const started = Date.now();
  const after = `after:${Math.floor(Math.max(0, since - OVERLAP_MS) / 1000)}`;
  const calls = { n: 0 };
  const read = new Map<string, InboxMessage>();
  const getAll = (ids: string[]) => {
    for (const id of ids) {
      if (read.has(id)) continue;
      if (read.size >= MAX_MESSAGES || Date.now() >= stopAt) return false;
      read.set(id, messageOf(gmail, id, calls));
    }
    return true;
  };
  // The address plan costs its queries and a `get` per answer found, the inbox plan a `get` per message: the
  // queries pay off only for an inbox mostly of other mail (more than PLAN_FACTOR × queries messages).
  const queries = Math.ceil((people * 24) / QUERY_CHARS) + 1; // an address and " OR " take ~24 characters
  let ids = listIds(gmail, `${after} -in:sent -in:drafts`, PLAN_FACTOR * queries, calls);
  const plan: MailboxRead['plan'] = ids.length > PLAN_FACTOR * queries ? 'addresses' : 'inbox';
  // The due people's messages first, newest first (Gmail's ids grow with arrival), unless the inbox since the
  // last scan is small enough to be read whole anyway (their messages are in it).
  let dueRead = false;
  if (plan === 'addresses' || ids.length > MAX_MESSAGES) {
    const dueIds = fromQueries(due()).flatMap((q) => listIds(gmail, `${after} ${q}`, MAX_MESSAGES, calls));
    dueRead = getAll(byArrival(dueIds).reverse());
  }
  if (plan === 'addresses')
    ids = addressQueries(addresses()).flatMap((q) => listIds(gmail, `${after} ${q}`, Infinity, calls));
  // Oldest first, so a scan cut short goes on where it stopped.
  const order = byArrival(ids);
  const complete = getAll(order);
  // Cut short: the next scan starts at the second of the last message read in order (its `after:` goes back
  // OVERLAP_MS from `through`), not OVERLAP_MS before it, which a flood would fill again.
  const unread = order.findIndex((id) => !read.has(id));
  const prefix = order.slice(0, unread).map((id) => read.get(id)!.at + OVERLAP_MS);
  const through = complete ? started : Math.max(since, ...prefix);
  const dueThrough = dueRead || complete ? started : 0;
  return { messages: [...read.values()], through, dueThrough, plan, calls: calls.n };
}

/** Ids in the order Gmail received them (its ids grow with arrival), each once. */
function byArrival(ids: string[]): string[] {
  return [...new Set(ids)].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
}

/** A message's metadata; a mail system's delivery report is read whole for its report (one more `get`). */
function messageOf(gmail: GmailMessages, id: string, calls: { n: number }): InboxMessage {
  const message = metadataOf(gmail.get('me', id, { format: 'metadata', metadataHeaders: METADATA_HEADERS }));
  calls.n++;
  if (isSystemReport(message.headers)) {
    message.report = reportOf(gmail.get('me', id, { format: 'full' }).payload);
    calls.n++;
  }
  return message;
}

/** The ids a query finds, page by page, up to `most` (then more than `most` are answered: enough to know). */
function listIds(gmail: GmailMessages, q: string, most: number, calls: { n: number }): string[] {
  const ids: string[] = [];
  let pageToken: string | undefined;
  do {
    const page = gmail.list('me', { q, maxResults: PAGE, ...(pageToken ? { pageToken } : {}) });
    calls.n++;
    for (const m of page.messages || []) ids.push(m.id);
    pageToken = page.nextPageToken;
  } while (pageToken && ids.length <= most);
  return ids;
}

/** `from:(a OR b …)` queries of at most QUERY_CHARS, and one for the failure notices' senders. */
export function addressQueries(addresses: string[]): string[] {
  return [...fromQueries(addresses), 'from:(mailer-daemon OR postmaster)'];
}

/** `from:(a OR b …)` queries of at most QUERY_CHARS. */
function fromQueries(addresses: string[]): string[] {
  const queries: string[] = [];
  let group: string[] = [];
  let length = 0;
  for (const address of addresses) {
    if (group.length && length + address.length + 4 > QUERY_CHARS) {
      queries.push(`from:(${group.join(' OR ')})`);
      group = [];
      length = 0;
    }
    group.push(address);
    length += address.length + 4;
  }
  if (group.length) queries.push(`from:(${group.join(' OR ')})`);
  return queries;
}

/** The delivery-status and original-headers parts of a report (RFC 3464, RFC 6522), wherever they are nested. */
function reportOf(payload: MessagePart | undefined): DeliveryReport {
  const report: DeliveryReport = { failed: [], originalTo: null };
  const visit = (part: MessagePart) => {
    const type = (part.mimeType || '').toLowerCase();
    if (type === 'message/delivery-status') report.failed.push(...failedRecipients(textOf(part)));
    else if (type === 'text/rfc822-headers') report.originalTo = recipientsOf(textOf(part));
    else if (type === 'message/rfc822') {
      // Gmail answers an attached message as a part whose own parts carry its headers, or as its text.
      const inner = part.parts && part.parts[0] && part.parts[0].headers;
      const text = inner
        ? inner.map((h) => `${h.name}: ${h.value}`).join('\n')
        : textOf(part).split(/\r?\n\r?\n/)[0];
      report.originalTo = recipientsOf(text);
    }
    for (const child of part.parts || []) if (type !== 'message/rfc822') visit(child);
  };
  if (payload) visit(payload);
  return report;
}

/** A part's body as text: base64url (padded here: Apps Script's decoder wants it), or bytes. */
function textOf(part: MessagePart): string {
  const data = part.body && part.body.data;
  if (!data) return '';
  const bytes =
    typeof data === 'string'
      ? Utilities.base64DecodeWebSafe(data + '='.repeat((4 - (data.length % 4)) % 4))
      : data;
  return Utilities.newBlob(bytes).getDataAsString();
}

function metadataOf(message: ReturnType<GmailMessages['get']>): InboxMessage {
  // The first of each header: Gmail puts its own on top (Delivered-To, Return-Path, Authentication-Results),
  // above any a sender wrote; every Authentication-Results is kept (a failure in any counts).
  const headers: Record<string, string> = {};
  for (const { name, value } of (message.payload && message.payload.headers) || []) {
    const key = name.toLowerCase();
    if (key === 'authentication-results' && headers[key]) headers[key] += `\n${value}`;
    else if (!(key in headers)) headers[key] = String(value);
  }
  return {
    id: message.id,
    at: Number(message.internalDate) || Date.now(),
    headers,
    snippet: unescape(String(message.snippet || '')),
  };
}

/** Gmail's snippets are HTML-escaped ("don&#39;t"). */
function unescape(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
  return text.replace(/&(#\d+|[a-z]+);/g, (all, code: string) =>
    code[0] === '#' ? String.fromCharCode(Number(code.slice(1))) : (named[code] ?? all),
  );
}
