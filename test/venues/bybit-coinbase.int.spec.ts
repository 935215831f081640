import { afterEach, describe, expect, it } from 'vitest';
import { CAPTURES_PRESENT } from './captures';
import { startIngestor } from './ingest-harness';
import { waitFor, type MemorySink, type RawBook } from './memory-sink';
import { bybitReplay, coinbaseReplay } from './venue-setups';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function expectFold(
  sink: MemorySink,
  exchangeId: string,
  expected: ReadonlyMap<string, RawBook>,
): Promise<void> {
  await waitFor('every book', () => [...expected.keys()].every((s) => sink.books(exchangeId, s).length > 0));
  await waitFor('the ingestor to go quiet', () => Date.now() - sink.lastWriteAt > 400);
  for (const [symbol, book] of expected) {
    const got = sink.levels(exchangeId, symbol);
    expect(got?.inSync, symbol).toBe(true);
    expect({ bids: got?.bids, asks: got?.asks }, symbol).toEqual(book.top(500));
    const records = sink.books(exchangeId, symbol);
    expect(records.filter((b) => !b.snapshot).length, symbol).toBeGreaterThan(20);
    expect(records.map((b) => b.sequence)).toEqual(records.map((_, i) => i + 1));
  }
}

describe.skipIf(!CAPTURES_PRESENT)(
  'bybit and coinbase through ccxt against mock venues replaying the 2026 captures',
  () => {
    it('bybit spot orderbook.200: the folded records equal an independent fold of the capture', async () => {
      const { mock, venues, expected } = await bybitReplay();
      const { ingestor, sink } = startIngestor(venues);
      cleanups.push(
        () => mock.close(),
        () => ingestor.stop(),
      );
      await expectFold(sink, 'bybit', expected);
      // The ingestor's own u-sequence check passed on every recorded frame.
      expect(ingestor.health()[0]!.counters).toMatchObject({ gaps: 0, bookResyncs: 0, connectionResyncs: 0 });
      // The default watch limit asks for the 200-level channel (ccxt's default is 50).
      expect(JSON.parse(mock.received[0]!)).toMatchObject({
        op: 'subscribe',
        args: ['orderbook.200.BTCUSDT', 'orderbook.200.ETHUSDT'],
      });
    });

    it('coinbase level2: the folded records equal an independent fold of the capture', async () => {
      const { mock, venues, expected } = await coinbaseReplay();
      const { ingestor, sink } = startIngestor(venues);
      cleanups.push(
        () => mock.close(),
        () => ingestor.stop(),
      );
      await expectFold(sink, 'coinbase', expected);
      // The ingestor's own sequence_num check passed on every frame of the connection.
      expect(ingestor.health()[0]!.counters).toMatchObject({ gaps: 0, connectionResyncs: 0 });
      expect(sink.venues('coinbase').at(-1)).toMatchObject({ certified: false, connected: true });
    });
  },
);
