import { describe, expect, it } from 'vitest';
import { topPositions } from './items.search-index.js';

/** The order a full stable sort gives: by score (sign -1: descending), ties by position. */
function sorted(scores: number[], sign: number): number[] {
  return scores.map((_, k) => k).sort((a, b) => sign * ((scores[a] ?? 0) - (scores[b] ?? 0)) || a - b);
}

describe('topPositions', () => {
  it('keeps the first positions of a full stable sort, for every size and direction', () => {
    let state = 7;
    const random = () => {
      state = (state * 1664525 + 1013904223) >>> 0;
      return state / 2 ** 32;
    };
    for (let round = 0; round < 200; round++) {
      const n = Math.floor(random() * 300);
      // Few distinct scores, so that ties are common.
      const scores = Array.from({ length: n }, () => Math.floor(random() * 6) / 2);
      const count = Math.floor(random() * 60);
      for (const sign of [-1, 1]) {
        const expected = sorted(scores, sign).slice(0, count);
        expect([...topPositions(Float64Array.from(scores), sign, count)]).toEqual(expected);
      }
    }
  });

  it('answers nothing for an empty page or no scores', () => {
    expect([...topPositions(Float64Array.from([1, 2]), -1, 0)]).toEqual([]);
    expect([...topPositions(new Float64Array(0), -1, 20)]).toEqual([]);
  });
});
