// src/features/inbox/decide.ts: answers matched to the ledger by address mark, only after that
// person's first mail (a late one still counts), a bounce for its one list; their decisions kept in the record
// (stops, company, pause, answer, watermark).
import '../../build-constants';
import { Ledger } from '../../../../src/features/outbox/ledger';
import { addressMark } from '../../../../src/features/outbox/marks';
import { decide, record, scanTargets, SCAN_DAYS } from '../../../../src/features/inbox/decide';
import type { InboxMessage } from '../../../../src/features/inbox/classify';
import { useUtilities } from '../../gas-utilities';

useUtilities();

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 11, 3, 10);

function ledgerWith(
  people: Array<{ email: string; at: number; posted?: number; stop?: '' | 'replied' }>,
  steps = 2,
) {
  const ledger = Ledger.read();
  [ledger.lists, ledger.stops, ledger.companies, ledger.paused, ledger.answers].forEach((p) => p.clear());
  ledger.inboxAfter = 0;
  const list = ledger.openList(7, 'mail', steps, [], 'fp', 'campaign');
  for (const p of people) {
    const addr = addressMark(ledger.secret, p.email);
    list.people.set(addr, {
      addr,
      content: 'c',
      posted: p.posted ?? 1,
      stop: p.stop ?? '',
      serial: 0,
      at: p.at,
    });
  }
  return ledger;
}
const message = (
  from: string,
  at: number,
  headers: Record<string, string> = {},
  snippet = '',
): InboxMessage => ({
  id: String(at),
  at,
  headers: { from, subject: 'Re: Hello', ...headers },
  snippet,
});

describe('scanTargets', () => {
  test('people mailed in the last 30 days, and those of a running sequence', () => {
    const ledger = ledgerWith([
      { email: 'recent@x.com', at: NOW - DAY },
      { email: 'old@x.com', at: NOW - (SCAN_DAYS + 1) * DAY, stop: 'replied' },
      { email: 'queued@x.com', at: 0, posted: 0 },
      { email: 'running@x.com', at: NOW - 40 * DAY },
    ]);
    const mark = (e: string) => addressMark(ledger.secret, e);
    expect(scanTargets(ledger, NOW)).toEqual(new Set([mark('recent@x.com'), mark('running@x.com')]));
  });
});

describe('decide and record', () => {
  test("each answer after its person's last mail decides; others and strangers do not", () => {
    const ledger = ledgerWith([
      { email: 'ann@acme.com', at: NOW - DAY },
      { email: 'cara@delta.de', at: NOW - DAY },
      { email: 'dan@echo.com', at: NOW - DAY },
      { email: 'tom@fox.org', at: NOW - DAY },
      { email: 'late@x.com', at: NOW },
    ]);
    const decisions = decide(ledger, [
      message('Ann <ann@acme.com>', NOW - 3600_000),
      message('cara@delta.de', NOW - 7200_000, { 'auto-submitted': 'auto-replied' }, 'back on 10 December'),
      message('dan@echo.com', NOW - 3000_000, {}, 'Please unsubscribe me'),
      {
        ...message('mailer-daemon@google.com', NOW - 1000_000, { 'return-path': '<>' }, '550 5.1.1'),
        report: { failed: [{ address: 'tom@fox.org', status: '550 5.1.1' }], originalTo: ['tom@fox.org'] },
      },
      message('late@x.com', NOW - 60_000), // before their one mail: an older conversation
      message('stranger@y.com', NOW - 60_000),
    ]);
    expect(decisions.map((d) => d.verdict.code)).toEqual(['outOfOffice', 'reply', 'unsubscribe', 'bounce']);
    expect(decisions.every((d) => d.sheetIds[0] === 7)).toBe(true);
    decisions[1].companyKey = 'id:H-ACME';
    const through = NOW;
    record(ledger, decisions, through);
    const mark = (e: string) => addressMark(ledger.secret, e);
    const people = ledger.list(7)!.people;
    expect(people.get(mark('ann@acme.com'))!.stop).toBe('replied');
    expect(ledger.stops.get(mark('ann@acme.com'))).toBe('replied');
    expect(ledger.companies.has(addressMark(ledger.secret, 'id:H-ACME'))).toBe(true);
    expect(people.get(mark('dan@echo.com'))!.stop).toBe('optedOut');
    expect(ledger.stops.get(mark('dan@echo.com'))).toBe('optedOut');
    expect(people.get(mark('tom@fox.org'))!.stop).toBe('failed');
    expect(people.get(mark('cara@delta.de'))!.stop).toBe('');
    expect(ledger.pausedUntil(mark('cara@delta.de'), NOW)).toBe(Date.UTC(2026, 11, 10, 12));
    expect(ledger.answers.get(mark('ann@acme.com'))).toEqual({ code: 'replied', at: NOW - 3600_000 });
    expect(ledger.inboxAfter).toBe(through);
    // Done twice (a scan redone after it was killed): the same record.
    const before = JSON.stringify([...ledger.stops, ...ledger.paused, ...ledger.answers]);
    record(ledger, decisions, through - DAY);
    expect(JSON.stringify([...ledger.stops, ...ledger.paused, ...ledger.answers])).toBe(before);
    expect(ledger.inboxAfter).toBe(through);
  });

  test('an answer after an out-of-office answer ends the pause', () => {
    const ledger = ledgerWith([{ email: 'cara@delta.de', at: NOW - DAY }]);
    const decisions = decide(ledger, [
      message('cara@delta.de', NOW - 7200_000, { 'auto-submitted': 'auto-replied' }),
      message('cara@delta.de', NOW - 3600_000, {}, 'Back now, tell me more'),
    ]);
    record(ledger, decisions, NOW);
    const mark = addressMark(ledger.secret, 'cara@delta.de');
    expect(ledger.pausedUntil(mark, NOW)).toBe(0);
    expect(ledger.answers.get(mark)!.code).toBe('replied');
  });
});

describe('a send that ended (the lists say it went, the record no longer holds it)', () => {
  test('its people are scanned and their answers decided on their lists, after their mail only', () => {
    const ledger = ledgerWith([]);
    const mark = (e: string) => addressMark(ledger.secret, e);
    const recent = new Map([
      [mark('dan@echo.com'), { email: 'dan@echo.com', at: NOW - DAY, first: new Map([[9, NOW - DAY]]) }],
    ]);
    expect(scanTargets(ledger, NOW, recent)).toEqual(new Set([mark('dan@echo.com')]));
    const decisions = decide(
      ledger,
      [
        message('dan@echo.com', NOW - 2 * DAY, {}, 'unsubscribe'), // before the mail
        message('dan@echo.com', NOW - 3600_000, {}, 'Please unsubscribe me'),
      ],
      recent,
    );
    expect(decisions).toEqual([expect.objectContaining({ sheetIds: [9], at: NOW - 3600_000 })]);
    record(ledger, decisions, NOW);
    expect(ledger.stops.get(mark('dan@echo.com'))).toBe('optedOut');
    expect(ledger.answers.get(mark('dan@echo.com'))!.code).toBe('optedOut');
  });
});

describe('a reply read late, and a bounce on two lists', () => {
  test('a reply older than the last step still counts (after the first mail); a bounce fails the list of the mail before it', () => {
    const ledger = ledgerWith([{ email: 'eve@quiet.com', at: NOW - DAY, posted: 2 }]);
    const mark = (e: string) => addressMark(ledger.secret, e);
    const other = ledger.openList(8, 'mail', 0, [], 'fp', 'campaign');
    other.people.set(mark('eve@quiet.com'), {
      ...ledger.list(7)!.people.get(mark('eve@quiet.com'))!,
      posted: 1,
      at: NOW - 5 * DAY,
    });
    const first = new Map([[7, NOW - 4 * DAY]]);
    const recent = new Map([[mark('eve@quiet.com'), { email: 'eve@quiet.com', at: NOW - 4 * DAY, first }]]);
    const reply = message('eve@quiet.com', NOW - 3 * DAY);
    expect(decide(ledger, [reply], recent)).toEqual([expect.objectContaining({ sheetIds: [8, 7] })]);
    const before = message('eve@quiet.com', NOW - 4.5 * DAY); // after list 8's mail, before list 7's first
    expect(decide(ledger, [before], recent)).toEqual([expect.objectContaining({ sheetIds: [8] })]);
    const bounce = {
      ...message('mailer-daemon@googlemail.com', NOW - 2 * DAY, { 'return-path': '<>' }),
      report: { failed: [{ address: 'eve@quiet.com', status: '550' }], originalTo: ['eve@quiet.com'] },
    };
    expect(decide(ledger, [bounce], recent)).toEqual([expect.objectContaining({ sheetIds: [7] })]);
  });
});
