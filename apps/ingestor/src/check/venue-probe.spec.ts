import { describe, expect, it } from 'vitest';
import { book, market, T0, venue } from '@test/support';
import { VENUE_EVENTS, type VenueCounters } from '@app/venues';
import { VenueProbe } from './venue-probe';

const emptyCounters = (): VenueCounters =>
  Object.fromEntries(VENUE_EVENTS.map((e) => [e, 0])) as unknown as VenueCounters;

describe('venues check: the probe', () => {
  it('counts markets, live books, first book time, update rate, depth and integrity failures per venue', async () => {
    let clock = T0;
    const probe = new VenueProbe(T0, () => clock);
    await probe.write([market('okx', 'BTC/USDT'), market('okx', 'ETH/USDT')]);
    clock = T0 + 1500;
    await probe.write([
      book(
        'okx',
        'BTC/USDT',
        [
          [100, 1],
          [99, 1],
        ],
        [[101, 1]],
      ),
    ]);
    clock = T0 + 3500;
    await probe.write([
      { ...book('okx', 'BTC/USDT', [[100, 2]], [], 2), snapshot: false },
      { ...book('okx', 'BTC/USDT', [], [[102, 3]], 3), snapshot: false },
    ]);
    await probe.write([
      { ...venue('okx', true, false), lastError: 'NetworkError: closed', reconnectCount: 1 },
    ]);
    // The ingestor's own log lines, each with the venue's error text.
    probe.debug('order book subscription failed; re-subscribing', {
      exchangeId: 'okx',
      error: 'InvalidNonce: okx BTC/USDT sequence gap',
    });
    probe.debug('order book subscription failed; re-subscribing', {
      exchangeId: 'okx',
      error: 'ChecksumError: okx BTC/USDT checksum mismatch',
    });
    probe.warn('bad book withheld; resubscribing it', {
      exchangeId: 'okx',
      reason: 'ETH/USDT: crossed book withheld; re-subscribing',
    });
    probe.info('something without a venue');
    // The ingestor's counters (Ingestor.health()) give the integrity figures.
    const counters = { ...emptyCounters(), gaps: 1, checksumFailures: 1, badBooks: 1, stalls: 2 };
    const health = [
      {
        exchangeId: 'okx',
        state: 'connecting' as const,
        parkedUntil: null,
        books: 2,
        goodBooks: 1,
        counters,
      },
    ];
    const [okx, idle] = probe.observations(['okx', 'kraken'], T0 + 5500, health);
    expect(okx).toMatchObject({
      exchangeId: 'okx',
      markets: ['BTC/USDT', 'ETH/USDT'],
      booksLive: ['BTC/USDT'],
      firstBookMs: 1500,
      // Two records after the first, over the 4 s since it.
      updatesPerSecond: 0.5,
      gaps: 1,
      checksumFailures: 1,
      badBooks: 1,
      stalls: 2,
      reconnects: 1,
      connected: false,
      errors: [
        'NetworkError: closed',
        'InvalidNonce: okx BTC/USDT sequence gap',
        'ChecksumError: okx BTC/USDT checksum mismatch',
        'ETH/USDT: crossed book withheld; re-subscribing',
      ],
    });
    // Folded as the API folds: two bid levels, two ask levels.
    expect(okx!.depth).toEqual({ bids: 2, asks: 2 });
    expect(idle).toMatchObject({
      exchangeId: 'kraken',
      markets: [],
      booksLive: [],
      firstBookMs: null,
      depth: null,
      gaps: 0,
      stalls: 0,
    });
  });

  it('keeps one text for an error repeated with context', () => {
    const probe = new VenueProbe(T0, () => T0);
    probe.debug('loading markets failed; retrying', {
      exchangeId: 'kraken',
      error: 'NetworkError: ENOTFOUND',
    });
    void probe.write([
      { ...venue('kraken', true, false), lastError: 'loading markets failed: NetworkError: ENOTFOUND' },
    ]);
    expect(probe.observations(['kraken'], T0)[0]!.errors).toEqual([
      'loading markets failed: NetworkError: ENOTFOUND',
    ]);
  });
});
