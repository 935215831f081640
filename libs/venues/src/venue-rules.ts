import type { VenueRule } from './venue-rule';

/**
 * The rule of a venue not in the table: one book per request (ccxt paces them), no connection
 * cap, ccxt's default channel, resync by connection, 1 s updates.
 */
export const DEFAULT_RULE: VenueRule = Object.freeze({
  perRequest: 1,
  perConnection: null,
  watchLimit: null,
  updateMs: 1_000,
  resync: 'connection',
  checksumError: 'checksum',
  sources: [],
});

const rule = (r: Partial<VenueRule> & Pick<VenueRule, 'sources'>): VenueRule =>
  Object.freeze({ ...DEFAULT_RULE, ...r });

/** Binance's spot rules (binance, binanceus and aster speak the same protocol). */
const binanceFamily = (weightPerMinute: number, sources: readonly string[]): VenueRule =>
  rule({
    perRequest: 20,
    perConnection: 1024,
    // The REST snapshot depth (ccxt's watch limit is the snapshot's `limit`): 1000 levels.
    watchLimit: 1000,
    updateMs: 100,
    resync: 'book',
    checksumError: 'gap',
    rest: { weightPerMinute, snapshotWeight: 50 },
    sources,
  });

const bybitFamily = rule({
  perRequest: 10,
  watchLimit: 200,
  updateMs: 100,
  resync: 'book',
  sources: [
    'Bybit v5 WebSocket docs, "Connect": spot accepts at most 10 args per subscription request',
    'Bybit v5 "Orderbook": spot depths 1, 50, 200, 1000; level 200 pushes every 100 ms (ccxt pro/bybit.js watchOrderBookForSymbols limits [1, 50, 200, 1000])',
  ],
});

const okxFamily = rule({
  perRequest: 20,
  perConnection: null,
  // ccxt's default channel is already the deepest public one ("books", 400 levels); a limit would
  // also trim ccxt's book for good (a deleted level is never backfilled).
  watchLimit: null,
  updateMs: 100,
  resync: 'book',
  sources: [
    'OKX v5 WebSocket docs, "books": 400 levels, snapshot then incremental pushes every 100 ms, CRC32 checksum of the top 25',
    'ccxt pro/okx.js watchOrderBookForSymbols: limit 400 selects the "books" channel (books-l2-tbt and books50-l2-tbt need a login)',
  ],
});

/**
 * Each venue's rules (docs/venues.md "Venue rules" lists them with their sources). Pacing is
 * ccxt's: each subscribe message waits rateLimit x options.ws.cost ms behind the previous one on
 * its connection (base/Exchange.js watch, client.throttle); the table does not repeat it.
 */
export const VENUE_RULES: Readonly<Record<string, VenueRule>> = Object.freeze({
  binance: binanceFamily(6_000, [
    'Binance spot WebSocket streams: 1024 streams per connection, 5 incoming messages per second',
    'Binance spot REST GET /api/v3/depth: weight 50 at limit 1000; REQUEST_WEIGHT 6000 per minute (ccxt binance.js cost 10 x rateLimit 50 ms = the same budget)',
    'ccxt pro/binance.js handleOrderBook: a U/u gap raises ChecksumError and drops that book only',
  ]),
  binanceus: binanceFamily(6_000, [
    'Binance.US WebSocket streams and REST /api/v3/depth: as Binance (ccxt binanceus extends binance)',
  ]),
  bitfinex: rule({
    perConnection: 30,
    watchLimit: 100,
    updateMs: 100,
    resync: 'book',
    sources: [
      'Bitfinex WebSocket docs: at most 30 subscriptions to public channels per connection',
      'ccxt pro/bitfinex.js watchOrderBook: len 25 or 100; a CRC32 checksum of the top 25 (conf flag 131072) is checked by ccxt',
    ],
  }),
  bybit: bybitFamily,
  bybiteu: bybitFamily,
  bybitid: bybitFamily,
  coinbase: rule({
    perRequest: 20,
    watchLimit: null,
    updateMs: 50,
    resync: 'connection',
    aliases: {
      'BTC/USDC': 'BTC/USD',
      'ETH/USDC': 'ETH/USD',
      'SOL/USDC': 'SOL/USD',
      'XRP/USDC': 'XRP/USD',
    },
    sources: [
      'Coinbase Advanced Trade WebSocket "level2": full book then updates; sequence_num per connection',
      'Coinbase: USDC books are the USD books (2023 USD/USDC unification); ccxt pro/coinbase.js handleOrderBook files product BTC-USDC under the product_id the venue sends, BTC-USD',
    ],
  }),
  kraken: rule({
    perRequest: 20,
    watchLimit: 1000,
    updateMs: 100,
    resync: 'connection',
    sources: [
      'Kraken WebSocket v2 "book": depth 10, 25, 100, 500 or 1000, CRC32 checksum of the top 10',
      "ccxt pro/kraken.js handleOrderBook: its checksum check is off by default and cannot be turned on (formatNumber splits the stored numbers as strings and throws), so the ingestor checks Kraken's checksum itself",
    ],
  }),
  myokx: okxFamily,
  okx: okxFamily,
  okxus: okxFamily,
});

/** The rules of `exchangeId` (the table's entry, else DEFAULT_RULE). */
export function ruleOf(exchangeId: string): VenueRule {
  return VENUE_RULES[exchangeId] ?? DEFAULT_RULE;
}

/** Silence timeout derived from a venue's normal update interval: 600 updates' worth, within [60 s, 10 min]. */
export function defaultSilenceMs(rule: VenueRule): number {
  return Math.min(600_000, Math.max(60_000, rule.updateMs * 600));
}
