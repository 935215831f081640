import { describe, expect, it } from 'vitest';
import { ccxtCatalog } from './ccxt-catalog';
import { parseSymbolsFile, SymbolMapper } from './symbol-map';

const rule = new SymbolMapper(null, ccxtCatalog);
const unified = (exchange: string, symbol: string): string => {
  const m = rule.map(exchange, symbol);
  return m.ok ? `${m.venue} ${m.symbol}` : `unmapped: ${m.why}`;
};

describe('tardis.dev exchange and symbol to venue id and unified symbol', () => {
  it('maps the symbols tardis writes for spot venues, in each venue’s own form', () => {
    // Spot symbols as tardis.dev writes them (tardis-node's normalized messages carry these).
    expect(
      [
        ['binance', 'BTCUSDT'],
        ['binance', 'BTCUSDC'],
        ['binance', 'GNTBTC'],
        ['binance-us', 'BTCUSD'],
        ['coinbase', 'BTC-EUR'],
        ['coinbase', 'YFI-USD'],
        ['kraken', 'XBT/USD'],
        ['kraken', 'XDG/EUR'],
        ['bitstamp', 'BCHUSD'],
        ['bitfinex', 'ETHUSD'],
        ['bitfinex', 'tBTCUSD'],
        ['bitfinex', 'TBTCUSD'],
        ['bitfinex', 'BTCUST'],
        ['bitfinex', 'AAVE:USD'],
        ['okex', 'BTC-DAI'],
        ['huobi', 'ONTUSDT'],
        ['gate-io', 'BTC_USDT'],
        ['gemini', 'ZECLTC'],
        ['kucoin', 'BTC-USDT'],
        ['deribit', 'BTC_USDC'],
        ['bybit-spot', 'ETHUSDT'],
        ['upbit', 'KRW-BTC'],
        ['woo-x', 'SPOT_BTC_USDT'],
        ['crypto-com', 'CRO_USDT'],
        ['bitflyer', 'BTC_JPY'],
      ].map(([e, s]) => unified(e!, s!)),
    ).toEqual([
      'binance BTC/USDT',
      'binance BTC/USDC',
      'binance GNT/BTC',
      'binanceus BTC/USD',
      'coinbase BTC/EUR',
      'coinbase YFI/USD',
      'kraken BTC/USD',
      'kraken DOGE/EUR',
      'bitstamp BCH/USD',
      'bitfinex ETH/USD',
      'bitfinex BTC/USD',
      'bitfinex BTC/USD',
      'bitfinex BTC/USDT',
      'bitfinex AAVE/USD',
      'okx BTC/DAI',
      'htx ONT/USDT',
      'gate BTC/USDT',
      'gemini ZEC/LTC',
      'kucoin BTC/USDT',
      'deribit BTC/USDC',
      'bybit ETH/USDT',
      'upbit BTC/KRW',
      'woo BTC/USDT',
      'cryptocom CRO/USDT',
      'bitflyer BTC/JPY',
    ]);
  });

  it('leaves unmapped, with the reason, what it would have to guess', () => {
    expect(unified('binance', 'ADAEUR')).toBe(
      'unmapped: binance ADAEUR: ADAEUR is ambiguous (AD/AEUR or ADA/EUR) (map it under "symbols")',
    );
    expect(unified('gemini', 'BTCGUSD')).toBe(
      'unmapped: gemini BTCGUSD: BTCGUSD is ambiguous (BTCG/USD or BTC/GUSD) (map it under "symbols")',
    );
    expect(unified('binance', 'BTCXYZ')).toBe(
      'unmapped: binance BTCXYZ: BTCXYZ ends with none of this venue\'s quote currencies (map it under "symbols")',
    );
    expect(unified('deribit', 'BTC-PERPETUAL')).toBe(
      'unmapped: deribit BTC-PERPETUAL: BTC-PERPETUAL is not a spot pair of this venue\'s form (map it under "symbols")',
    );
    expect(unified('okex', 'BTC-USDT-SWAP')).toMatch(/BTC-USDT-SWAP is not a spot pair/);
    expect(unified('binance-futures', 'BTCUSDT')).toBe(
      'unmapped: binance-futures BTCUSDT: a derivatives venue: its contracts are not spot pairs (map it under "symbols")',
    );
    expect(unified('poloniex', 'USDT_BTC')).toMatch(/QUOTE_BASE before 2022/);
    expect(unified('bitmex', 'XBTUSD')).toBe(
      'unmapped: exchange bitmex has no class in the pinned ccxt (name a venue id under "exchanges" in --symbols)',
    );
  });

  it('a --symbols file names venues and symbols the rules do not (or overrides them)', () => {
    const file = parseSymbolsFile(
      {
        exchanges: { bitmex: 'bitmex', coinbase: 'coinbaseexchange' },
        symbols: { bitmex: { XBTUSD: 'BTC/USD' }, binance: { ADAEUR: 'ADA/EUR' } },
      },
      'symbols.json',
    );
    const m = new SymbolMapper(file, ccxtCatalog);
    expect(m.map('bitmex', 'XBTUSD')).toEqual({
      ok: true,
      venue: 'bitmex',
      symbol: 'BTC/USD',
      base: 'BTC',
      quote: 'USD',
    });
    expect(m.map('binance', 'ADAEUR')).toMatchObject({ ok: true, venue: 'binance', symbol: 'ADA/EUR' });
    expect(m.map('coinbase', 'BTC-USD')).toMatchObject({
      ok: true,
      venue: 'coinbaseexchange',
      symbol: 'BTC/USD',
    });
    expect(m.map('bitmex', 'ETHUSD')).toEqual({
      ok: false,
      why: 'bitmex ETHUSD: no symbol rule for bitmex (map it under "symbols")',
    });
  });

  it('refuses a --symbols file it cannot use, naming the entry', () => {
    const bad = (v: unknown): string => {
      try {
        parseSymbolsFile(v, 's.json');
        return 'accepted';
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(bad([])).toBe('--symbols s.json: the file must be an object');
    expect(bad({ symbol: {} })).toBe("--symbols s.json: 'symbol' is not a key (exchanges, symbols)");
    expect(bad({ exchanges: { bitmex: 'Bit Mex' } })).toBe(
      '--symbols s.json: exchanges.bitmex must be a venue id (lowercase letters, digits, . _ -)',
    );
    expect(bad({ symbols: { bitmex: { XBTUSD: 'BTCUSD' } } })).toBe(
      '--symbols s.json: symbols.bitmex.XBTUSD must be a unified symbol BASE/QUOTE, got "BTCUSD"',
    );
    expect(bad({ symbols: { bitmex: { XBTUSD: 'BTC/USD:BTC' } } })).toMatch(
      /must be a unified symbol BASE\/QUOTE/,
    );
    expect(bad({ symbols: { bitmex: [] } })).toBe('--symbols s.json: symbols.bitmex must be an object');
  });
});
