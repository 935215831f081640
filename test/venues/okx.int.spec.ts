import { afterEach, describe, expect, it } from 'vitest';
import { CAPTURES_PRESENT } from './captures';
import { startIngestor } from './ingest-harness';
import { waitFor } from './memory-sink';
import { okxReplay } from './venue-setups';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe.skipIf(!CAPTURES_PRESENT)('okx through ccxt against a mock venue replaying the 2022 capture', () => {
  it('folds the ingestor records into the same BTC/USDT book as an independent fold of the capture', async () => {
    const { mock, venues, expected } = await okxReplay();
    const { ingestor, sink } = startIngestor(venues);
    cleanups.push(
      () => mock.close(),
      () => ingestor.stop(),
    );
    await waitFor('the book', () => sink.books('okx', 'BTC/USDT').length > 0);
    await waitFor('the ingestor to go quiet', () => Date.now() - sink.lastWriteAt > 400);
    const got = sink.levels('okx', 'BTC/USDT');
    expect(got?.inSync).toBe(true);
    expect({ bids: got?.bids, asks: got?.asks }).toEqual(expected.get('BTC/USDT')!.top(500));
    const books = sink.books('okx', 'BTC/USDT');
    expect(books.filter((b) => !b.snapshot).length).toBeGreaterThan(20);
    expect(books.map((b) => b.sequence)).toEqual(books.map((_, i) => i + 1));
    // The ingestor's own CRC32 (top 25) and ccxt's seqId chain passed on every recorded frame: one snapshot.
    expect(ingestor.health()[0]!.counters).toMatchObject({ checksumFailures: 0, gaps: 0, bookResyncs: 0 });
    expect(books.filter((b) => b.snapshot)).toHaveLength(1);
    // Default universe: the only listed market is BTC/USDT; okx is certified.
    expect(sink.records.filter((r) => r.type === 'market')).toMatchObject([
      { symbol: 'BTC/USDT', base: 'BTC', quote: 'USDT', takerFeeRate: 0.001 },
    ]);
    expect(sink.venues('okx').at(-1)).toMatchObject({ certified: true, connected: true });
    expect(JSON.parse(mock.received.find((t) => t.includes('subscribe'))!)).toEqual({
      op: 'subscribe',
      args: [{ channel: 'books', instId: 'BTC-USDT' }],
    });
  });
});
