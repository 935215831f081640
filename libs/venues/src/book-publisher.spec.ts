import { OrderBook } from '@app/books';
import type { BookRecord } from '@app/events';
import { describe, expect, it } from 'vitest';
import { BookPublisher } from './book-publisher';

const record = (p: BookPublisher, bids: [number, number][], asks: [number, number][], at = 1): BookRecord => {
  const out = p.publish(bids, asks, null, at);
  if (out.kind !== 'record') throw new Error(`expected a record, got ${out.kind}`);
  return out.record;
};

describe('BookPublisher', () => {
  it('publishes a snapshot first, then deltas, a snapshot every N deltas, with contiguous sequences', () => {
    const p = new BookPublisher('x', 'A/B', 2);
    const book = new OrderBook('x', 'A/B');
    const states: [[number, number][], [number, number][]][] = [
      [[[10, 1]], [[11, 1]]],
      [[[10, 2]], [[11, 1]]],
      [
        [
          [10, 2],
          [9, 1],
        ],
        [[11, 1]],
      ],
      [
        [[9, 1]],
        [
          [11, 1],
          [12, 3],
        ],
      ],
      [[[9, 4]], [[12, 3]]],
    ];
    const records = states.map(([b, a], i) => record(p, b, a, 100 + i));
    expect(records.map((r) => [r.sequence, r.snapshot])).toEqual([
      [1, true],
      [2, false],
      [3, false],
      [4, true],
      [5, false],
    ]);
    expect(records[1]).toMatchObject({ bids: [[10, 2]], asks: [], receivedAt: 101 });
    for (const [i, r] of records.entries()) {
      expect(book.apply(r)).toBe(r.snapshot ? 'snapshot' : 'applied');
      expect(book.bids.toLevels()).toEqual(states[i]![0]);
      expect(book.asks.toLevels()).toEqual(states[i]![1]);
    }
  });

  it('publishes nothing for an unchanged top of book', () => {
    const p = new BookPublisher('x', 'A/B', 10);
    record(p, [[1, 1]], [[2, 1]]);
    expect(p.publish([[1, 1]], [[2, 1]], null, 2)).toEqual({ kind: 'unchanged' });
  });

  it('withholds crossed books and empty sides, and the next good state is a snapshot', () => {
    const p = new BookPublisher('x', 'A/B', 10);
    record(p, [[1, 1]], [[2, 1]]);
    expect(p.publish([[3, 1]], [[2, 1]], null, 2)).toEqual({ kind: 'withheld', fault: 'crossed' });
    expect(p.publish([], [[2, 1]], null, 3)).toEqual({ kind: 'withheld', fault: 'empty_bids' });
    expect(record(p, [[1, 2]], [[2, 1]], 4)).toMatchObject({ snapshot: true, sequence: 2 });
  });

  it('withholds a snapshot with a malformed level anywhere in the window', () => {
    const p = new BookPublisher('x', 'A/B', 10);
    const bad = [
      [2, 1],
      [NaN, 1],
    ] as number[][];
    expect(p.publish([[1, 1]], bad, null, 1)).toEqual({ kind: 'withheld', fault: 'invalid_level' });
    expect(record(p, [[1, 1]], [[2, 1]], 2)).toMatchObject({ snapshot: true, sequence: 1 });
  });

  it('resync() makes the next record a snapshot', () => {
    const p = new BookPublisher('x', 'A/B', 10);
    record(p, [[1, 1]], [[2, 1]]);
    p.resync();
    expect(record(p, [[1, 1]], [[2, 1]])).toMatchObject({ snapshot: true, sequence: 2 });
  });

  it('writes a snapshot once snapshotEveryMs has passed, however few deltas', () => {
    const p = new BookPublisher('x', 'A/B', 1000, 500, 30_000);
    expect(p.publish([[1, 1]], [[2, 1]], null, 1_000)).toMatchObject({
      kind: 'record',
      record: { snapshot: true },
    });
    expect(p.publish([[1, 2]], [[2, 1]], null, 20_000)).toMatchObject({
      kind: 'record',
      record: { snapshot: false },
    });
    expect(p.publish([[1, 3]], [[2, 1]], null, 31_000)).toMatchObject({
      kind: 'record',
      record: { snapshot: true, sequence: 3 },
    });
  });
});
