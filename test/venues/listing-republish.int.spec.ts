import { afterEach, describe, expect, it } from 'vitest';
import type { MarketRecord, VenueRecord } from '@app/events';
import { CAPTURES_MISSING_MESSAGE, CAPTURES_PRESENT } from './captures';
import { startIngestor } from './ingest-harness';
import { waitFor } from './memory-sink';
import { BINANCE_SYMBOLS, binanceReplay } from './venue-setups';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const withoutTime = ({ receivedAt: _, ...rest }: MarketRecord | VenueRecord): object => rest;

// Issue 21: the ingestor writes every market and venue record again every LISTING_REPUBLISH_MS, so
// one lost to damage in the log is repaired (docs/operations-log.md "A lost market or venue record").
describe.skipIf(!CAPTURES_PRESENT)('the ingestor republishes market and venue records', () => {
  it('binance through ccxt against a mock venue: every market record and the venue record again, stamped later, same content', async () => {
    const { binance: mock, venues } = await binanceReplay();
    const { ingestor, sink } = startIngestor(venues, { listingRepublishMs: 300 });
    cleanups.push(
      () => mock.close(),
      () => ingestor.stop(),
    );
    const symbols = Object.values(BINANCE_SYMBOLS);
    const markets = (symbol: string): MarketRecord[] =>
      sink.records.filter((r): r is MarketRecord => r.type === 'market' && r.symbol === symbol);
    await waitFor('every market record three times', () => symbols.every((s) => markets(s).length >= 3));
    for (const symbol of symbols) {
      const list = markets(symbol);
      expect(new Set(list.map((m) => JSON.stringify(withoutTime(m)))).size, symbol).toBe(1);
      for (let i = 1; i < list.length; i++)
        expect(list[i]!.receivedAt).toBeGreaterThan(list[i - 1]!.receivedAt);
    }
    const venueRecords = sink.venues('binance');
    expect(venueRecords.length).toBeGreaterThanOrEqual(3);
    // A republished venue record is the venue's latest state at that moment.
    const last = venueRecords.at(-1)!;
    expect(last).toMatchObject({ exchangeId: 'binance', certified: true });
    ingestor.republisher.stop();
    const before = sink.records.length;
    expect(ingestor.republisher.republish()).toBe(symbols.length + 1);
    await waitFor('the republished records', () => sink.records.length >= before + symbols.length + 1);
  });
});
if (!CAPTURES_PRESENT) console.warn(CAPTURES_MISSING_MESSAGE);
