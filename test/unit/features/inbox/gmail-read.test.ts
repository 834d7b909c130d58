// src/features/inbox/gmail-read.ts: the mailbox reads of a scan. First the due people's messages, newest first;
// then the inbox since the last scan, one `get` (metadata) per message, oldest first; address queries when the
// inbox is mostly other mail; a scan cut short stops where it got to; a mail system's report read whole.
import { useUtilities } from '../../gas-utilities';
import {
  addressQueries,
  MAX_MESSAGES,
  OVERLAP_MS,
  QUERY_CHARS,
  readMailbox,
} from '../../../../src/features/inbox/gmail-read';

useUtilities();

const T = Date.UTC(2026, 11, 3, 10);

/** A fake Gmail.Users.Messages: `inbox` answers the inbox query, `byQuery` the others; gets from `mail`. */
function fakeGmail(inbox: string[], byQuery: (_q: string) => string[] = () => []) {
  const calls: string[] = [];
  const gmail = {
    list(_user: string, args: { q: string; maxResults: number; pageToken?: string }) {
      calls.push(`list ${args.q}`);
      const ids = args.q.includes('-in:sent') ? inbox : byQuery(args.q);
      const from = Number(args.pageToken || 0);
      const page = ids.slice(from, from + args.maxResults);
      const next = from + args.maxResults < ids.length ? String(from + args.maxResults) : undefined;
      return { messages: page.map((id) => ({ id })), ...(next ? { nextPageToken: next } : {}) };
    },
    get(_user: string, id: string, args: { format: string; metadataHeaders?: string[] }) {
      calls.push(`get ${id} ${args.format}`);
      return {
        id,
        internalDate: String(T + parseInt(id, 16) * 1000),
        snippet: 'don&#39;t &amp; do',
        payload: { headers: [{ name: 'From', value: `p${id}@x.com` }] },
      };
    },
  };
  return { gmail, calls };
}
const hex = (n: number) => n.toString(16);

describe('readMailbox', () => {
  test('the inbox since the last scan (less the overlap), one metadata get per message, oldest first', () => {
    const { gmail, calls } = fakeGmail(['c', '1a', 'b']); // newest first, as Gmail lists
    const read = readMailbox(gmail, T, 100, () => [], T + 60_000 + Date.now());
    expect(calls[0]).toBe(`list after:${Math.floor((T - OVERLAP_MS) / 1000)} -in:sent -in:drafts`);
    expect(calls.slice(1)).toEqual(['get b metadata', 'get c metadata', 'get 1a metadata']);
    expect(read).toMatchObject({ plan: 'inbox', calls: 4 });
    expect(read.messages[0]).toEqual({
      id: 'b',
      at: T + 11_000,
      headers: { from: 'pb@x.com' },
      snippet: "don't & do",
    });
    expect(read.through).toBeLessThanOrEqual(Date.now());
  });

  test('an inbox mostly of other mail: address queries, and only what they find is read', () => {
    const inbox = Array.from({ length: 40 }, (_, i) => hex(i + 1));
    const { gmail, calls } = fakeGmail(inbox, (q) => (q.includes('mailer-daemon') ? ['5'] : ['2']));
    const read = readMailbox(gmail, T, 10, () => ['a@x.com', 'b@x.com'], Date.now() + 60_000);
    expect(read.plan).toBe('addresses');
    expect(calls.filter((c) => c.startsWith('list'))).toEqual([
      expect.stringContaining('-in:sent'),
      expect.stringMatching(/^list after:\d+ from:\(a@x\.com OR b@x\.com\)$/),
      expect.stringMatching(/^list after:\d+ from:\(mailer-daemon OR postmaster\)$/),
    ]);
    expect(read.messages.map((m) => m.id)).toEqual(['2', '5']);
  });

  test('a scan cut short (its time or MAX_MESSAGES) reads on from its last message next time', () => {
    const inbox = Array.from({ length: MAX_MESSAGES + 5 }, (_, i) => hex(MAX_MESSAGES + 5 - i));
    const { gmail } = fakeGmail(inbox);
    const read = readMailbox(gmail, T, 100_000, () => [], Date.now() + 60_000);
    expect(read.messages).toHaveLength(MAX_MESSAGES);
    expect(read.through).toBe(T + MAX_MESSAGES * 1000 + OVERLAP_MS); // the next reads from that message on
    const stopped = readMailbox(fakeGmail(['1', '2']).gmail, T, 100, () => [], 0);
    expect(stopped).toMatchObject({ messages: [], through: T });
  });
});

describe('what can stop a due step first', () => {
  test('the due people’s messages, newest first, before a flood fills the scan; read up to the start only when all were', () => {
    const flood = Array.from({ length: MAX_MESSAGES + 50 }, (_, i) => hex(MAX_MESSAGES + 50 - i));
    const { gmail, calls } = fakeGmail(flood, (q) => (q.includes('eve@quiet.com') ? ['7ff', '3'] : []));
    const started = Date.now();
    const read = readMailbox(
      gmail,
      T,
      100_000,
      () => [],
      Date.now() + 60_000,
      () => ['eve@quiet.com'],
    );
    const due = calls.findIndex((c) => /^list after:\d+ from:\(eve@quiet\.com\)$/.test(c));
    expect(calls.slice(0, due).every((c) => c.includes('-in:sent'))).toBe(true); // the inbox's size, first
    expect(calls.slice(due + 1, due + 3)).toEqual(['get 7ff metadata', 'get 3 metadata']);
    expect(read.messages).toHaveLength(MAX_MESSAGES);
    expect(read.dueThrough).toBeGreaterThanOrEqual(started);
    expect(
      readMailbox(
        gmail,
        T,
        100_000,
        () => [],
        0,
        () => ['eve@quiet.com'],
      ).dueThrough,
    ).toBe(0);
    // A small inbox is read whole: the due people's messages are in it, no query of theirs is asked.
    const small = fakeGmail(['3', '1'], () => ['3']);
    expect(
      readMailbox(
        small.gmail,
        T,
        100,
        () => [],
        Date.now() + 60_000,
        () => ['eve@quiet.com'],
      ),
    ).toMatchObject({
      dueThrough: expect.any(Number),
      calls: 3,
    });
    expect(small.calls.filter((c) => c.includes('from:'))).toEqual([]);
  });

  test("a mail system's delivery report is read whole: its failed recipients and its original's", () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    const headers = [
      { name: 'Return-Path', value: '<>' },
      { name: 'From', value: 'Mail Delivery Subsystem <mailer-daemon@googlemail.com>' },
      { name: 'From', value: 'a second From, below Gmail’s: not read' },
    ];
    const parts = [
      { mimeType: 'text/plain', body: { data: b64('Address not found') } },
      {
        mimeType: 'message/delivery-status',
        body: { data: b64('Final-Recipient: rfc822; eve@quiet.com\nAction: failed\nStatus: 5.1.1') },
      },
      { mimeType: 'message/rfc822', parts: [{ headers: [{ name: 'To', value: 'Eve <eve@quiet.com>' }] }] },
    ];
    const formats: string[] = [];
    const gmail = {
      list: () => ({ messages: [{ id: 'a' }] }),
      get: (_u: string, id: string, args: { format: string }) => {
        formats.push(args.format);
        return {
          id,
          internalDate: String(T),
          payload: args.format === 'full' ? { mimeType: 'multipart/report', headers, parts } : { headers },
        };
      },
    };
    const [message] = readMailbox(gmail, T, 1, () => [], Date.now() + 60_000).messages;
    expect(formats).toEqual(['metadata', 'full']);
    expect(message.headers.from).toBe('Mail Delivery Subsystem <mailer-daemon@googlemail.com>');
    expect(message.report).toEqual({
      failed: [{ address: 'eve@quiet.com', status: '5.1.1' }],
      originalTo: ['eve@quiet.com'],
    });
  });
});

describe('addressQueries', () => {
  test('groups of at most QUERY_CHARS characters, and one for failure notices', () => {
    const addresses = Array.from({ length: 200 }, (_, i) => `person${i}@example.com`);
    const queries = addressQueries(addresses);
    expect(queries.at(-1)).toBe('from:(mailer-daemon OR postmaster)');
    for (const q of queries) expect(q.length).toBeLessThanOrEqual(QUERY_CHARS + 10);
    const found = queries.slice(0, -1).flatMap((q) => q.slice(6, -1).split(' OR '));
    expect(found).toEqual(addresses);
  });
});
