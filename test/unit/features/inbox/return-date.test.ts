// The return date of an out-of-office answer, in the forms and languages the classifier reads.
import { returnDate, RETURN_WINDOW_DAYS } from '../../../../src/features/inbox/return-date';

const SENT = Date.UTC(2026, 11, 3, 9, 30); // 2026-12-03 09:30 UTC
const day = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString().slice(0, 10));

describe('returnDate', () => {
  test.each([
    ['I am back on 10 December 2026.', '2026-12-10'],
    ['I will return on December 10, 2026', '2026-12-10'],
    ['Back Dec. 10th', '2026-12-10'],
    ['back on 2026-12-10', '2026-12-10'],
    ['Ich bin ab dem 10.12.2026 wieder im Büro.', '2026-12-10'],
    ['Ich bin bis 10. Dezember nicht erreichbar', '2026-12-10'],
    ['zurück am 10.12.', '2026-12-10'],
    ['Je serai de retour le 10 décembre 2026', '2026-12-10'],
    ['absent jusqu’au 10 déc.', '2026-12-10'],
    ['Estaré fuera hasta el 10 de diciembre de 2026', '2026-12-10'],
    ['Estarei ausente até 10 de dezembro', '2026-12-10'],
    ['Sarò fuori ufficio fino al 10 dicembre', '2026-12-10'],
    ['Ik ben terug op 10 december', '2026-12-10'],
    ['10 Aralık 2026 tarihine kadar izindeyim', '2026-12-10'],
    ['Tôi sẽ quay lại vào ngày 10 tháng 12 năm 2026', '2026-12-10'],
    ['我将于2026年12月10日返回', '2026-12-10'],
    ['12月10日回来', '2026-12-10'],
    ['Out until 12/25/2026', '2026-12-25'],
    ['Away from 5 December to 10 December', '2026-12-10'],
    ['Back on 5 January', '2027-01-05'],
  ])('%s → %s', (text, expected) => {
    expect(day(returnDate(text, SENT))).toBe(expected);
  });

  test('no date, a time, a date in the past or beyond the window: none', () => {
    expect(returnDate('I am away this week, back soon.', SENT)).toBeNull();
    expect(returnDate('Office hours 9.00 to 17.30.', SENT)).toBeNull();
    expect(returnDate('I was away on 2026-11-20.', SENT)).toBeNull();
    expect(returnDate(`back on ${2027}-08-01`, SENT)).toBeNull();
    expect(RETURN_WINDOW_DAYS).toBe(120);
  });

  test('the day is answered at noon UTC: the same day in any time zone', () => {
    expect(new Date(returnDate('back 10 December', SENT)!).getUTCHours()).toBe(12);
  });
});
