// src/features/outbox/send-timing.ts and country-zones.ts: the timing as Compose sends it (checked, each
// problem named), the zone a row is timed in (Time zone, else Country, else the spreadsheet's), the first open
// instant of a window in a zone (summer time included, dates to skip), and the hourly limit's room.
import { countryZone } from '../../../../src/features/outbox/country-zones';
import {
  firstOpen,
  hourRoom,
  nextHour,
  parseTiming,
  sendClock,
  timed,
} from '../../../../src/features/outbox/send-timing';
import type { Ledger, LedgerList, Person } from '../../../../src/features/outbox/ledger';
import { UserError } from '../../../../src/features/errors';
import { listRow } from '../../list-rows';
import { useUtilities } from '../../gas-utilities';

useUtilities();

const HOUR = 3600_000;
const WINDOW = { days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00', zone: 'recipient' as const };
// Monday 5 January 2026, 12:00 UTC.
const MONDAY_NOON = Date.UTC(2026, 0, 5, 12);

describe('parseTiming', () => {
  test('empty parts are left out: no rule at all is no timing', () => {
    expect(parseTiming({ skipDates: '', hourlyLimit: '', sendWindow: null })).toEqual({});
    expect(timed(parseTiming({}))).toBe(false);
  });

  test('dates from a list or a text, sorted once each; a window with its days sorted; a limit', () => {
    expect(
      parseTiming({
        skipDates: '2026-12-25, 2026-12-24 2026-12-25',
        sendWindow: { days: [5, 1, 3], from: '08:30', to: '18:00', zone: 'spreadsheet' },
        hourlyLimit: '50',
      }),
    ).toEqual({
      skipDates: ['2026-12-24', '2026-12-25'],
      sendWindow: { days: [1, 3, 5], from: '08:30', to: '18:00', zone: 'spreadsheet' },
      hourlyLimit: 50,
    });
  });

  test.each([
    [{ skipDates: ['24/12/2026'] }, '"24/12/2026" is not a date to skip: write dates as YYYY-MM-DD'],
    [{ sendWindow: { ...WINDOW, days: [] } }, 'needs at least one weekday'],
    [{ sendWindow: { ...WINDOW, days: [8] } }, 'needs at least one weekday'],
    [{ sendWindow: { ...WINDOW, from: '9' } }, 'times such as 09:00 and 17:00'],
    [{ sendWindow: { ...WINDOW, from: '18:00' } }, 'ends after it starts'],
    [{ hourlyLimit: 2.5 }, 'The hourly limit is a whole number'],
  ])('%j is refused, naming what to change', (input, words) => {
    expect(() => parseTiming(input)).toThrow(UserError);
    expect(() => parseTiming(input)).toThrow(words);
  });
});

describe('the zone a row is timed in', () => {
  const row = (cells: Record<string, string>) => listRow(2, { email: 'a@example.com', cells });
  const clock = sendClock({ sendWindow: WINDOW }, 'Europe/Paris', MONDAY_NOON);

  test('its Time zone, else its Country (the capital where several), else the spreadsheet', () => {
    expect(clock.zoneOf(row({ 'Time zone': 'Asia/Tokyo', Country: 'US' }))).toBe('Asia/Tokyo');
    expect(clock.zoneOf(row({ 'Time zone': 'Not/A_Zone', Country: ' us ' }))).toBe('America/New_York');
    expect(clock.zoneOf(row({ Country: 'XX' }))).toBe('Europe/Paris');
    expect(clock.zoneOf(row({}))).toBe('Europe/Paris');
  });

  test("a window in the spreadsheet's zone times every row there", () => {
    const spreadsheet = sendClock({ sendWindow: { ...WINDOW, zone: 'spreadsheet' } }, 'Europe/Paris');
    expect(spreadsheet.zoneOf(row({ 'Time zone': 'Asia/Tokyo' }))).toBe('Europe/Paris');
  });

  test('country codes', () => {
    expect(countryZone('de')).toBe('Europe/Berlin');
    expect(countryZone('AU')).toBe('Australia/Sydney');
    expect(countryZone('')).toBe('');
  });
});

describe('firstOpen', () => {
  const none = new Set<string>();
  test('inside the window: now; before it: its opening today; after it: the next working day', () => {
    expect(firstOpen(MONDAY_NOON, 'Etc/UTC', WINDOW, none)).toBe(MONDAY_NOON);
    expect(firstOpen(MONDAY_NOON, 'America/New_York', WINDOW, none)).toBe(Date.UTC(2026, 0, 5, 14)); // 09:00 EST
    expect(firstOpen(MONDAY_NOON, 'Asia/Tokyo', WINDOW, none)).toBe(Date.UTC(2026, 0, 6, 0)); // Tue 09:00 JST
  });

  test('Friday evening waits for Monday; a date to skip moves it a day on', () => {
    const friday = Date.UTC(2026, 0, 9, 18);
    expect(firstOpen(friday, 'Etc/UTC', WINDOW, none)).toBe(Date.UTC(2026, 0, 12, 9));
    expect(firstOpen(friday, 'Etc/UTC', WINDOW, new Set(['2026-01-12']))).toBe(Date.UTC(2026, 0, 13, 9));
  });

  test('without a window, a date to skip is skipped whole, in the zone', () => {
    expect(firstOpen(MONDAY_NOON, 'Etc/UTC', undefined, new Set(['2026-01-05']))).toBe(Date.UTC(2026, 0, 6));
    expect(firstOpen(MONDAY_NOON, 'Etc/UTC', undefined, new Set(['2026-01-06']))).toBe(MONDAY_NOON);
  });

  test('the opening after a change of summer time is at its local hour', () => {
    // New York goes to summer time on Sunday 8 March 2026: Monday 09:00 EDT is 13:00 UTC.
    const sunday = Date.UTC(2026, 2, 8, 12);
    expect(firstOpen(sunday, 'America/New_York', WINDOW, none)).toBe(Date.UTC(2026, 2, 9, 13));
  });
});

describe('hourRoom', () => {
  const person = (at: number): Person => ({ addr: 'x', content: 'y', posted: 1, stop: '', serial: 0, at });
  /** The ledger with the list of sheet 1 (its people's last mails at `ats`) and its hour's count. */
  const ledger = (ats: number[], counted = 0) =>
    ({
      list: () => ({ people: new Map(ats.map((at, i) => [String(i), person(at)])) }) as unknown as LedgerList,
      postedInHour: () => counted,
    }) as unknown as Ledger;

  test('no limit: no end; a limit: less what went since the clock hour began', () => {
    expect(hourRoom(ledger([]), 1, undefined, MONDAY_NOON)).toBe(Infinity);
    const at = MONDAY_NOON + 30 * 60_000;
    expect(hourRoom(ledger([MONDAY_NOON - 1, MONDAY_NOON, at]), 1, { hourlyLimit: 5 }, at)).toBe(3);
    expect(hourRoom(ledger([MONDAY_NOON, MONDAY_NOON]), 1, { hourlyLimit: 1 }, at)).toBe(0);
    expect(nextHour(at)).toBe(MONDAY_NOON + HOUR);
  });

  test('what the list posted this hour counts even when its people left the record (a send cancelled and confirmed again)', () => {
    const at = MONDAY_NOON + 30 * 60_000;
    expect(hourRoom(ledger([], 4), 1, { hourlyLimit: 4 }, at)).toBe(0);
    expect(hourRoom(ledger([at], 3), 1, { hourlyLimit: 10 }, at)).toBe(7);
  });
});
