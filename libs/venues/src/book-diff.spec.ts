import { BookSide } from '@app/books';
import type { Level } from '@app/events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bookFault, diffSide, LevelBuffer, topLevels } from './book-diff';

const side = (dir: 1 | -1) =>
  fc
    .uniqueArray(fc.tuple(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 9 })), {
      selector: (l) => l[0],
      maxLength: 25,
    })
    .map((ls) => ls.map(([p, q]) => [p / 4, q] as Level).sort((a, b) => (a[0] - b[0]) * dir));

describe('diffSide', () => {
  it('turns the previous levels into the next ones when applied as a delta (both sides)', () => {
    for (const dir of [1, -1] as const) {
      fc.assert(
        fc.property(side(dir), side(dir), (prev, next) => {
          const book = new BookSide(dir);
          book.replaceSorted(prev);
          const buffer = new LevelBuffer(4);
          buffer.fill(prev, prev.length);
          const delta = diffSide(buffer, next, next.length, dir);
          for (const [p, q] of delta) book.set(p, q);
          expect(book.toLevels()).toEqual(next);
          // Only what changed is sent.
          expect(delta.length).toBeLessThanOrEqual(prev.length + next.length);
          if (JSON.stringify(prev) === JSON.stringify(next)) expect(delta).toEqual([]);
        }),
      );
    }
  });

  it('sends removals as amount 0 and changed amounts as the new amount', () => {
    const prev = new LevelBuffer(3);
    prev.fill(
      [
        [10, 1],
        [9, 2],
        [8, 3],
      ],
      3,
    );
    expect(
      diffSide(
        prev,
        [
          [10, 1],
          [9, 5],
          [7, 1],
          [6, 1],
        ],
        3,
        -1,
      ),
    ).toEqual([
      [9, 5],
      [8, 0],
      [7, 1],
    ]);
  });
});

describe('topLevels and bookFault', () => {
  it('copies at most depth levels and never more than the ccxt side depth', () => {
    const rows = Object.assign(
      [
        [3, 1],
        [2, 1],
        [1, 1],
      ],
      { depth: 2 },
    );
    expect(topLevels(rows, 5)).toEqual([
      [3, 1],
      [2, 1],
    ]);
    expect(
      topLevels(
        [
          [3, 1, 7],
          [2, 1, 8],
        ],
        1,
      ),
    ).toEqual([[3, 1]]);
  });

  it('flags empty sides and crossed or locked books', () => {
    const fault = (b: number[][], a: number[][]) => bookFault(b, b.length, a, a.length);
    expect(fault([], [[1, 1]])).toBe('empty_bids');
    expect(fault([[1, 1]], [])).toBe('empty_asks');
    expect(fault([[2, 1]], [[2, 1]])).toBe('crossed');
    expect(fault([[3, 1]], [[2, 1]])).toBe('crossed');
    expect(fault([[1, 1]], [[2, 1]])).toBeNull();
  });

  it('flags a best level that is not a positive price with a finite amount (ccxt stores what a malformed frame gives it)', () => {
    const fault = (b: unknown[][], a: unknown[][]) =>
      bookFault(b as number[][], b.length, a as number[][], a.length);
    expect(fault([[1, 1]], [[undefined, undefined]])).toBe('invalid_level');
    expect(fault([[NaN, 1]], [[2, 1]])).toBe('invalid_level');
    expect(fault([[0, 1]], [[2, 1]])).toBe('invalid_level');
    expect(fault([[1, Infinity]], [[2, 1]])).toBe('invalid_level');
    expect(fault([[1, 0]], [[2, 1]])).toBeNull();
  });
});
