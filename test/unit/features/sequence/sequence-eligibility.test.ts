// src/features/sequence/sequence-eligibility.ts: who gets a follow-up step, decided from the ledger,
// never from a cell: in the sequence once confirmed and posted, the next step when its delay has passed,
// stopped by a reply (theirs or their company's), the do-not-contact list or the menu, held when the row
// changed since it was confirmed.
import { Ledger, type LedgerList, type StopCode } from '../../../../src/features/outbox/ledger';
import {
  addressMark,
  boundFields,
  type ConfirmedMail,
  contentMark,
} from '../../../../src/features/outbox/marks';
import {
  companyOf,
  type PlanContext,
  planRow,
  planView,
  recordStops,
  type Replies,
} from '../../../../src/features/sequence/sequence-eligibility';
import type { ListRow } from '../../../../src/sheets/mailing-list';
import { useUtilities } from '../../gas-utilities';
import { listRow } from '../../list-rows';

useUtilities();

const DAY = 24 * 3600 * 1000;
const NOW = Date.UTC(2026, 2, 10, 9); // a Tuesday
const SHEET = 7;
const mail: ConfirmedMail = {
  campaign: 'Spring',
  subject: 'Hi {{First name}}',
  body: 'Hello',
  bodyFormat: 'text',
  followUps: [
    { afterDays: 3, subject: '', body: 'Step 1', workingDaysOnly: false, unopenedOnly: false },
    { afterDays: 5, subject: '', body: 'Step 2', workingDaysOnly: false, unopenedOnly: false },
  ],
};
const ann = (over: { email?: string; cells?: Record<string, string> } = {}) =>
  listRow(2, { email: over.email ?? 'ann@acme.com', cells: { 'First name': 'Ann', ...over.cells } });

/** The ledger with `row` confirmed as it is, `posted` of its mails gone, the last at `at`. */
function recordOf(row: ListRow, posted: number, at = NOW - DAY, stop: StopCode | '' = '') {
  // Ledger.read() answers one record per execution; each test is an execution of its own: start it empty.
  const ledger = Ledger.read();
  [ledger.lists, ledger.stops, ledger.companies, ledger.paused, ledger.answers].forEach((part) =>
    part.clear(),
  );
  const list = ledger.openList(
    SHEET,
    'mail-mark',
    mail.followUps!.length,
    boundFields(mail),
    'key-fp',
    'campaign',
  );
  const addr = addressMark(ledger.secret, row.key);
  list.people.set(addr, {
    addr,
    content: contentMark(ledger.secret, list.fields, row),
    posted,
    stop,
    serial: 0,
    at,
  });
  return { ledger, list };
}

const noReplies = (): Replies => ({ emails: new Set(), companies: new Map() });
function context(record: { ledger: Ledger; list: LedgerList }, over: Partial<PlanContext> = {}): PlanContext {
  return {
    ...record,
    now: NOW,
    zone: 'Europe/Berlin',
    followUps: mail.followUps!,
    doNotContact: { addresses: new Map(), domains: new Map() },
    replies: noReplies(),
    stopRequests: new Set(),
    ...over,
  };
}

describe('planRow', () => {
  test('a row the payer never confirmed is not in the sequence', () => {
    const record = recordOf(ann(), 1);
    expect(planRow(ann({ email: 'bob@acme.com' }), context(record))).toEqual({ kind: 'out' });
  });

  test('confirmed but its first mail not posted: out (pending while it is queued in a running send)', () => {
    const row = ann();
    expect(planRow(row, context(recordOf(row, 0)))).toEqual({ kind: 'out' });
    const queued = { ...row, state: { kind: 'queued' as const } };
    expect(planRow(queued, context(recordOf(queued, 0)))).toEqual({ kind: 'out', pending: true });
  });

  test("the next step is due once its delay after the last mail has passed, from the record's time", () => {
    const row = ann();
    const sentFourDaysAgo = recordOf(row, 1, NOW - 4 * DAY);
    expect(planRow(row, context(sentFourDaysAgo))).toMatchObject({ kind: 'due', step: 1, at: NOW - DAY });
    const sentYesterday = recordOf(row, 1, NOW - DAY);
    expect(planRow(row, context(sentYesterday))).toMatchObject({ kind: 'later', step: 1, at: NOW + 2 * DAY });
    const stepOneWent = recordOf(row, 2, NOW - 6 * DAY);
    expect(planRow(row, context(stepOneWent))).toMatchObject({ kind: 'due', step: 2, at: NOW - DAY });
  });

  test('after the last step: finished', () => {
    const row = ann();
    expect(planRow(row, context(recordOf(row, 3)))).toMatchObject({ kind: 'finished' });
  });

  test('a row changed since it was confirmed is held: nothing is sent to it', () => {
    const record = recordOf(ann(), 1, NOW - 10 * DAY);
    expect(planRow(ann({ cells: { 'First name': 'Annie' } }), context(record))).toMatchObject({
      kind: 'held',
    });
    // A column the mail does not fill may change.
    expect(planRow(ann({ cells: { notes: 'called' } }), context(record))).toMatchObject({ kind: 'due' });
  });

  test('a stop the record holds is kept, whatever the sheets say now', () => {
    const row = ann();
    expect(planRow(row, context(recordOf(row, 1, NOW - 10 * DAY, 'replied')))).toEqual(
      expect.objectContaining({ kind: 'stopped', code: 'replied' }),
    );
  });

  describe('a stop the sheets show now is fresh (the run records it)', () => {
    const row = ann({ cells: { company: 'Acme' } });
    const due = () => recordOf(row, 1, NOW - 10 * DAY);

    test('a reply ticked on any list', () => {
      const replies = { ...noReplies(), emails: new Set(['ann@acme.com']) };
      expect(planRow(row, context(due(), { replies }))).toMatchObject({
        kind: 'stopped',
        code: 'replied',
        fresh: true,
      });
    });

    test('a stop asked from the menu, for the address or for the whole list', () => {
      expect(planRow(row, context(due(), { stopRequests: new Set(['ann@acme.com']) }))).toMatchObject({
        code: 'menu',
      });
      expect(planRow(row, context(due(), { stopRequests: new Set(['*']) }))).toMatchObject({ code: 'menu' });
    });

    test('the do-not-contact list, with its reason', () => {
      const doNotContact = { addresses: new Map(), domains: new Map([['acme.com', 'no mail to Acme']]) };
      expect(planRow(row, context(due(), { doNotContact }))).toMatchObject({
        code: 'optedOut',
        detail: 'no mail to Acme',
      });
    });

    test('a colleague at the same company (same domain) replied', () => {
      const replies = {
        ...noReplies(),
        companies: new Map([['domain:acme.com', { email: 'bob@acme.com' }]]),
      };
      expect(planRow(row, context(due(), { replies }))).toMatchObject({
        code: 'company',
        detail: 'someone at acme.com replied (bob@acme.com)', // what matched: the domain, and who
      });
    });

    test('a company whose reply the record holds (its mark) stops everyone there', () => {
      const record = due();
      record.ledger.companies.add(addressMark(record.ledger.secret, 'domain:acme.com'));
      expect(planRow(row, context(record))).toMatchObject({
        code: 'company',
        detail: 'someone at acme.com replied',
      });
    });

    test('a stop everywhere in the record (a reply on another list) wins', () => {
      const record = due();
      record.ledger.stopEverywhere(addressMark(record.ledger.secret, 'ann@acme.com'), 'optedOut');
      expect(planRow(row, context(record))).toMatchObject({ code: 'optedOut', fresh: true });
    });

    test('two addresses on a shared domain (webmail, example.com, a provider, a university) are never colleagues', () => {
      for (const domain of ['gmail.com', 'example.com', 'comcast.net', 'mit.edu']) {
        const other = ann({ email: `ann@${domain}` });
        const replies = {
          ...noReplies(),
          companies: new Map([[`domain:${domain}`, { email: `z@${domain}` }]]),
        };
        expect(planRow(other, context(recordOf(other, 1, NOW - 10 * DAY), { replies }))).toMatchObject({
          kind: 'due',
        });
      }
    });

    test("the same Company hash ID on another domain: named by the row's own Company cell", () => {
      const carl = ann({ email: 'carl@acme.com', cells: { 'Company hash ID': 'h7', company: 'Replyco' } });
      const replies = { ...noReplies(), companies: new Map([['id:h7', { email: 'jane@example.com' }]]) };
      expect(planRow(carl, context(recordOf(carl, 1, NOW - 10 * DAY), { replies }))).toMatchObject({
        code: 'company',
        detail: 'someone at Replyco replied (jane@example.com)',
      });
    });
  });
});

describe('companyOf', () => {
  test('the Company hash ID when the list has one, else the domain; none for webmail', () => {
    expect(companyOf(ann({ cells: { 'Company hash ID': 'h42', company: 'Acme' } }))).toEqual({
      key: 'id:h42',
      label: 'Acme',
    });
    expect(companyOf(ann())).toEqual({ key: 'domain:acme.com', label: 'acme.com' });
    expect(companyOf(ann({ email: 'ann@gmail.com' }))).toBeNull();
    expect(companyOf(ann({ email: 'ann@gmail.com', cells: { 'Company hash ID': 'h1' } }))).toEqual({
      key: 'id:h1',
      label: 'their company',
    });
  });
});

describe('planView', () => {
  test('what the Sequence cell shows for each plan', () => {
    const person = { addr: 'a', content: 'c', posted: 2, stop: '' as const, serial: 0, at: NOW - DAY };
    expect(planView({ kind: 'held', person }, 2)).toEqual({ kind: 'held' });
    expect(planView({ kind: 'stopped', person, code: 'replied' }, 2)).toEqual({
      kind: 'stopped',
      code: 'replied',
      detail: undefined,
    });
    expect(planView({ kind: 'finished', person }, 2)).toEqual({ kind: 'finished', of: 2, at: NOW - DAY });
    expect(planView({ kind: 'later', person, step: 2, at: NOW + DAY }, 2)).toEqual({
      kind: 'next',
      step: 2,
      of: 2,
      at: NOW + DAY,
      sentAt: NOW - DAY,
    });
  });
});

describe('recordStops', () => {
  test('fresh stops go into the record: the person stops; a reply or opt-out stops everywhere; a company is kept', () => {
    const row = ann();
    const { ledger } = recordOf(row, 1);
    const addr = addressMark(ledger.secret, row.key);
    recordStops(ledger, SHEET, [{ addr, code: 'replied', company: 'co-mark' }]);
    expect(ledger.list(SHEET)!.people.get(addr)!.stop).toBe('replied');
    expect(ledger.stops.get(addr)).toBe('replied');
    expect(ledger.companies.has('co-mark')).toBe(true);
  });

  test('a menu stop holds on this list only; an earlier stop is not overwritten', () => {
    const row = ann();
    const { ledger } = recordOf(row, 1, NOW, 'failed');
    const addr = addressMark(ledger.secret, row.key);
    recordStops(ledger, SHEET, [{ addr, code: 'menu' }]);
    expect(ledger.list(SHEET)!.people.get(addr)!.stop).toBe('failed');
    expect(ledger.stops.size).toBe(0);
  });
});

describe('an out-of-office pause (the mailbox scan, features/inbox)', () => {
  test('a step due before the return date waits until it, then goes on', () => {
    const record = recordOf(ann(), 1, NOW - 4 * DAY); // step 1 was due a day ago
    const addr = addressMark(record.ledger.secret, 'ann@acme.com');
    const back = NOW + 2 * DAY;
    record.ledger.pause(addr, back);
    const plan = planRow(ann(), context(record));
    expect(plan).toMatchObject({ kind: 'later', step: 1, at: back, paused: true });
    expect(planView(plan as Exclude<typeof plan, { kind: 'out' | 'due' }>, 2)).toEqual({
      kind: 'paused',
      until: back,
    });
    expect(planRow(ann(), context(record, { now: back + 1 }))).toMatchObject({ kind: 'due', step: 1 });
  });

  test('a step due after the return date keeps its own time', () => {
    const record = recordOf(ann(), 1, NOW); // step 1 in 3 days
    record.ledger.pause(addressMark(record.ledger.secret, 'ann@acme.com'), NOW + DAY);
    expect(planRow(ann(), context(record))).toEqual(
      expect.objectContaining({ kind: 'later', at: NOW + 3 * DAY }),
    );
    expect(planRow(ann(), context(record))).not.toHaveProperty('paused');
  });

  test('a reply the scan read shows its day on the stop', () => {
    const record = recordOf(ann(), 1, NOW - DAY, 'replied');
    record.ledger.answer(addressMark(record.ledger.secret, 'ann@acme.com'), 'replied', NOW - 3600_000);
    expect(planRow(ann(), context(record))).toMatchObject({
      kind: 'stopped',
      code: 'replied',
      detail: '2026-03-10',
    });
  });
});
