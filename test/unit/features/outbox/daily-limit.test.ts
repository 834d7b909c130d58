// src/features/outbox/daily-limit.ts: a list's day under its daily limit and ramp, and the schedule the
// confirmation states.
import {
  countDay,
  dailyLine,
  dayRoom,
  nextDay,
  pausedToday,
} from '../../../../src/features/outbox/daily-limit';
import type { LedgerList } from '../../../../src/features/outbox/ledger';

const DAY = 24 * 3600 * 1000;
const START = Date.UTC(2026, 0, 5, 9);

function list(limit: number, ramp: number): LedgerList {
  return {
    sheetId: 1,
    keyFp: 'k',
    mail: 'm',
    steps: 0,
    fields: [],
    serial: 0,
    people: new Map(),
    at: START,
    guard: { limit: 5, ids: '', final: 0, failed: 0, daily: { limit, ramp } },
  };
}

describe('the daily limit', () => {
  test('a day takes up to its cap; the next day, counted from the first mail, rises by the ramp', () => {
    const l = list(50, 20);
    expect(dayRoom(l, START)).toBe(50);
    countDay(l, START, 50);
    expect(dayRoom(l, START + DAY - 1)).toBe(0);
    expect(nextDay(l, START + 3600_000)).toEqual({ cap: 50, at: START + DAY });
    expect(dayRoom(l, START + DAY)).toBe(60);
    countDay(l, START + DAY, 60);
    expect(dayRoom(l, START + 2 * DAY)).toBe(72);
    expect(dayRoom(l, START + 3 * DAY)).toBe(87); // two days on: 72, then 86.4 rounded up
  });

  test('a day the bounce guard paused the list keeps its cap; no limit leaves the room unbounded', () => {
    const l = list(50, 20);
    countDay(l, START, 10);
    pausedToday(l.guard!);
    expect(dayRoom(l, START + DAY)).toBe(50);
    expect(dayRoom({ ...l, guard: { ...l.guard!, daily: undefined } }, START)).toBe(Infinity);
  });

  test('the schedule the confirmation states', () => {
    expect(dailyLine(300, 50, 20)).toMatch(
      /^Daily limit: 300 mails: about 5 days at 50 a day rising 20 % a day /,
    );
    expect(dailyLine(10_000, 50, 0)).toMatch(/^Daily limit: 10,000 mails: about 200 days at 50 a day /);
    expect(dailyLine(40, 50, 0)).toMatch(/: one day at 50 a day /);
  });
});
