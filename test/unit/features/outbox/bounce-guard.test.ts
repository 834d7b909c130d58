// src/features/outbox/bounce-guard.ts: the final mail ids a list counted, kept as runs, each id once; the rate's
// words.
import '../../build-constants'; // bounce-guard.ts keeps its view under the owner's token (platform/owner.ts → settings)
import { addId, pauseDetail } from '../../../../src/features/outbox/bounce-guard';

describe('the runs of final mail ids', () => {
  test('consecutive ids make one run; an id seen again is not counted twice', () => {
    const runs: number[] = [];
    for (let id = 50001; id <= 50100; id++) expect(addId(runs, id)).toBe(true);
    expect(runs).toEqual([50001, 100]);
    expect(addId(runs, 50050)).toBe(false);
    expect(addId(runs, 50200)).toBe(true);
    expect(runs).toEqual([50001, 100, 99, 1]);
    for (let id = 50101; id < 50200; id++) addId(runs, id);
    expect(runs).toEqual([50001, 200]); // the gap filled: one run again
  });

  test("out of order, ids merge as they meet; the record's size follows the runs, not the mails", () => {
    const runs: number[] = [];
    for (const id of [10, 12, 11, 30, 9]) addId(runs, id);
    expect(runs).toEqual([9, 4, 17, 1]);
  });

  test('the rate as the rows say it', () => {
    expect(pauseDetail({ failed: 24, final: 200 })).toBe('bounce rate 12 % (24 of 200)');
  });
});
