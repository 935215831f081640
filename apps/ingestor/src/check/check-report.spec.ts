import { describe, expect, it } from 'vitest';
import { checkReport, exitCode, judge, renderTable } from './check-report';
import type { VenueObservation } from './venue-probe';

const healthy: VenueObservation = {
  exchangeId: 'binance',
  markets: ['BTC/USDT', 'ETH/USDT'],
  booksLive: ['BTC/USDT', 'ETH/USDT'],
  firstBookMs: 1250,
  updatesPerSecond: 42.25,
  depth: { bids: 500, asks: 480 },
  gaps: 0,
  checksumFailures: 0,
  badBooks: 0,
  stalls: 0,
  reconnects: 0,
  connected: true,
  errors: [],
};

describe('venues check: verdicts', () => {
  it.each([
    ['every market live, nothing broken', {}, 'ok', ''],
    [
      'no market listed after errors',
      { markets: [], booksLive: [], errors: ['NetworkError: x'] },
      'fail',
      'no markets loaded',
    ],
    ['no market in the universe', { markets: [], booksLive: [] }, 'fail', 'no market in the universe'],
    ['markets but no book', { booksLive: [], firstBookMs: null, depth: null }, 'fail', 'no book in 30 s'],
    ['a book missing', { booksLive: ['BTC/USDT'] }, 'warn', '1 of 2 books never came'],
    ['gaps and a checksum failure', { gaps: 2, checksumFailures: 1 }, 'warn', '2 gaps, 1 checksum failure'],
    ['a bad book', { badBooks: 1 }, 'warn', '1 bad book'],
    ['a drop', { reconnects: 1 }, 'warn', 'dropped 1 time(s)'],
    ['down at the end', { connected: false }, 'warn', 'not connected at the end'],
  ] as const)('%s: %s', (_, change, verdict, reason) => {
    expect(judge({ ...healthy, ...change }, 30)).toEqual({ verdict, reason });
  });

  it('exits 1 when a selected venue failed, 0 when all are ok or warn', () => {
    const warn = { ...healthy, exchangeId: 'kraken', gaps: 1 };
    expect(exitCode(checkReport([healthy, warn], 30))).toBe(0);
    expect(exitCode(checkReport([healthy, { ...warn, booksLive: [] }], 30))).toBe(1);
  });

  it('prints one aligned row per venue, the errors of a venue that is not ok, and a summary', () => {
    const down = {
      ...healthy,
      exchangeId: 'bybit',
      booksLive: [],
      firstBookMs: null,
      depth: null,
      updatesPerSecond: 0,
      connected: false,
      errors: ['BadRequest: bybit {"retCode":10001,"retMsg":"args size >10"}'],
    };
    expect(renderTable(checkReport([healthy, down], 30))).toBe(
      [
        'VENUE    MARKETS  BOOKS  FIRST BOOK  DEPTH B/A  UPD/S  GAPS  CKSUM  BAD  VERDICT',
        'binance        2      2       1.3 s    500/480   42.3     0      0    0  ok',
        'bybit          2      0           -          -    0.0     0      0    0  FAIL  no book in 30 s',
        '    bybit said: BadRequest: bybit {"retCode":10001,"retMsg":"args size >10"}',
        '',
        'checked 2 venue(s) for 30 s: 1 ok, 0 warn, 1 fail',
        '',
      ].join('\n'),
    );
  });
});
