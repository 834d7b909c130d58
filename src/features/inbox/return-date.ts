// The return date an out-of-office answer gives ("I am back on 10 December 2026", "zurück am 10.12.2026",
// "de retour le 10 déc.", "hasta el 10 de diciembre", "2026年12月10日"), in the ten languages the classifier
// reads. Every date written in the answer is read; the latest one within RETURN_WINDOW_DAYS after the answer
// counts ("away from 1 to 10 December" → 10 December). A date without a year is its next occurrence. The day
// is answered at noon UTC, so it is the same day in every time zone the spreadsheet may be in.
import { DAY_MS } from '../../platform';
import { fold } from './inbox-words';

/** A return date further than this after the answer is not believed (a typo, a year). */
export const RETURN_WINDOW_DAYS = 120;

const MONTHS: Array<[number, string[]]> = [
  [1, ['january', 'januar', 'janner', 'janvier', 'enero', 'janeiro', 'gennaio', 'januari', 'ocak']],
  [2, ['february', 'februar', 'fevrier', 'febrero', 'fevereiro', 'febbraio', 'februari', 'subat']],
  [3, ['march', 'marz', 'mars', 'marzo', 'marco', 'maart', 'mart']],
  [4, ['april', 'avril', 'abril', 'aprile', 'nisan']],
  [5, ['may', 'mai', 'mayo', 'maio', 'maggio', 'mei', 'mayis']],
  [6, ['june', 'juni', 'juin', 'junio', 'junho', 'giugno', 'haziran']],
  [7, ['july', 'juli', 'juillet', 'julio', 'julho', 'luglio', 'temmuz']],
  [8, ['august', 'aout', 'agosto', 'augustus', 'agustos']],
  [9, ['september', 'septembre', 'septiembre', 'setiembre', 'setembro', 'settembre', 'eylul']],
  [10, ['october', 'oktober', 'octobre', 'octubre', 'outubro', 'ottobre', 'ekim']],
  [11, ['november', 'novembre', 'noviembre', 'novembro', 'kasim']],
  [12, ['december', 'dezember', 'decembre', 'diciembre', 'dezembro', 'dicembre', 'aralik']],
];
/** Short forms, only beside a day number ("out", "set", "ago" are words too, so not theirs). */
const SHORT: Array<[number, string[]]> = [
  [1, ['jan', 'janv', 'ene', 'gen']],
  [2, ['feb', 'fev', 'fevr', 'febr']],
  [3, ['mar', 'mrz']],
  [4, ['apr', 'avr', 'abr']],
  [6, ['jun']],
  [7, ['jul', 'juil', 'lug']],
  [8, ['aug']],
  [9, ['sep', 'sept']],
  [10, ['oct', 'okt', 'ott']],
  [11, ['nov']],
  [12, ['dec', 'dez', 'dic']],
];
const MONTH_OF = new Map<string, number>();
for (const [month, names] of [...MONTHS, ...SHORT]) for (const name of names) MONTH_OF.set(name, month);
const MONTH_NAME = [...MONTH_OF.keys()].sort((a, b) => b.length - a.length).join('|');

type Found = { day: number; month: number; year?: number };
type Reader = { pattern: RegExp; read: (m: RegExpExecArray) => Found };

const num = (text: string | undefined) => (text === undefined ? undefined : Number(text));
const fullYear = (y: number | undefined) => (y === undefined ? undefined : y < 100 ? 2000 + y : y);
const B = '(?<![\\p{L}\\p{N}])';
const E = '(?![\\p{L}\\p{N}])';

const READERS: Reader[] = [
  // 2026-12-10
  {
    pattern: new RegExp(`${B}(\\d{4})-(\\d{1,2})-(\\d{1,2})${E}`, 'gu'),
    read: (m) => ({ year: +m[1], month: +m[2], day: +m[3] }),
  },
  // 2026年12月10日, 12月10日
  {
    pattern: /(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月\s*(\d{1,2})\s*[日号號]/gu,
    read: (m) => ({ year: num(m[1]), month: +m[2], day: +m[3] }),
  },
  // ngày 10 tháng 12 năm 2026
  {
    pattern: new RegExp(`${B}(?:ngay )?(\\d{1,2}) thang (\\d{1,2})(?: nam (\\d{4}))?${E}`, 'gu'),
    read: (m) => ({ day: +m[1], month: +m[2], year: num(m[3]) }),
  },
  // 10.12.2026, 10/12/26, 10.12. (a day and month alone only with its closing dot, not a time as 10.30)
  {
    pattern: new RegExp(`${B}(\\d{1,2})([./])(\\d{1,2})(?:\\2(\\d{4}|\\d{2})${E}|\\.(?!\\d))`, 'gu'),
    read: (m) => dayMonth(+m[1], +m[3], m[2], fullYear(num(m[4]))),
  },
  // 10 December 2026, 10. Dezember, 10 de diciembre de 2026, 10th of Dec
  {
    pattern: new RegExp(
      `${B}(\\d{1,2})(?:st|nd|rd|th|er|\\.|º)?(?: of| de)? (${MONTH_NAME})\\.?(?:,? (?:de )?(\\d{4}))?${E}`,
      'gu',
    ),
    read: (m) => ({ day: +m[1], month: MONTH_OF.get(m[2])!, year: num(m[3]) }),
  },
  // December 10, 2026; Dec. 10th; 10 Aralık
  {
    pattern: new RegExp(`${B}(${MONTH_NAME})\\.? (\\d{1,2})(?:st|nd|rd|th)?(?:,? (\\d{4}))?${E}`, 'gu'),
    read: (m) => ({ month: MONTH_OF.get(m[1])!, day: +m[2], year: num(m[3]) }),
  },
];

/** 10/12 is the 10th of December, unless only the other order is a date (12/25: 25 December). */
function dayMonth(first: number, second: number, separator: string, year?: number): Found {
  if (separator === '/' && first <= 12 && second > 12) return { day: second, month: first, year };
  return { day: first, month: second, year };
}

/** The latest return date written in `text` within the window after `sentAt` (ms, noon UTC), or null. */
export function returnDate(text: string, sentAt: number): number | null {
  const folded = fold(text);
  let best: number | null = null;
  for (const { pattern, read } of READERS) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(folded); m; m = pattern.exec(folded)) {
      const at = dayOf(read(m), sentAt);
      if (at !== null && (best === null || at > best)) best = at;
    }
  }
  return best;
}

/** The found day at noon UTC, its year completed; null when it is no date or outside the window. */
function dayOf(found: Found, sentAt: number): number | null {
  const { day, month } = found;
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= 31)) return null;
  const sent = new Date(sentAt);
  const start = Date.UTC(sent.getUTCFullYear(), sent.getUTCMonth(), sent.getUTCDate(), 12);
  const year = found.year ?? sent.getUTCFullYear();
  let at = Date.UTC(year, month - 1, day, 12);
  if (new Date(at).getUTCDate() !== day) return null; // 31 April
  if (found.year === undefined && at < start) at = Date.UTC(year + 1, month - 1, day, 12);
  if (at < start || at > start + RETURN_WINDOW_DAYS * DAY_MS) return null;
  return at;
}
