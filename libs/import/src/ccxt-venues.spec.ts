import { describe, expect, it } from 'vitest';
import { ccxtCatalog } from './ccxt-catalog';
import { CCXT_VENUES, COMMON } from './ccxt-venues';
import { TARDIS_EXCHANGES } from './tardis-exchanges';

interface CcxtClass {
  commonCurrencies: Record<string, string>;
  certified?: unknown;
  safeCurrencyCode(code: string): string;
}

async function loadCcxt(): Promise<
  { exchanges: string[]; Exchange: new () => CcxtClass } & Record<string, unknown>
> {
  // The CommonJS build's object (in an ES namespace, `exchanges` is another thing).
  const m = (await import('ccxt')) as { default?: unknown };
  return (m.default ?? m) as never;
}

describe('the exchange table against the pinned ccxt', () => {
  it('maps every tardis.dev exchange id to a ccxt class that exists', async () => {
    const ccxt = await loadCcxt();
    const missing = TARDIS_EXCHANGES.filter((e) => !ccxt.exchanges.includes(e.ccxt)).map(
      (e) => `${e.tardis} -> ${e.ccxt}`,
    );
    expect(missing).toEqual([]);
    // The tardis ids of the issue, each to the ccxt class a user of ccxt would name.
    const of = (t: string): string | undefined => TARDIS_EXCHANGES.find((e) => e.tardis === t)?.ccxt;
    expect(
      [
        'binance',
        'binance-us',
        'okex',
        'huobi',
        'gate-io',
        'bitfinex',
        'kraken',
        'coinbase',
        'bitstamp',
        'kucoin',
        'gemini',
        'deribit',
        'bybit-spot',
      ].map(of),
    ).toEqual([
      'binance',
      'binanceus',
      'okx',
      'htx',
      'gate',
      'bitfinex',
      'kraken',
      'coinbase',
      'bitstamp',
      'kucoin',
      'gemini',
      'deribit',
      'bybit',
    ]);
    // bitmex, ftx, okcoin and ascendex have no class in this ccxt: they are not in the table.
    for (const gone of ['bitmex', 'ftx', 'okcoin', 'ascendex']) {
      expect(of(gone)).toBeUndefined();
      expect(ccxt.exchanges).not.toContain(gone);
    }
  });

  it("copies each class's certified flag and currency renames exactly (regenerate ccxt-venues.ts after a ccxt upgrade)", async () => {
    const ccxt = await loadCcxt();
    const base = new ccxt.Exchange().commonCurrencies;
    const expected: Record<string, { certified: boolean; renames: Record<string, string> }> = {};
    for (const id of [...new Set(TARDIS_EXCHANGES.map((e) => e.ccxt))].sort()) {
      const e = new (ccxt[id] as new () => CcxtClass)();
      const renames = Object.fromEntries(
        Object.entries(e.commonCurrencies).filter(([k, v]) => base[k] !== v),
      );
      expected[id] = { certified: e.certified === true, renames };
      // Every code the class renames, and the common ones, read through the table as ccxt reads it.
      for (const code of [...Object.keys(e.commonCurrencies), 'BTC', 'usdt', 'XBT', 'ETH'])
        expect(ccxtCatalog.currency(id, code), `${id} ${code}`).toBe(e.safeCurrencyCode(code));
    }
    expect(COMMON).toEqual(base);
    expect(CCXT_VENUES).toEqual(expected);
  });
});
