import { describe, expect, it } from 'vitest';
import { BookCache, bookHash, OrderBook } from '@app/books';
import type { BookRecord, Level } from '@app/events';

const rec = (
  sequence: number,
  snapshot: boolean,
  bids: Level[],
  asks: Level[],
  receivedAt = 1000 + sequence,
): BookRecord => ({
  v: 1,
  type: 'book',
  exchangeId: 'x',
  symbol: 'BTC/USDT',
  snapshot,
  bids,
  asks,
  sequence,
  exchangeTimestamp: null,
  receivedAt,
});

describe('OrderBook.apply (events.md)', () => {
  it('a snapshot replaces the whole book and sets the sequence', () => {
    const b = new OrderBook('x', 'BTC/USDT');
    b.apply(
      rec(
        10,
        true,
        [
          [100, 1],
          [99, 2],
        ],
        [[101, 1]],
      ),
    );
    expect(b.apply(rec(3, true, [[50, 1]], [[51, 1]]))).toBe('snapshot');
    expect(b.bids.toLevels()).toEqual([[50, 1]]);
    expect(b.sequence).toBe(3);
    expect(b.inSync).toBe(true);
  });

  it('a delta sets levels, 0 removes, in any order, keeping sides sorted best first', () => {
    const b = new OrderBook('x', 'BTC/USDT');
    b.apply(
      rec(
        1,
        true,
        [
          [100, 1],
          [98, 1],
        ],
        [
          [101, 1],
          [103, 1],
        ],
      ),
    );
    expect(
      b.apply(
        rec(
          2,
          false,
          [
            [97, 4],
            [99, 3],
            [100, 0],
            [98, 5],
          ],
          [
            [102, 2],
            [101, 0],
            [104, 1],
          ],
        ),
      ),
    ).toBe('applied');
    expect(b.bids.toLevels()).toEqual([
      [99, 3],
      [98, 5],
      [97, 4],
    ]);
    expect(b.asks.toLevels()).toEqual([
      [102, 2],
      [103, 1],
      [104, 1],
    ]);
    expect(b.receivedAt).toBe(1002);
  });

  it('removing an absent level is a no-op', () => {
    const b = new OrderBook('x', 'BTC/USDT');
    b.apply(rec(1, true, [[100, 1]], []));
    b.apply(rec(2, false, [[99, 0]], []));
    expect(b.bids.toLevels()).toEqual([[100, 1]]);
  });

  it('duplicates (sequence at or below) are ignored', () => {
    const b = new OrderBook('x', 'BTC/USDT');
    b.apply(rec(5, true, [[100, 1]], []));
    expect(b.apply(rec(5, false, [[100, 9]], []))).toBe('duplicate');
    expect(b.apply(rec(4, false, [[100, 9]], []))).toBe('duplicate');
    expect(b.bids.toLevels()).toEqual([[100, 1]]);
  });

  it('a gap marks the book out of sync until the next snapshot', () => {
    const b = new OrderBook('x', 'BTC/USDT');
    b.apply(rec(1, true, [[100, 1]], []));
    expect(b.apply(rec(3, false, [[100, 2]], []))).toBe('gap');
    expect(b.inSync).toBe(false);
    expect(b.apply(rec(4, false, [[100, 3]], []))).toBe('gap');
    expect(b.bids.toLevels()).toEqual([[100, 1]]);
    b.apply(rec(9, true, [[101, 1]], []));
    expect(b.inSync).toBe(true);
    expect(b.apply(rec(10, false, [[101, 2]], []))).toBe('applied');
  });

  it('deltas before any snapshot wait for one', () => {
    const b = new OrderBook('x', 'BTC/USDT');
    expect(b.apply(rec(1, false, [[100, 1]], []))).toBe('awaiting_snapshot');
    expect(b.inSync).toBe(false);
    expect(b.bids.count).toBe(0);
  });

  it('grows past its initial capacity and matches a naive fold at 3,000 levels', () => {
    const b = new OrderBook('x', 'BTC/USDT');
    b.apply(rec(0, true, [], []));
    const naive = new Map<number, number>();
    let seq = 0;
    let x = 12345;
    for (let i = 0; i < 20_000; i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      const price = 1000 + (x % 3000) / 10;
      const amount = i % 7 === 0 ? 0 : (x % 97) / 10;
      b.apply(rec(++seq, false, [], [[price, amount]]));
      if (amount === 0) naive.delete(price);
      else naive.set(price, amount);
    }
    const expected = [...naive.entries()].sort((p, q) => p[0] - q[0]);
    expect(b.asks.toLevels()).toEqual(expected);
  });

  it('flags a crossed book', () => {
    const b = new OrderBook('x', 'BTC/USDT');
    b.apply(rec(1, true, [[101, 1]], [[100, 1]]));
    expect(b.crossed).toBe(true);
  });
});

describe('OrderBook.apply: owner epochs (docs/events.md "Owner epochs")', () => {
  const at = (epoch: number | undefined, r: BookRecord): BookRecord =>
    epoch === undefined ? r : { ...r, epoch };
  /** The handover of the fleet test: the old owner (epoch 5) ran to 117; the new one (epoch 9) starts at 1. */
  const handover = (): OrderBook => {
    const b = new OrderBook('x', 'BTC/USDT');
    b.apply(at(5, rec(116, true, [[100, 1]], [[101, 1]])));
    b.apply(at(5, rec(117, false, [[100, 2]], [])));
    expect(b.apply(at(9, rec(1, true, [[90, 1]], [[91, 1]])))).toBe('snapshot');
    return b;
  };

  it("ignores the old owner's deltas that land after the new owner's snapshot, then folds the new run on", () => {
    const b = handover();
    expect(b.apply(at(5, rec(118, false, [[90, 7]], [])))).toBe('stale');
    expect(b.apply(at(5, rec(2, false, [[90, 7]], [])))).toBe('stale');
    expect({ seq: b.sequence, inSync: b.inSync, bids: b.bids.toLevels() }).toEqual({
      seq: 1,
      inSync: true,
      bids: [[90, 1]],
    });
    expect(b.apply(at(9, rec(2, false, [[89, 3]], [])))).toBe('applied');
    expect(b.bids.toLevels()).toEqual([
      [90, 1],
      [89, 3],
    ]);
    // Without epochs the same delta breaks the book (the failure the epochs fence).
    const plain = new OrderBook('x', 'BTC/USDT');
    plain.apply(rec(1, true, [[90, 1]], [[91, 1]]));
    expect(plain.apply(rec(118, false, [[90, 7]], []))).toBe('gap');
  });

  it('a delta of a later epoch than its run is a gap; a snapshot always applies and opens a run', () => {
    const b = handover();
    expect(b.apply(at(12, rec(2, false, [[89, 3]], [])))).toBe('gap');
    expect(b.inSync).toBe(false);
    expect(b.apply(at(5, rec(130, true, [[80, 1]], [[81, 1]])))).toBe('snapshot');
    expect(b.epoch).toBe(5);
    expect(b.apply(at(5, rec(131, false, [[80, 2]], [])))).toBe('applied');
    b.reset();
    expect(b.epoch).toBeNull();
  });

  it('records without an epoch follow the sequence rules alone, in a run with or without one', () => {
    const b = handover();
    expect(b.apply(rec(2, false, [[89, 3]], []))).toBe('applied');
    expect(b.apply(rec(2, false, [[89, 3]], []))).toBe('duplicate');
    b.apply(rec(1, true, [[90, 1]], [[91, 1]]));
    expect(b.epoch).toBeNull();
    expect(b.apply(at(9, rec(2, false, [[89, 3]], [])))).toBe('gap');
  });

  it('a rebuild from the latest snapshot folds to the same book as a fold from the start', () => {
    const log = [
      at(5, rec(1, true, [[100, 1]], [[101, 1]])),
      at(5, rec(2, false, [[100, 2]], [])),
      at(9, rec(1, true, [[90, 1]], [[91, 1]])),
      at(5, rec(3, false, [[90, 7]], [])),
      at(9, rec(2, false, [[89, 3]], [])),
      at(5, rec(4, false, [[95, 1]], [])),
      at(9, rec(3, false, [[91, 0]], [[92, 1]])),
    ];
    const fold = (records: BookRecord[]): string => {
      const c = new BookCache();
      for (const r of records) c.apply(r);
      return bookHash(c.book('x', 'BTC/USDT')!);
    };
    expect(fold(log.slice(2))).toBe(fold(log));
  });
});

describe('BookCache', () => {
  it('lists venues per symbol sorted whatever the arrival order, and folds venue state', () => {
    const c = new BookCache();
    for (const id of ['okx', 'binance', 'kraken'])
      c.apply({ ...rec(1, true, [[1, 1]], [[2, 1]]), exchangeId: id });
    c.apply({
      v: 1,
      type: 'venue',
      exchangeId: 'okx',
      certified: true,
      connected: false,
      lastError: 'boom',
      receivedAt: 5,
      reconnectCount: 2,
    });
    expect(c.venuesListing('BTC/USDT')).toEqual(['binance', 'kraken', 'okx']);
    expect(c.certified('okx')).toBe(true);
    expect(c.certified('binance')).toBe(false);
    expect(c.venueStates().find((v) => v.exchangeId === 'okx')).toEqual({
      exchangeId: 'okx',
      certified: true,
      connected: false,
      lastError: 'boom',
      reconnectCount: 2,
      lastUpdateAt: 1001,
      updateCount: 1,
    });
  });

  it("folds a market record's order rules; the latest record wins, one without rules clears them", () => {
    const c = new BookCache();
    const market = {
      v: 1,
      type: 'market',
      exchangeId: 'binance',
      symbol: 'BTC/USDT',
      base: 'BTC',
      quote: 'USDT',
      takerFeeRate: 0.001,
      receivedAt: 1,
    } as const;
    c.apply({ ...market, amountStep: 0.00001, minCost: 5 });
    expect(c.market('binance', 'BTC/USDT')?.rules).toEqual({
      amountStep: 0.00001,
      minAmount: null,
      minCost: 5,
      maxAmount: null,
    });
    c.apply({ ...market, amountStep: null, minAmount: null });
    expect(c.market('binance', 'BTC/USDT')?.rules).toBeNull();
    c.apply({ ...market, maxAmount: 9000 });
    expect(c.listings('BTC/USDT')[0]?.market?.rules?.maxAmount).toBe(9000);
    c.apply(market);
    expect(c.market('binance', 'BTC/USDT')?.rules).toBeNull();
  });

  it('bookHash is equal for equal books and differs when one level differs', () => {
    const a = new OrderBook('x', 'BTC/USDT');
    const b = new OrderBook('x', 'BTC/USDT');
    a.apply(rec(1, true, [[100, 1]], [[101, 1]]));
    b.apply(rec(1, true, [[100, 1]], [[101, 1]]));
    expect(bookHash(a)).toBe(bookHash(b));
    b.apply(rec(2, false, [], [[101, 1.0000001]], 1001));
    expect(bookHash(a)).not.toBe(bookHash(b));
    expect(bookHash(a)).toMatch(/^[0-9a-f]{16}$/);
  });
});
