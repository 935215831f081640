import { afterEach, describe, expect, it } from 'vitest';
import type { MarketRecord } from '@app/events';
import { routeRequest } from '@app/request';
import { SERVER_DEFAULTS } from '@app/config';
import { solve, type RouteRequest, type RouteResult } from '@app/routing';
import { isWholeMultiple } from '@test/support';
import { readV1 } from './captures';
import { CAPTURES_PRESENT } from './captures';
import { FAST_REDIAL, startIngestor } from './ingest-harness';
import { readKrakenBooks, startKrakenMock } from './kraken-mock';
import { waitFor, type MemorySink } from './memory-sink';
import { BINANCE_SYMBOLS, binanceReplay } from './venue-setups';

// The service's routing settings (libs/config's table).
const DEFAULT_ROUTING_CONFIG = SERVER_DEFAULTS.routing;

// Venue order rules through the real ingestor (docs/venues.md "Order rules"): ccxt loads each
// venue's real market data from a mock serving the 2021 captures (binance exchangeInfo with its
// LOT_SIZE, MARKET_LOT_SIZE and MIN_NOTIONAL filters; kraken AssetPairs with lot_decimals and
// ordermin), the ingestor writes market records carrying the rules, and quotes solved over what
// it wrote have legs the venue would accept.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type Rules = Pick<MarketRecord, 'amountStep' | 'minAmount' | 'minCost' | 'maxAmount'>;

/** binance's filters for a symbol, read straight from the captured exchangeInfo (not through ccxt). */
function binanceFilters(exchangeInfo: string, id: string): Rules {
  const info = JSON.parse(exchangeInfo) as {
    symbols: { symbol: string; filters: Record<string, string>[] }[];
  };
  const filters = info.symbols.find((s) => s.symbol === id)!.filters;
  const f = (type: string) => filters.find((x) => x.filterType === type)!;
  const lot = f('LOT_SIZE');
  const market = f('MARKET_LOT_SIZE');
  // MARKET_LOT_SIZE's minQty of 0 means no further minimum; its maxQty is the tighter maximum.
  return {
    amountStep: Number(lot.stepSize),
    minAmount: Math.max(Number(lot.minQty), Number(market.minQty)),
    minCost: Number(f('MIN_NOTIONAL').minNotional),
    maxAmount: Math.min(Number(lot.maxQty), Number(market.maxQty)),
  };
}

function marketsOf(sink: MemorySink, exchangeId: string): Map<string, MarketRecord> {
  const out = new Map<string, MarketRecord>();
  for (const r of sink.records) if (r.type === 'market' && r.exchangeId === exchangeId) out.set(r.symbol, r);
  return out;
}

/** Solve `over` on the books the ingestor wrote, at the instant of its last record. */
function quote(sink: MemorySink, over: Partial<RouteRequest> & Pick<RouteRequest, 'from' | 'to' | 'amount'>) {
  const now = Math.max(...sink.records.map((r) => r.receivedAt));
  const request = routeRequest({ requestId: 'rules', bridges: [], strategy: 'split_optimal', ...over });
  return solve({ request, books: sink.cache, now, config: DEFAULT_ROUTING_CONFIG });
}

/** Every leg of every hop is an order the market's rules accept. */
function expectExecutable(r: RouteResult, rules: Map<string, Rules>): void {
  for (const hop of r.hops)
    for (const leg of hop.legs) {
      const m = rules.get(hop.pair)!;
      expect(isWholeMultiple(leg.amount, m.amountStep!), `${hop.pair} ${leg.amount}`).toBe(true);
      expect(leg.amount).toBeGreaterThanOrEqual(m.minAmount ?? 0);
      expect(leg.amount).toBeLessThanOrEqual(m.maxAmount ?? Infinity);
      expect(leg.amount * leg.averagePrice).toBeGreaterThanOrEqual((m.minCost ?? 0) * (1 - 1e-12));
    }
}

describe.skipIf(!CAPTURES_PRESENT)('venue order rules from real market data through the ingestor', () => {
  it('binance: LOT_SIZE, MARKET_LOT_SIZE and MIN_NOTIONAL on the records, and quotes that obey them', async () => {
    const { binance: mock, venues } = await binanceReplay();
    const { ingestor, sink } = startIngestor(venues);
    cleanups.push(
      () => mock.close(),
      () => ingestor.stop(),
    );
    await waitFor('the replay to finish', () => mock.done);
    await waitFor('every book', () =>
      Object.values(BINANCE_SYMBOLS).every((s) => sink.levels('binance', s)?.inSync === true),
    );
    const markets = marketsOf(sink, 'binance');
    const rules = new Map<string, Rules>();
    for (const [id, symbol] of Object.entries(BINANCE_SYMBOLS)) {
      const want = binanceFilters(mock.capture.exchangeInfo, id);
      const m = markets.get(symbol)!;
      expect(
        { amountStep: m.amountStep, minAmount: m.minAmount, minCost: m.minCost, maxAmount: m.maxAmount },
        symbol,
      ).toEqual(want);
      rules.set(symbol, want);
    }
    // NKN/USDT: step 1 NKN, at least 10 USDT an order.
    const nkn = quote(sink, { from: 'USDT', to: 'NKN', amount: 1000 });
    expect(nkn.unroutableReason).toBeNull();
    expect(Number.isInteger(nkn.amountOut)).toBe(true);
    expect(nkn.fullyFillable).toBe(true);
    expectExecutable(nkn, rules);
    const sell = quote(sink, { from: 'NKN', to: 'USDT', amount: 2500.5 });
    expect(sell.amountIn).toBe(2500);
    expect([sell.fullyFillable, sell.unfilledAmount]).toEqual([true, 0.5]);
    expectExecutable(sell, rules);
    // 5 USDT is under MIN_NOTIONAL: nothing on binance would take it.
    expect(quote(sink, { from: 'USDT', to: 'NKN', amount: 5 }).unroutableReason).toBe('no_liquidity');
    // RUNE/EUR: MARKET_LOT_SIZE caps a market order at 9053.11035441 RUNE, in steps of 0.1.
    const rune = quote(sink, { from: 'RUNE', to: 'EUR', amount: 20_000 });
    expect(rune.hops[0]!.legs[0]!.amount).toBe(9053.1);
    expect(rune.fullyFillable).toBe(false);
    expectExecutable(rune, rules);
  });

  it('kraken: lot_decimals and ordermin from AssetPairs, and quotes that obey them', async () => {
    const { frames } = readKrakenBooks();
    const assetPairs = readV1('KRAKEN.0').find((l) => l.t === 'http');
    if (assetPairs?.t !== 'http') throw new Error('KRAKEN.0 holds no AssetPairs');
    const mock = await startKrakenMock(frames, 1, (url) =>
      url.pathname === '/0/public/AssetPairs' ? { status: 200, body: assetPairs.data } : undefined,
    );
    const venues = {
      kraken: {
        // Named: the 2021 AssetPairs predate kraken's `status` field, so ccxt marks no pair active.
        symbols: ['BTC/CHF', 'ETH/CHF'],
        // The capture is websocket v1: its checksums are over the strings it sent (prices with 5
        // decimals), not over AssetPairs' pair_decimals (1 for XBTCHF) that a v2 checksum uses.
        checksum: false,
        ccxt: {
          urls: { api: { public: mock.http, ws: { publicV2: `${mock.ws}/v2` } } },
          // The capture holds AssetPairs only; kraken's Assets call is not needed for spot pairs.
          has: { fetchCurrencies: false },
          options: { ws: FAST_REDIAL },
        },
      },
    };
    const { ingestor, sink } = startIngestor(venues);
    cleanups.push(
      () => mock.close(),
      () => ingestor.stop(),
    );
    await waitFor('both books', () =>
      ['BTC/CHF', 'ETH/CHF'].every((s) => sink.levels('kraken', s)?.inSync === true),
    );
    const pairs = JSON.parse(assetPairs.data) as {
      result: Record<string, { lot_decimals: number; ordermin: string }>;
    };
    const rules = new Map<string, Rules>();
    for (const [id, symbol] of [
      ['XBTCHF', 'BTC/CHF'],
      ['ETHCHF', 'ETH/CHF'],
    ] as const) {
      const p = pairs.result[id]!;
      const want: Rules = {
        amountStep: Number(`1e-${p.lot_decimals}`),
        minAmount: Number(p.ordermin),
        minCost: null,
        maxAmount: null,
      };
      const m = marketsOf(sink, 'kraken').get(symbol)!;
      expect(
        { amountStep: m.amountStep, minAmount: m.minAmount, minCost: m.minCost, maxAmount: m.maxAmount },
        symbol,
      ).toEqual(want);
      rules.set(symbol, want);
    }
    const buy = quote(sink, { from: 'CHF', to: 'BTC', amount: 25_000 });
    expect(buy.fullyFillable).toBe(true);
    expectExecutable(buy, rules);
    // 0.0001 BTC is under ordermin 0.0002: no order.
    expect(quote(sink, { from: 'BTC', to: 'CHF', amount: 0.0001 }).unroutableReason).toBe('no_liquidity');
    const eth = quote(sink, { from: 'ETH', to: 'CHF', amount: 1.123456789 });
    expect(eth.amountIn).toBe(1.12345678);
    expectExecutable(eth, rules);
  });
});
