import { OrderBook } from '@app/books';
import * as ccxt from 'ccxt';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { topLevels, type CcxtSide } from './book-diff';
import { BookPublisher } from './book-publisher';
import { touchedBand, trackBook } from './side-tracker';

interface Book {
  bids: CcxtSide & { storeArray(d: number[]): void; store(p: number, q: number): void };
  asks: CcxtSide & { storeArray(d: number[]): void; store(p: number, q: number): void };
  reset(snapshot: { bids: number[][]; asks: number[][] }): void;
  limit(): void;
}

const factory = ccxt.Exchange.prototype as unknown as Record<string, (s: object, d?: number) => Book>;

type Op =
  | { t: 'store'; bid: boolean; price: number; size: number; count: number }
  | { t: 'reset'; bids: [number, number][]; asks: [number, number][] }
  | { t: 'limit' }
  | { t: 'publish' };

const level = (min: number, max: number) =>
  fc
    .tuple(fc.integer({ min, max }), fc.integer({ min: 1, max: 9 }))
    .map(([p, q]) => [p / 4, q] as [number, number]);

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      t: fc.constant('store' as const),
      bid: fc.boolean(),
      price: fc.integer({ min: 1, max: 22 }),
      size: fc.oneof(
        { weight: 1, arbitrary: fc.constant(0) },
        { weight: 3, arbitrary: fc.integer({ min: 1, max: 9 }) },
      ),
      count: fc.integer({ min: 0, max: 2 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('reset' as const),
      bids: fc.array(level(1, 19), { maxLength: 12 }),
      asks: fc.array(level(21, 40), { maxLength: 12 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ t: 'limit' as const }) },
  { weight: 6, arbitrary: fc.constant({ t: 'publish' as const }) },
);

describe('trackBook and banded publishing', () => {
  it('gives exactly the records of a whole-window diff, for plain and counted ccxt books', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('orderBook', 'countedOrderBook'),
        fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
        fc.integer({ min: 1, max: 10 }),
        fc.array(level(1, 19), { minLength: 1, maxLength: 15 }),
        fc.array(level(22, 40), { minLength: 1, maxLength: 15 }),
        fc.array(op, { maxLength: 80 }),
        (kind, bookDepth, depth, bids0, asks0, ops) => {
          const counted = kind === 'countedOrderBook';
          const book = factory[kind]!({}, bookDepth);
          ops.unshift({ t: 'reset', bids: bids0, asks: asks0 });
          const banded = new BookPublisher('x', 'A/B', 1_000_000, depth, 1e12);
          const whole = new BookPublisher('x', 'A/B', 1_000_000, depth, 1e12);
          const folded = new OrderBook('x', 'A/B');
          let now = 0;
          for (const o of ops) {
            if (o.t === 'store') {
              // Bids at 0.25..5.5, asks at 4.75..10 (a little overlap, so crossed books occur).
              const price = (o.bid ? o.price : o.price + 18) / 4;
              const side = o.bid ? book.bids : book.asks;
              if (counted) side.storeArray([price, o.size, o.size === 0 ? 0 : o.count + 1]);
              else if (o.price % 2 === 0) side.store(price, o.size);
              else side.storeArray([price, o.size]);
            } else if (o.t === 'reset') {
              book.reset({
                bids: o.bids.map(([p, q]) => (counted ? [p, q, 1] : [p, q])),
                asks: o.asks.map(([p, q]) => (counted ? [p, q, 1] : [p, q])),
              });
            } else if (o.t === 'limit') {
              book.limit();
            } else {
              trackBook(book);
              now++;
              const a = banded.publish(
                book.bids,
                book.asks,
                null,
                now,
                touchedBand(book.bids),
                touchedBand(book.asks),
              );
              const b = whole.publish(book.bids, book.asks, null, now);
              expect(a).toEqual(b);
              if (a.kind === 'record') {
                folded.apply(a.record);
                expect(folded.bids.toLevels()).toEqual(topLevels(book.bids, depth));
                expect(folded.asks.toLevels()).toEqual(topLevels(book.asks, depth));
              }
            }
          }
        },
      ),
      // endOnFailure: shrinking 80-op sequences through expect diffs takes minutes; the raw counterexample is printed.
      { numRuns: 1000, endOnFailure: true },
    );
  });

  it('bands a tracked side by the prices ccxt stored, and a reset makes it whole', () => {
    const book = factory.orderBook!({});
    trackBook(book);
    const band = touchedBand(book.asks)!;
    band.clear();
    book.asks.storeArray([5, 1]);
    book.asks.store(7, 0);
    expect([band.whole, band.lo, band.hi]).toEqual([false, 5, 7]);
    book.reset({ bids: [], asks: [] });
    expect(band.whole).toBe(true);
  });

  it('leaves indexed (order-level) books untracked', () => {
    const book = factory.indexedOrderBook!({});
    trackBook(book);
    expect(touchedBand(book.bids)).toBeUndefined();
  });
});
