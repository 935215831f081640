import { BookCache } from '@app/books';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RowFold } from '../../../test/import/support/row-fold';
import { importTexts, l2File } from '../test/in-memory';

const T = 1_650_000_000_000_000;
const BOOKS = [
  ['binance', 'BTCUSDT', 'binance', 'BTC/USDT'],
  ['coinbase', 'ETH-USD', 'coinbase', 'ETH/USD'],
  ['kraken', 'XBT/EUR', 'kraken', 'BTC/EUR'],
] as const;

type Row = { book: number; local: number; snapshot: boolean; bid: boolean; price: number; amount: number };

/** The state at ms t: after every row whose local time is in or before that millisecond. */
function rowFold(rows: readonly (Row & { file: number })[], t: number): Map<string, [number, number][][]> {
  const fold = new RowFold();
  for (const r of rows) {
    if (Math.floor(r.local / 1000) > t) break;
    fold.apply({ ...r, key: String(r.book) });
  }
  const out = new Map<string, [number, number][][]>();
  BOOKS.forEach(([, , venue, symbol], i) => {
    const levels = fold.levels(String(i));
    if (levels !== undefined) out.set(`${venue} ${symbol}`, levels);
  });
  return out;
}

const rowArb = fc.record({
  book: fc.integer({ min: 0, max: 2 }),
  step: fc.integer({ min: 0, max: 1500 }),
  snapshot: fc.boolean(),
  bid: fc.boolean(),
  price: fc.integer({ min: 1, max: 12 }),
  amount: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 9 })),
});

describe('the imported books equal tardis.dev’s row-by-row reconstruction', () => {
  it('at every millisecond, for random interleavings of books, snapshot runs and files', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(rowArb, { maxLength: 40 }), { minLength: 1, maxLength: 2 }),
        async (files) => {
          const texts: string[] = [];
          const all: (Row & { file: number })[] = [];
          files.forEach((rows, file) => {
            let local = T;
            const own = rows.map((r) => {
              local += r.step;
              // Bids under 100, asks over it: the generated books never cross.
              const price = r.bid ? 100 - r.price / 4 : 100 + r.price / 4;
              return { ...r, local, price, file };
            });
            all.push(...own);
            texts.push(
              l2File(
                own.map((r) => [
                  BOOKS[r.book]![0],
                  BOOKS[r.book]![1],
                  r.local,
                  r.local,
                  r.snapshot,
                  r.bid ? 'bid' : 'ask',
                  r.price,
                  r.amount,
                ]),
              ),
            );
          });
          // The merge order: local time, then file.
          all.sort((a, b) => a.local - b.local || a.file - b.file);
          const { records, problems } = await importTexts(
            texts.map((text, i) => ({ name: `f${i}.csv`, text })),
            { chunk: 97 },
          );
          expect(problems).toEqual([]);
          const cache = new BookCache();
          let next = 0;
          const last = all.length === 0 ? 0 : Math.floor(all[all.length - 1]!.local / 1000);
          for (let t = Math.floor(T / 1000); t <= last; t++) {
            while (next < records.length && records[next]!.receivedAt <= t) cache.apply(records[next++]!);
            const expected = rowFold(all, t);
            for (const [, , venue, symbol] of BOOKS) {
              const book = cache.book(venue, symbol);
              const want = expected.get(`${venue} ${symbol}`);
              if (want === undefined) expect(book === undefined || !book.inSync).toBe(true);
              else expect([book!.bids.toLevels(), book!.asks.toLevels()]).toEqual(want);
            }
          }
        },
      ),
      { numRuns: 150, seed: 20260801 },
    );
  });
});
