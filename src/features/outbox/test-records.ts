// A list's subject test as the document shows it (`subjecttest.<sheetId>` in document properties): its
// subjects, when it is decided, and once decided each subject's sent, opened and open rate and the winner,
// for the Tracking summary every editor reads. The ledger (ledger.ts) decides; this only shows.
import { sheetRecords, DAY_MS, formatCount } from '../../platform';
import type { TestRecord } from './ledger';
import { decideAt } from './subject-test';

interface TestView {
  sheetId: number;
  sheetName: string;
  variants: string[];
  share: number;
  /** When it is decided (ms), 0 before its first mails went. */
  decideAt: number;
  winner?: number;
  counts?: Array<[number, number]>;
}

const SHOWN_MS = 30 * DAY_MS;
const records = sheetRecords<TestView>('subjecttest.', (value) => Array.isArray(value.variants));

/** The document's view of the test, written when it changed. */
export function showTest(
  sheet: { getSheetId(): number; getName(): string },
  variants: string[],
  test: TestRecord,
): void {
  const at = decideAt(test);
  const view: TestView = {
    sheetId: sheet.getSheetId(),
    sheetName: sheet.getName(),
    variants,
    share: test.share,
    decideAt: at < Infinity ? at : 0,
    ...(test.winner !== undefined ? { winner: test.winner, counts: test.counts } : {}),
  };
  const before = records.get(view.sheetId);
  if (JSON.stringify(before) !== JSON.stringify(view)) records.save(view.sheetId, view);
}

const TEST_TEXTS = {
  running: (sheet: string, n: number, share: number, when: string) =>
    `Subject test of "${sheet}": ${formatCount(n)} subjects on ${share}% of the list; ${when}.`,
  decidedAt: (time: string) => `the winner is chosen ${time} and sent to the rest`,
  notStarted: "the winner is chosen its hours after the test's first mails",
  variant: (subject: string, sent: number, opened: number, rate: number) =>
    `"${subject}": ${formatCount(sent)} sent, ${formatCount(opened)} opened (${rate}%)`,
  decided: (sheet: string, variants: string, winner: string) =>
    `Subject test of "${sheet}": ${variants}; winner: "${winner}", sent to the rest.`,
  noOpens: (sheet: string, variants: string, first: string) =>
    `Subject test of "${sheet}": ${variants}; no subject was opened, even a day after the test's time, so there is no winner: the first subject, "${first}", went to the rest.`,
  waitingForOpens: 'no subject has been opened yet: the winner is chosen once one is (a day more at most)',
};

/** The Tracking summary's words for each subject test of the document. */
export function testSummary(properties: Record<string, string>, time: (ms: number) => string): string[] {
  // A decided test is shown for 30 days after its decision, then no more (its record stays, one per sheet).
  const shown = records.all(properties).filter((v) => !v.decideAt || Date.now() - v.decideAt < SHOWN_MS);
  return shown.map((view) => {
    if (view.winner === undefined || !view.counts) {
      const when = !view.decideAt
        ? TEST_TEXTS.notStarted
        : view.decideAt < Date.now()
          ? TEST_TEXTS.waitingForOpens
          : TEST_TEXTS.decidedAt(time(view.decideAt));
      return TEST_TEXTS.running(view.sheetName, view.variants.length, view.share, when);
    }
    const variants = view.variants
      .map((subject, v) => {
        const [sent, opened] = view.counts![v] || [0, 0];
        return TEST_TEXTS.variant(subject, sent, opened, sent ? Math.round((opened / sent) * 100) : 0);
      })
      .join('; ');
    if (view.counts.every(([, opened]) => opened === 0))
      return TEST_TEXTS.noOpens(view.sheetName, variants, view.variants[view.winner]);
    return TEST_TEXTS.decided(view.sheetName, variants, view.variants[view.winner]);
  });
}
