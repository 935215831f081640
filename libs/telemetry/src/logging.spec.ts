import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, quietRepeats, venueSummary, type ServiceLogger } from './index';

/** A stream that keeps each written line (pino-pretty needs a real Writable). */
function memory(): Writable & { lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      lines.push(
        ...String(chunk)
          .split('\n')
          .filter((l) => l !== ''),
      );
      done();
    },
  });
  return Object.assign(stream, { lines });
}

describe('createLogger', () => {
  it('JSON lines: level label, ISO time, the message before the fields', () => {
    const out = memory();
    const log = createLogger({ level: 'info', format: 'auto', terminal: false, destination: out });
    log.info('listening', { port: 3000, url: 'http://127.0.0.1:3000' });
    log.debug('hidden at info');
    log.child({ component: 'BookFeed' }).warn('lagging', { partition: 2 });
    expect(out.lines).toHaveLength(2);
    const first = JSON.parse(out.lines[0]!);
    expect(first).toEqual({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      message: 'listening',
      port: 3000,
      url: 'http://127.0.0.1:3000',
    });
    // Scripts find the bound port with this pattern.
    expect(out.lines[0]).toMatch(/"message":"listening","port":3000/);
    expect(JSON.parse(out.lines[1]!)).toMatchObject({
      level: 'warn',
      component: 'BookFeed',
      message: 'lagging',
    });
  });

  it('pretty lines on a terminal (or when asked): time, level, message, fields on one line', () => {
    const out = memory();
    const log = createLogger({ level: 'debug', format: 'pretty', terminal: false, destination: out });
    log.warn('venue down', { exchangeId: 'binance' });
    expect(out.lines).toHaveLength(1);
    expect(out.lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: venue down \{"exchangeId":"binance"\}$/);
  });
});

describe('quietRepeats', () => {
  it('writes a repeated warning once per window per venue, then with the count it held back', () => {
    const got: [string, string, unknown][] = [];
    const base: ServiceLogger = {
      debug: (m, f) => got.push(['debug', m, f]),
      info: (m, f) => got.push(['info', m, f]),
      log: (m, f) => got.push(['info', m, f]),
      warn: (m, f) => got.push(['warn', m, f]),
      error: (m, f) => got.push(['error', m, f]),
      child: () => base,
      isLevelEnabled: () => true,
    };
    let t = 0;
    const log = quietRepeats(base, 60_000, () => t);
    log.warn('subscription failed', { exchangeId: 'a' });
    log.warn('subscription failed', { exchangeId: 'a' });
    log.warn('subscription failed', { exchangeId: 'b' });
    t = 59_999;
    log.warn('subscription failed', { exchangeId: 'a' });
    t = 60_000;
    log.warn('subscription failed', { exchangeId: 'a' });
    expect(got.map(([level, , f]) => `${level} ${JSON.stringify(f)}`)).toEqual([
      'warn {"exchangeId":"a"}',
      'debug {"exchangeId":"a"}',
      'warn {"exchangeId":"b"}',
      'debug {"exchangeId":"a"}',
      'warn {"exchangeId":"a","repeated":2}',
    ]);
  });
});

describe('venueSummary', () => {
  it('counts venues and books, names every failing venue with its error', () => {
    const s = venueSummary({
      status: 'degraded',
      venues: [
        { exchangeId: 'okx', connected: true, books: 10, freshBooks: 9, lastError: null },
        {
          exchangeId: 'kraken',
          connected: false,
          books: 0,
          freshBooks: 0,
          lastError: 'NetworkError:\n  ECONNREFUSED',
        },
        { exchangeId: 'bybit', connected: true, books: 4, freshBooks: 0, lastError: null },
        { exchangeId: 'binance', connected: false, books: 0, freshBooks: 0, lastError: 'x'.repeat(500) },
      ],
    });
    expect(s.message).toBe(
      'degraded: venues 2/4 connected, 1 fresh; books 9/14 fresh; failing: binance, bybit, kraken',
    );
    expect(s.fields).toEqual({
      status: 'degraded',
      venues: 4,
      connected: 2,
      freshVenues: 1,
      books: 14,
      freshBooks: 9,
      failing: {
        binance: `${'x'.repeat(197)}...`,
        bybit: 'connected, every book stale or out of sync',
        kraken: 'NetworkError: ECONNREFUSED',
      },
    });
  });

  it('names eight venues in the message and counts the rest', () => {
    const venues = Array.from({ length: 59 }, (_, i) => ({
      exchangeId: `v${String(i).padStart(2, '0')}`,
      connected: false,
      books: 0,
      freshBooks: 0,
      lastError: 'loading markets failed: NetworkError',
    }));
    const s = venueSummary({ status: 'no_fresh_books', venues });
    expect(s.message).toBe(
      'no_fresh_books: venues 0/59 connected, 0 fresh; books 0/0 fresh; failing: v00, v01, v02, v03, v04, v05, v06, v07 and 51 more',
    );
    expect(Object.keys(s.fields.failing as object)).toHaveLength(59);
  });
});
