import { afterEach, describe, expect, it } from 'vitest';
import { foldBybit, readBybitSpotBooks, startBybitMock } from './bybit-mock';
import { CAPTURES_PRESENT } from './captures';
import { foldCoinbase, readCoinbaseL2, startCoinbaseMock } from './coinbase-mock';
import { FAST_REDIAL, startIngestor } from './ingest-harness';
import { waitFor, type MemorySink } from './memory-sink';
import { marketsOption, spotMarket } from './offline-markets';
import type { RawBook } from './memory-sink';

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
      const topics = readBybitSpotBooks();
      const mock = await startBybitMock(topics);
      const markets = marketsOption([
        spotMarket('BTCUSDT', 'BTC', 'USDT'),
        spotMarket('ETHUSDT', 'ETH', 'USDT'),
      ]);
      const { ingestor, sink } = startIngestor({
        bybit: {
          ccxt: {
            urls: { api: { ws: { public: { spot: `${mock.ws}/v5/public/spot` } } } },
            markets,
            options: { ws: FAST_REDIAL },
          },
        },
      });
      cleanups.push(
        () => mock.close(),
        () => ingestor.stop(),
      );
      const expected = new Map([
        ['BTC/USDT', foldBybit(topics.get('orderbook.200.BTCUSDT')!)],
        ['ETH/USDT', foldBybit(topics.get('orderbook.200.ETHUSDT')!)],
      ]);
      await expectFold(sink, 'bybit', expected);
      // The default watch limit asks for the 200-level channel (ccxt's default is 50).
      expect(JSON.parse(mock.received[0]!)).toMatchObject({
        op: 'subscribe',
        args: ['orderbook.200.BTCUSDT', 'orderbook.200.ETHUSDT'],
      });
    });

    it('coinbase level2: the folded records equal an independent fold of the capture', async () => {
      const frames = readCoinbaseL2();
      const mock = await startCoinbaseMock(frames);
      const markets = marketsOption([
        spotMarket('BTC-USD', 'BTC', 'USD', 0.012),
        spotMarket('ETH-USD', 'ETH', 'USD', 0.012),
      ]);
      const { ingestor, sink } = startIngestor({
        coinbase: { ccxt: { urls: { api: { ws: mock.ws } }, markets, options: { ws: FAST_REDIAL } } },
      });
      cleanups.push(
        () => mock.close(),
        () => ingestor.stop(),
      );
      const expected = new Map([
        ['BTC/USD', foldCoinbase(frames, 'BTC-USD')],
        ['ETH/USD', foldCoinbase(frames, 'ETH-USD')],
      ]);
      await expectFold(sink, 'coinbase', expected);
      expect(sink.venues('coinbase').at(-1)).toMatchObject({ certified: false, connected: true });
    });
  },
);
