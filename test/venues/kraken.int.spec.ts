import { afterEach, describe, expect, it } from 'vitest';
import { CAPTURES_PRESENT } from './captures';
import { startIngestor } from './ingest-harness';
import { waitFor } from './memory-sink';
import { krakenReplay } from './venue-setups';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe.skipIf(!CAPTURES_PRESENT)(
  'kraken through ccxt against a mock venue replaying the 2021 capture',
  () => {
    it('folds the ingestor records into the same BTC/CHF and ETH/CHF books as an independent fold', async () => {
      const { mock, venues, extra, expected } = await krakenReplay();
      const { ingestor, sink } = startIngestor(venues, extra);
      cleanups.push(
        () => mock.close(),
        () => ingestor.stop(),
      );
      await waitFor('every book', () =>
        [...expected.keys()].every((s) => sink.books('kraken', s).length > 0),
      );
      await waitFor('the ingestor to go quiet', () => Date.now() - sink.lastWriteAt > 400);
      for (const [symbol, book] of expected) {
        const got = sink.levels('kraken', symbol);
        expect(got?.inSync, symbol).toBe(true);
        expect({ bids: got?.bids, asks: got?.asks }, symbol).toEqual(book.top(500));
        expect(sink.books('kraken', symbol).filter((b) => !b.snapshot).length, symbol).toBeGreaterThan(20);
        expect(
          sink.books('kraken', symbol).filter((b) => b.snapshot),
          symbol,
        ).toHaveLength(1);
      }
      // The ingestor's own CRC32 check (top 10, ccxt's is off) passed on every recorded checksum.
      expect(ingestor.health()[0]!.counters).toMatchObject({
        checksumFailures: 0,
        bookResyncs: 0,
        connectionResyncs: 0,
      });
      expect(
        sink.records
          .filter((r) => r.type === 'market')
          .map((m) => [m.symbol, m.type === 'market' && m.takerFeeRate]),
      ).toEqual([
        ['BTC/CHF', 0.0026],
        ['ETH/CHF', 0.0026],
      ]);
      // The default watch limit asks for the 1000-level channel (v2's default is 10).
      expect(JSON.parse(mock.received.find((t) => t.includes('subscribe'))!)).toMatchObject({
        params: { channel: 'book', depth: 1000, symbol: ['BTC/CHF', 'ETH/CHF'] },
      });
    });
  },
);
