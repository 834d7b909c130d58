// src/features/outbox/subject-test.ts: the test as Compose sends it, each person's place from the address's
// mark (the share and the subject, spread evenly), the tasks a posted chunk adds, and each row's subject or
// wait before and after the winner.
import {
  decideAt,
  keptTest,
  MAX_TASKS,
  parseSubjectTest,
  recordTestChunk,
  subjectSlot,
  testRecord,
  testSlot,
} from '../../../../src/features/outbox/subject-test';
import { addressMark } from '../../../../src/features/outbox/marks';
import type { LedgerList } from '../../../../src/features/outbox/ledger';
import { UserError } from '../../../../src/features/errors';
import { useUtilities } from '../../gas-utilities';

useUtilities();

const HOUR = 3600_000;
const TEST = {
  subjectVariants: ['A {{Name}}', 'B {{Name}}', 'C'],
  subjectTest: { share: 20, decideAfterHours: 4 },
};

describe('parseSubjectTest', () => {
  test('no subjects: no test; blank ones are dropped; the defaults are 20 % and 4 hours', () => {
    expect(parseSubjectTest({})).toBeUndefined();
    expect(parseSubjectTest({ subjectVariants: ['', ' '] })).toBeUndefined();
    expect(parseSubjectTest({ subjectVariants: ['A', '', 'B'] })).toEqual({
      variants: ['A', 'B'],
      share: 20,
      decideAfterHours: 4,
    });
  });

  test.each([
    [{ subjectVariants: ['A'] }, 'A subject test has 2 to 4 subjects'],
    [{ subjectVariants: ['A', 'B', 'C', 'D', 'E'] }, 'A subject test has 2 to 4 subjects'],
    [{ ...TEST, subjectTest: { share: 60, decideAfterHours: 4 } }, 'a whole percent from 5 to 50'],
    [{ ...TEST, subjectTest: { share: 20, decideAfterHours: 0 } }, 'a whole number of hours from 1 to 72'],
  ])('%j is refused, naming what to change', (input, words) => {
    expect(() => parseSubjectTest(input)).toThrow(UserError);
    expect(() => parseSubjectTest(input)).toThrow(words);
  });
});

describe('testSlot', () => {
  test('about the share is in the test, and its subjects come about evenly, the same each time', () => {
    const secret = 'a secret';
    const slots = Array.from({ length: 10_000 }, (_, i) =>
      testSlot(addressMark(secret, `p${i}@example.com`), 20, 3),
    );
    const inTest = slots.filter((s) => s.inTest);
    expect(inTest.length).toBeGreaterThan(1800);
    expect(inTest.length).toBeLessThan(2200);
    for (let v = 0; v < 3; v++) {
      const n = inTest.filter((s) => s.variant === v).length;
      expect(n).toBeGreaterThan(inTest.length / 3 - 100);
      expect(n).toBeLessThan(inTest.length / 3 + 100);
    }
    expect(testSlot(addressMark(secret, 'p1@example.com'), 20, 3)).toEqual(slots[1]);
  });
});

describe('the record of a running test', () => {
  const subjectTest = parseSubjectTest(TEST)!;
  const inShare = (variant: number) => {
    for (let i = 0; ; i++) {
      const addr = addressMark('s', `x${i}@example.com`);
      const slot = testSlot(addr, subjectTest.share, 3);
      if (slot.inTest && slot.variant === variant) return addr;
    }
  };
  const outside = () => {
    for (let i = 0; ; i++) {
      const addr = addressMark('s', `y${i}@example.com`);
      if (!testSlot(addr, subjectTest.share, 3).inTest) return addr;
    }
  };

  test("a chunk's tasks go to its subject, a bounded number; the first post starts the hours", () => {
    const list = { test: testRecord(subjectTest) } as unknown as LedgerList;
    expect(decideAt(list.test!)).toBe(Infinity);
    recordTestChunk(list, inShare(1), [7, 8], 1000);
    recordTestChunk(list, inShare(1), [8], 2000);
    recordTestChunk(list, outside(), [9], 500); // not in the test: not counted
    expect(list.test!.tasks).toEqual([[], [7, 8], []]);
    expect(decideAt(list.test!)).toBe(1000 + 4 * HOUR);
    for (let id = 100; id < 200; id++) recordTestChunk(list, inShare(2), [id], 3000);
    expect(list.test!.tasks[2]).toHaveLength(MAX_TASKS);
  });

  test('the share always its own subject; the rest wait for the winner, then get it', () => {
    const record = { ...testRecord(subjectTest), firstAt: 1000 };
    expect(subjectSlot(undefined, inShare(0))).toBeNull();
    expect(subjectSlot(record, inShare(2))).toEqual({ variant: 2 });
    expect(subjectSlot(record, outside(), 2000)).toEqual({ waitUntil: 1000 + 4 * HOUR });
    // Past its time with no winner (no subject opened yet): looked at again in the next hour.
    expect(subjectSlot(record, outside(), 1000 + 5 * HOUR)).toEqual({ waitUntil: 1000 + 6 * HOUR });
    const decided = {
      ...record,
      winner: 1,
      counts: [
        [10, 1],
        [10, 5],
        [10, 5],
      ] as Array<[number, number]>,
    };
    expect(subjectSlot(decided, outside())).toEqual({ variant: 1 });
    expect(subjectSlot(decided, inShare(2))).toEqual({ variant: 2 });
    // A chunk posted after the winner adds nothing to the counts.
    const list = { test: decided } as unknown as LedgerList;
    recordTestChunk(list, inShare(0), [55], 5000);
    expect(list.test!.tasks[0]).toEqual([]);
  });
});

describe('keptTest', () => {
  test('a changed test keeps its start, its tasks and a winner that still exists, sized to its subjects', () => {
    const three = parseSubjectTest(TEST)!;
    const two = parseSubjectTest({ ...TEST, subjectVariants: ['A', 'B'] })!;
    const earlier = { ...testRecord(three), tasks: [[1], [2], [3]], firstAt: 5, winner: 2, counts: [] };
    expect(keptTest(undefined, two)).toEqual(testRecord(two));
    const kept = keptTest(earlier, two);
    expect(kept).toMatchObject({ n: 2, tasks: [[1], [2]], firstAt: 5 });
    expect(kept.winner).toBeUndefined(); // subject 3 is gone: the test is decided again
    expect(keptTest({ ...earlier, winner: 1 }, two).winner).toBe(1);
  });
});
