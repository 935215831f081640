import { afterEach, describe, expect, it } from 'vitest';
import type { EventRecord } from '@app/events';
import { logSink, type RecordSink } from '@app/event-log';
import { PinnedClock } from '../../apps/api/src/clock';
import { call } from '../api/support/http';
import { startTestServer } from '../api/support/server';
import { CAPTURES_MISSING_MESSAGE, CAPTURES_PRESENT } from './captures';
import { INGEST_CLOCK_START, startIngestorInto } from './ingest-harness';
import { waitFor } from './memory-sink';
import {
  binanceReplay,
  bybitReplay,
  coinbaseReplay,
  krakenReplay,
  okxReplay,
  type VenueReplay,
} from './venue-setups';

/**
 * The API's clock: the harness's ingestor clock steps 1 ms per reading from INGEST_CLOCK_START,
 * so every book stamped in the replay is at most staleBookMs (10 s) old at this instant.
 */
const API_NOW = INGEST_CLOCK_START + 10_000;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The real log sink, noting when the ingestor last wrote (to tell when the replay has settled). */
class WatchedSink implements RecordSink {
  lastWriteAt = Date.now();
  constructor(private readonly inner: RecordSink) {}
  async write(records: readonly EventRecord[]): Promise<void> {
    await this.inner.write(records);
    this.lastWriteAt = Date.now();
  }
}

const path = (exchangeId: string, symbol: string): string =>
  `/orderbook/${exchangeId}/${encodeURIComponent(symbol)}`;

const VENUES: [string, () => Promise<VenueReplay>][] = [
  ['binance', binanceReplay],
  ['kraken', krakenReplay],
  ['okx', okxReplay],
  ['coinbase', coinbaseReplay],
  ['bybit', bybitReplay],
];

describe.skipIf(!CAPTURES_PRESENT)(
  'ingestor -> embedded event log -> API: the served books after replaying real captures',
  () => {
    it.each(VENUES)(
      '%s: GET /orderbook equals the independent fold of the capture, level for level',
      async (_, setup) => {
        const server = await startTestServer({}, [], new PinnedClock(API_NOW));
        cleanups.push(() => server.close());
        const replay = await setup();
        cleanups.push(() => replay.mock.close());
        const { ingestor, sink } = startIngestorInto(
          new WatchedSink(logSink(server.log)),
          replay.venues,
          replay.extra,
        );
        cleanups.push(() => ingestor.stop());
        const symbols = [...replay.expected.keys()];
        const served = async (): Promise<boolean> => {
          for (const s of symbols)
            if ((await call(server.url, path(replay.exchangeId, s))).status !== 200) return false;
          return true;
        };
        await waitFor('the replay to finish', replay.done);
        let ready = false;
        const poll = setInterval(() => void served().then((ok) => (ready = ok)), 50);
        try {
          await waitFor('every book served', () => ready);
        } finally {
          clearInterval(poll);
        }
        await waitFor('the ingestor to go quiet', () => Date.now() - sink.lastWriteAt > 400);
        await server.caughtUp();

        for (const [symbol, fold] of replay.expected) {
          const { status, body } = await call(server.url, path(replay.exchangeId, symbol));
          expect(status, symbol).toBe(200);
          const want = fold.top(500);
          // Guard against two empty books agreeing: the capture must give a real book.
          expect(want.bids.length, symbol).toBeGreaterThan(0);
          expect(want.asks.length, symbol).toBeGreaterThan(0);
          expect({ bids: body.bids as unknown, asks: body.asks as unknown }, symbol).toEqual({
            bids: want.bids.map(([price, amount]) => ({ price, amount })),
            asks: want.asks.map(([price, amount]) => ({ price, amount })),
          });
          expect(body).toMatchObject({ exchangeId: replay.exchangeId, symbol });
          expect(body.sequence, symbol).toBeGreaterThan(1);
          expect(body.receivedAt, symbol).toBeGreaterThanOrEqual(INGEST_CLOCK_START);
          expect(body.receivedAt, symbol).toBeLessThanOrEqual(API_NOW);
        }
        // In sync and fresh at the API's clock: every replayed symbol is offered for routing.
        const listed = await call(server.url, '/symbols');
        expect(listed.body.symbols).toEqual(expect.arrayContaining(symbols));
      },
    );
  },
);
if (!CAPTURES_PRESENT) console.warn(CAPTURES_MISSING_MESSAGE);
