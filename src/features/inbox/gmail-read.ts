// The mailbox reads of a scan, through the Gmail advanced service (present only in a build made with
// REPLY_DETECTION=gmail). Google's usage limits charge 5 quota units for each `list` and each `get` and allow
// 15,000 units per user per minute (3,000 calls); Apps Script offers no batch for advanced services, so the
// cost is the calls: one `list` of everything received since the last scan (up to 500 ids a page), then one
// `get` (format metadata: METADATA_HEADERS and the snippet, never the body) per message. When the mailbox got
// PLAN_FACTOR times more messages than address queries would take (mostly other mail), it asks `from:(a OR b
// …)` per QUERY_CHARS of addresses and the failure notices' senders instead, and gets only what they find.
// Never a call per row.
import { METADATA_HEADERS, type InboxMessage } from './classify';

/** The two methods of `Gmail.Users.Messages` a scan uses, as the Gmail API documents them. */
interface GmailMessages {
  list(
    userId: string,
    args: { q: string; maxResults: number; pageToken?: string },
  ): { messages?: Array<{ id: string }>; nextPageToken?: string };
  get(
    userId: string,
    id: string,
    args: { format: 'metadata'; metadataHeaders: string[] },
  ): {
    id: string;
    internalDate?: string | number;
    snippet?: string;
    payload?: { headers?: Array<{ name: string; value: string }> };
  };
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
export const PLAN_FACTOR = 3;
/** Mail that arrived while the last scan ran is read again (the decisions are idempotent). */
export const OVERLAP_MS = 10 * 60_000;

/**
 * The Gmail advanced service when the build enabled it, else null: then nothing that reads or classifies mail
 * is in the bundle (rollup leaves out what only runs when this is not null).
 */
export function gmailService(): GmailMessages | null {
  return REPLY_DETECTION === 'gmail' && typeof Gmail !== 'undefined' ? Gmail.Users.Messages : null;
}

export interface MailboxRead {
  messages: InboxMessage[];
  /** Read up to here (ms): the next scan starts after it (less OVERLAP_MS). */
  through: number;
  plan: 'inbox' | 'addresses';
  calls: number;
}

/**
 * Reads what arrived since `since` (ms) from the people of the scan: the inbox, or `addresses()` (the people's
 * addresses, read from their lists only when that plan is cheaper) in queries. `stopAt`: a time (ms) the reads
 * stop before; what is left waits for the next scan.
 */
export function readMailbox(
  gmail: GmailMessages,
  since: number,
  people: number,
  addresses: () => string[],
  stopAt: number,
): MailboxRead {
  const started = Date.now();
  const after = `after:${Math.floor(Math.max(0, since - OVERLAP_MS) / 1000)}`;
  const calls = { n: 0 };
  // The address plan costs its queries and a `get` per answer found, the inbox plan a `get` per message: the
  // queries pay off only for an inbox mostly of other mail (more than PLAN_FACTOR × queries messages).
  const queries = Math.ceil((people * 24) / QUERY_CHARS) + 1; // an address and " OR " take ~24 characters
  let plan: MailboxRead['plan'] = 'inbox';
  let ids = listIds(gmail, `${after} -in:sent -in:drafts`, PLAN_FACTOR * queries, calls);
  if (ids.length > PLAN_FACTOR * queries) {
    plan = 'addresses';
    ids = [];
    for (const q of addressQueries(addresses()))
      for (const id of listIds(gmail, `${after} ${q}`, Infinity, calls)) ids.push(id);
  }
  // Oldest first (Gmail's ids grow with arrival), so a scan cut short goes on where it stopped.
  const order = [...new Set(ids)].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  const messages: InboxMessage[] = [];
  for (const id of order) {
    if (messages.length >= MAX_MESSAGES || Date.now() >= stopAt) break;
    messages.push(metadataOf(gmail.get('me', id, { format: 'metadata', metadataHeaders: METADATA_HEADERS })));
    calls.n++;
  }
  const complete = messages.length === order.length;
  const through = complete ? started : Math.max(since, ...messages.map((m) => m.at));
  return { messages, through, plan, calls: calls.n };
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
  queries.push('from:(mailer-daemon OR postmaster)');
  return queries;
}

function metadataOf(message: ReturnType<GmailMessages['get']>): InboxMessage {
  const headers: Record<string, string> = {};
  for (const { name, value } of (message.payload && message.payload.headers) || [])
    headers[name.toLowerCase()] = String(value);
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
