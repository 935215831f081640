import { afterEach, describe, expect, it } from 'vitest';
import { CAPTURES_MISSING_MESSAGE, CAPTURES_PRESENT } from './captures';
import { startIngestor } from './ingest-harness';
import { waitFor } from './memory-sink';
import { BINANCE_SYMBOLS, binanceReplay } from './venue-setups';
import { T0 } from '@test/support';

const SYMBOLS = BINANCE_SYMBOLS;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe.skipIf(!CAPTURES_PRESENT)(
  'binance through ccxt against a mock venue replaying the 2021 capture',
  () => {
    it('folds the ingestor records into the same books as an independent fold of the capture', async () => {
      const { binance: mock, venues, expected } = await binanceReplay();
      const { ingestor, sink } = startIngestor(venues);
      cleanups.push(
        () => mock.close(),
        () => ingestor.stop(),
      );
      await waitFor('the replay to finish', () => mock.done);
      // ccxt's rate limiter spaces the four REST depth snapshots (weight 10 each at 1000 levels).
      await waitFor('every book', () =>
        Object.values(SYMBOLS).every((s) => sink.levels('binance', s)?.inSync === true),
      );
      await waitFor('the ingestor to go quiet', () => Date.now() - sink.lastWriteAt > 300);
      for (const symbol of Object.values(SYMBOLS)) {
        const got = sink.levels('binance', symbol);
        expect(got?.inSync, symbol).toBe(true);
        expect({ bids: got?.bids, asks: got?.asks }, symbol).toEqual(expected.get(symbol)!.top(500));
        const books = sink.books('binance', symbol);
        expect(books[0]?.snapshot).toBe(true);
        expect(books.map((b) => b.sequence)).toEqual(books.map((_, i) => i + 1));
        // receivedAt comes from the injected clock (pinned start, one tick per reading), never Date.now().
        const stamps = books.map((b) => b.receivedAt);
        expect(stamps.every((t, i) => t >= T0 && t < T0 + 52_000 && (i === 0 || t > stamps[i - 1]!))).toBe(
          true,
        );
      }
      expect(sink.books('binance').filter((b) => !b.snapshot).length).toBeGreaterThan(50);
      const markets = sink.records.filter((r) => r.type === 'market');
      expect(markets.map((m) => m.symbol).sort()).toEqual(Object.values(SYMBOLS).sort());
      const venue = sink.venues('binance').at(-1);
      expect(venue).toMatchObject({ certified: true, connected: true, lastError: null, reconnectCount: 0 });
    });
  },
);
if (!CAPTURES_PRESENT) console.warn(CAPTURES_MISSING_MESSAGE);
