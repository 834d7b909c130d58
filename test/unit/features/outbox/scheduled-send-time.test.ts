// src/features/outbox/scheduled-send-time.ts: the time a send is scheduled for, given as a wall time in the
// spreadsheet's zone (or with its own offset), and the hour in which it starts.
import { UserError } from '../../../../src/features/errors';
import { parseWhen, startWindowText } from '../../../../src/features/outbox/scheduled-send-time';
import { useUtilities } from '../../gas-utilities';

useUtilities();

describe('parseWhen', () => {
  test("a wall time is in the spreadsheet's zone, summer time included", () => {
    expect(parseWhen('2026-01-05T14:00', 'Europe/Paris')).toBe(Date.UTC(2026, 0, 5, 13));
    expect(parseWhen('2026-07-05 14:00', 'Europe/Paris')).toBe(Date.UTC(2026, 6, 5, 12));
    expect(parseWhen('2026-01-05T14:00:30', 'Asia/Kolkata')).toBe(Date.UTC(2026, 0, 5, 8, 30, 30));
  });

  test('across a daylight-saving change the offset of the time itself is used', () => {
    // Paris moves to summer time at 02:00 on 2026-03-29: 03:30 that day is 01:30 UTC.
    expect(parseWhen('2026-03-29T03:30', 'Europe/Paris')).toBe(Date.UTC(2026, 2, 29, 1, 30));
  });

  test('a time with Z or an offset is taken as it says', () => {
    expect(parseWhen('2026-01-05T14:00Z', 'Europe/Paris')).toBe(Date.UTC(2026, 0, 5, 14));
    expect(parseWhen('2026-01-05T14:00+05:30', 'Europe/Paris')).toBe(Date.UTC(2026, 0, 5, 8, 30));
    expect(parseWhen('2026-01-05T14:00-0800', 'Europe/Paris')).toBe(Date.UTC(2026, 0, 5, 22));
  });

  test('not a date and time, or one that does not exist: refused with an example', () => {
    expect(() => parseWhen('tomorrow 2pm', 'Etc/UTC')).toThrow(
      new UserError(
        `"tomorrow 2pm" is not a date and time: give it as 2026-01-05T14:00 (the spreadsheet's time zone).`,
      ),
    );
    expect(() => parseWhen('2026-02-30T10:00', 'Etc/UTC')).toThrow(
      '"2026-02-30T10:00" is not a date and time that exists.',
    );
    expect(() => parseWhen('2026-01-05T24:00', 'Etc/UTC')).toThrow('is not a date and time that exists');
    expect(() => parseWhen(undefined, 'Etc/UTC')).toThrow(UserError);
  });
});

describe('startWindowText', () => {
  test("the hour after the time, in the spreadsheet's zone; a past time starts from now", () => {
    const at = Date.UTC(2100, 0, 5, 13);
    expect(startWindowText(at, 'Europe/Paris')).toBe('between 14:00 and 15:00 on 2100-01-05 (Europe/Paris)');
    const now = jest.spyOn(Date, 'now').mockReturnValue(Date.UTC(2026, 0, 5, 9, 30));
    expect(startWindowText(Date.UTC(2020, 0, 1), 'Etc/UTC')).toBe(
      'between 09:30 and 10:30 on 2026-01-05 (Etc/UTC)',
    );
    now.mockRestore();
  });
});
