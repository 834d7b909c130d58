// src/features/outbox/id-runs.ts: mail ids as base-64 varints and spans of consecutive ids (the bounce guard's
// final mails; the posted mails build their runs on the same varints: posted-mails.test.ts).
import {
  addToSpans,
  decodeSpans,
  encodeSpans,
  inSpans,
  readVarints,
  varints,
  type Span,
} from '../../../../src/features/outbox/id-runs';

const { mulberry32 } = require('../../../emulator');

describe('varints', () => {
  test('numbers of any size come back in their groups; a text cut short is refused', () => {
    const values = [0, 31, 32, 1023, 1024, 987_654_321, 2 ** 40];
    expect(readVarints(varints(values), 1)).toEqual(values);
    expect(varints([5, 40])).toHaveLength(3);
    const text = varints([70_000, 3]);
    expect(() => readVarints(text.slice(0, 2), 1)).toThrow(/cut short/);
    expect(() => readVarints(text, 3)).toThrow(/cut short/);
  });
});

describe('spans of final mail ids', () => {
  test('consecutive ids make one span; an id seen again is not counted twice', () => {
    const spans: Span[] = [];
    for (let id = 50001; id <= 50100; id++) expect(addToSpans(spans, id)).toBe(true);
    expect(spans).toEqual([[50001, 50100]]);
    expect(addToSpans(spans, 50050)).toBe(false);
    expect(addToSpans(spans, 50200)).toBe(true);
    expect(spans).toEqual([
      [50001, 50100],
      [50200, 50200],
    ]);
    for (let id = 50101; id < 50200; id++) addToSpans(spans, id);
    expect(spans).toEqual([[50001, 50200]]); // the gap filled: one span again
    expect(encodeSpans(spans).length).toBeLessThanOrEqual(6);
  });

  test('out of order, ids join as they meet', () => {
    const spans: Span[] = [];
    for (const id of [10, 12, 11, 30, 9, 0]) addToSpans(spans, id);
    expect(spans).toEqual([
      [0, 0],
      [9, 12],
      [30, 30],
    ]);
  });

  test('any mix of ids comes back through the text, each id in a span once (seeded)', () => {
    const random = mulberry32(20261202);
    for (let round = 0; round < 100; round++) {
      const spans: Span[] = [];
      const ids = new Set<number>();
      for (let i = 0; i < 200; i++) {
        const id = 1000 + Math.floor(random() * 400);
        expect(addToSpans(spans, id)).toBe(!ids.has(id));
        ids.add(id);
      }
      const back = decodeSpans(encodeSpans(spans));
      expect(back).toEqual(spans);
      for (let id = 990; id < 1410; id++) expect(inSpans(back, id)).toBe(ids.has(id));
      for (let k = 1; k < back.length; k++) expect(back[k][0]).toBeGreaterThan(back[k - 1][1] + 1);
    }
  });
});
