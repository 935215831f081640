import type { BookRecord, EventRecord, VenueRecord } from '@app/events';
import { describe, expect, it } from 'vitest';
import { VenueTally } from './venue-tally';

const venue = (
  exchangeId: string,
  connected: boolean,
  lastError: string | null,
  at: number,
): VenueRecord => ({
  v: 1,
  type: 'venue',
  exchangeId,
  certified: false,
  connected,
  lastError,
  receivedAt: at,
});

const book = (exchangeId: string, symbol: string, at: number): BookRecord => ({
  v: 1,
  type: 'book',
  exchangeId,
  symbol,
  snapshot: true,
  bids: [[100, 1]],
  asks: [[101, 1]],
  sequence: 1,
  exchangeTimestamp: null,
  receivedAt: at,
});

describe("VenueTally: the ingestor's console summary of what it wrote", () => {
  it('counts what passes through the tapped sink, and the sink still gets every batch unchanged', async () => {
    const written: (readonly EventRecord[])[] = [];
    const tally = new VenueTally();
    const sink = tally.tap({ write: (records) => (written.push(records), Promise.resolve()) });
    const batch = [venue('kraken', true, null, 1_000), book('kraken', 'BTC/USD', 1_000)];
    await sink.write(batch);
    expect(written).toEqual([batch]);
    const { message, fields } = tally.summary(2_000);
    expect(message).toBe('ingestor: venues 1/1 connected, 1 fresh; books 1/1 fresh');
    expect(fields).toMatchObject({ venues: 1, connected: 1, freshVenues: 1, books: 1, freshBooks: 1 });
  });

  it('a book older than 10 s is stale; a venue with no fresh book, or disconnected, is named as failing with its error', () => {
    const tally = new VenueTally();
    tally.observe([
      venue('binance', true, null, 0),
      book('binance', 'BTC/USDT', 0),
      book('binance', 'ETH/USDT', 25_000),
      venue('okx', false, 'ECONNRESET', 20_000),
      book('okx', 'BTC/USDT', 5_000),
    ]);
    const { message, fields } = tally.summary(30_000);
    // binance: one of two books published within 10 s; okx: its only book is 25 s old and it is down.
    expect(fields).toMatchObject({ venues: 2, connected: 1, freshVenues: 1, books: 3, freshBooks: 1 });
    expect(message).toBe('ingestor: venues 1/2 connected, 1 fresh; books 1/3 fresh; failing: okx');
    expect(fields.failing).toEqual({ okx: 'ECONNRESET' });
  });

  it('the last venue record wins, and venues the ingestor parked are counted as parked', () => {
    const tally = new VenueTally();
    tally.observe([venue('kraken', false, 'timeout', 0), book('kraken', 'BTC/USD', 0)]);
    tally.observe([venue('kraken', true, null, 1_000), venue('gemini', true, null, 1_000)]);
    const { message, fields } = tally.summary(1_000, [
      { exchangeId: 'gemini', state: 'parked' },
      { exchangeId: 'kraken', state: 'connected' },
    ]);
    expect(fields).toMatchObject({ venues: 2, connected: 2, parked: 1, books: 1, freshBooks: 1 });
    expect(message).toContain('1 parked');
    expect(fields.failing).toEqual({ gemini: 'connected, no book yet' });
  });
});
