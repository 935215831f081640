import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultOf } from '@app/config';
import { describe, expect, it } from 'vitest';
import { watchOrderBookIds } from './ccxt-venue';
import { DEFAULT_VENUES, EXCLUDED_VENUES } from './default-venues';
import { chooseTakerFee } from './fees';
import { ingestorOptions } from './options';
import { selectSymbols } from './select-symbols';
import { loadVenuesConfig, parseVenuesConfig, VenuesConfigError } from './venues-config';

const ids = watchOrderBookIds();
const sink = { write: () => Promise.resolve() };
// The write buffer and listing period the service starts with (libs/config's table).
const writer = {
  bufferBytes: defaultOf('WRITE_BUFFER_BYTES'),
  listingRepublishMs: defaultOf('LISTING_REPUBLISH_MS'),
};

describe('VENUES_CONFIG', () => {
  it('parses venues in the order written, with symbols, ccxt options and watch limits', () => {
    const config = parseVenuesConfig(
      {
        venues: {
          okx: { symbols: ['BTC/USDT'], ccxt: { urls: { api: { ws: 'ws://127.0.0.1:1/ws/v5' } } } },
          binance: {},
          kraken: { checksumEveryMs: 0 },
        },
      },
      'f.json',
      ids,
    );
    const options = ingestorOptions({ sink, ...writer, venuesConfig: config });
    expect(options.venues).toMatchObject([
      {
        exchangeId: 'okx',
        symbols: ['BTC/USDT'],
        ccxt: { urls: { api: { ws: 'ws://127.0.0.1:1/ws/v5' } } },
        watchLimit: undefined,
        checksum: true,
        checksumEveryMs: 1000,
      },
      { exchangeId: 'binance', symbols: null, ccxt: {}, watchLimit: 1000 },
      { exchangeId: 'kraken', checksum: true, checksumEveryMs: 0 },
    ]);
  });

  it('lists every problem at once', () => {
    const bad = {
      venues: {
        nope: {},
        okx: { symbols: ['BTCUSDT'], ccxt: 3, watchLimit: 0, extra: true, checksumEveryMs: -1 },
        kraken: { checksumEveryMs: 2.5 },
      },
      other: 1,
    };
    let error: unknown;
    try {
      parseVenuesConfig(bad, 'f.json', ids);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(VenuesConfigError);
    expect((error as VenuesConfigError).problems).toEqual([
      "unknown top-level key 'other'",
      "venues.nope: 'nope' is not a ccxt pro exchange with watchOrderBook",
      "venues.okx: unknown key 'extra'",
      'venues.okx.symbols: must be an array of unified symbols like "BTC/USDT"',
      'venues.okx.ccxt: must be an object of ccxt options',
      'venues.okx.watchLimit: must be a positive integer',
      'venues.okx.checksumEveryMs: must be an integer >= 0 (ms; 0 = every message)',
      'venues.kraken.checksumEveryMs: must be an integer >= 0 (ms; 0 = every message)',
    ]);
  });

  it('reports unreadable files and bad JSON with the path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'venues-'));
    const file = join(dir, 'v.json');
    writeFileSync(file, '{ "venues": ');
    expect(() => loadVenuesConfig(file, ids)).toThrow(
      /invalid venues config .*v\.json:\n {2}- not valid JSON/,
    );
    expect(() => loadVenuesConfig(join(dir, 'missing.json'), ids)).toThrow(/cannot read the file/);
  });
});

describe('defaults', () => {
  it('covers every ccxt watchOrderBook class: 53 spot venues, the rest excluded with a reason', () => {
    expect([...DEFAULT_VENUES, ...Object.keys(EXCLUDED_VENUES)].sort()).toEqual([...ids].sort());
    expect(DEFAULT_VENUES.length).toBe(53);
    const options = ingestorOptions({ sink, ...writer });
    expect(options.venues.map((v) => v.exchangeId)).toEqual(DEFAULT_VENUES);
    expect(options.depth).toBe(500);
  });

  it("gives gateeu the REST pace of Gate's budget (ccxt's own is faster); VENUES_CONFIG's rateLimit wins", async () => {
    const gateeu = ingestorOptions({ sink, ...writer }).venues.find((v) => v.exchangeId === 'gateeu')!;
    expect(gateeu.ccxt).toEqual({ rateLimit: 50 });
    const own = ingestorOptions({
      sink,
      ...writer,
      venuesConfig: parseVenuesConfig({ venues: { gateeu: { ccxt: { rateLimit: 100 } } } }, 'f.json', ids),
    });
    expect(own.venues[0]!.ccxt).toEqual({ rateLimit: 100 });
    // The budget: 1,200 a minute, one per 50 ms; ccxt gateeu.js spaces calls 20 ms apart.
    const ccxt = await import('ccxt');
    expect(new ccxt.gateeu().rateLimit).toBe(20);
  });
  it('rejects nonsense knobs', () => {
    expect(() => ingestorOptions({ sink, ...writer, depth: 0 })).toThrow(/depth must be a positive integer/);
    expect(() => ingestorOptions({ sink, ...writer, assets: [] })).toThrow(/asset universe/);
  });
});

describe('taker fees', () => {
  it('the override table wins, a valid ccxt rate is kept, anything else is null', () => {
    expect(chooseTakerFee('weex', 0.1)).toEqual({ rate: 0.001, source: 'override' });
    expect(chooseTakerFee('binance', 0.001)).toEqual({ rate: 0.001, source: 'ccxt' });
    expect(chooseTakerFee('somewhere', 0.1)).toMatchObject({ rate: null, source: 'missing' });
    expect(chooseTakerFee('somewhere', undefined)).toMatchObject({ rate: null });
    expect(chooseTakerFee('somewhere', [[0, 0.2]])).toMatchObject({ rate: null });
    expect(chooseTakerFee('somewhere', -0.001)).toMatchObject({ rate: null });
  });
});

describe('selectSymbols', () => {
  const markets = {
    'BTC/USDT': { symbol: 'BTC/USDT', base: 'BTC', quote: 'USDT', spot: true },
    'ETH/BTC': { symbol: 'ETH/BTC', base: 'ETH', quote: 'BTC', spot: true, active: false },
    'DOGE/USDT': { symbol: 'DOGE/USDT', base: 'DOGE', quote: 'USDT', spot: true },
    'BTC/USDT:USDT': { symbol: 'BTC/USDT:USDT', base: 'BTC', quote: 'USDT', spot: false },
    'SOL/EUR': { symbol: 'SOL/EUR', base: 'SOL', quote: 'EUR', spot: true },
  };
  it('takes active spot markets inside the universe, sorted', () => {
    expect(selectSymbols(markets, ['BTC', 'ETH', 'USDT', 'SOL', 'EUR'], null)).toEqual({
      symbols: ['BTC/USDT', 'SOL/EUR'],
      unknown: [],
    });
  });
  it('explicit symbols win, unknown ones are reported', () => {
    expect(selectSymbols(markets, ['BTC'], ['DOGE/USDT', 'X/Y'])).toEqual({
      symbols: ['DOGE/USDT'],
      unknown: ['X/Y'],
    });
  });
});
