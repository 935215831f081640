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

/** ccxt has no unWatchOrderBook for the class: the connection is the smallest unit it can resync. */
const NO_UNWATCH = 'ccxt has no unWatchOrderBook for this class: a bad book is resynced with its connection';
/** ccxt subscribes one book per message for the class (no watchOrderBookForSymbols). */
const ONE_PER_MESSAGE = 'ccxt subscribes one book per message (no watchOrderBookForSymbols)';
/** ccxt opens one connection per book for the class: a connection resync is a book resync. */
const ONE_PER_CONNECTION = 'ccxt opens one connection per book (the URL names the book)';

/** Binance's spot rules (binance and binanceus speak the same protocol). */
const binanceFamily = (rest: VenueRule['rest'], sources: readonly string[]): VenueRule =>
  rule({
    perRequest: 20,
    perConnection: 1024,
    // The REST snapshot depth (ccxt's watch limit is the snapshot's `limit`): 1000 levels.
    watchLimit: 1000,
    updateMs: 100,
    resync: 'book',
    bookResync: 'drop',
    checksumError: 'gap',
    rest,
    sources: [
      ...sources,
      'ccxt pro/binance.js handleOrderBook: a U/u gap raises ChecksumError and drops that book only; fetchOrderBookSnapshot loads GET /api/v3/depth?limit=1000 (ccxt cost 10 at rateLimit 50 ms)',
    ],
  });

const bybitFamily = rule({
  perRequest: 10,
  watchLimit: 200,
  updateMs: 100,
  resync: 'book',
  sources: [
    'Bybit v5 WebSocket "Connect": spot accepts at most 10 args per subscription request (more are refused)',
    'Bybit v5 "Orderbook": spot depths 1, 50, 200, 1000; level 200 pushes every 100 ms (ccxt pro/bybit.js watchOrderBookForSymbols limits [1, 50, 200, 1000])',
  ],
});

const okxFamily = rule({
  perRequest: 20,
  // ccxt's default channel is already the deepest public one ("books", 400 levels); a limit would
  // also trim ccxt's book for good (a deleted level is never backfilled).
  watchLimit: null,
  updateMs: 100,
  resync: 'book',
  sources: [
    'OKX v5 WebSocket "Order book channel" (books): 400 levels, snapshot then incremental pushes every 100 ms, CRC32 of the top 25 (checked by the ingestor: ccxt pro/okx.js ignores it)',
    'OKX v5: a subscribe request is at most 64 KB (ccxt pro/okx.js watchOrderBookForSymbols: one request per group)',
  ],
});

const htxFamily = (sources: readonly string[]): VenueRule =>
  rule({ updateMs: 100, checksumError: 'gap', sources: [ONE_PER_MESSAGE, ...sources] });

/**
 * Each venue's rules (docs/venues.md "Venue rules" lists them with their sources). Pacing is
 * ccxt's: each subscribe message waits rateLimit x options.ws.cost ms behind the previous one on
 * its connection (base/Exchange.js watch, client.throttle); docs/venues.md lists the figure.
 */
export const VENUE_RULES: Readonly<Record<string, VenueRule>> = Object.freeze({
  aster: rule({
    perRequest: 20,
    perConnection: 200,
    watchLimit: 20,
    updateMs: 250,
    sources: [
      'ccxt has unWatchOrderBook for this class, not exercised offline against its protocol: a bad book is resynced with its connection',
      'ccxt pro/aster.js watchOrderBookForSymbols: partial depth stream <symbol>@depth{5,10,20}; each push is the whole top 20',
      'Aster spot streams follow Binance: 200 streams per connection',
    ],
  }),
  backpack: rule({
    perRequest: 20,
    updateMs: 100,
    sources: [
      'ccxt pro/backpack.js watchOrderBookForSymbols: depth.<symbol> changes (U/u) on one request; the book over REST GET /api/v1/depth',
      NO_UNWATCH,
    ],
  }),
  bequant: rule({
    updateMs: 100,
    sources: [
      ONE_PER_MESSAGE,
      'ccxt pro/hitbtc.js (bequant extends it): orderbook/full, snapshot then updates',
      NO_UNWATCH,
    ],
  }),
  binance: binanceFamily({ weightPerMinute: 6_000, snapshotWeight: 50 }, [
    'Binance spot WebSocket streams: 1024 streams per connection, 5 incoming messages per second',
    'Binance spot REST GET /api/v3/depth: weight 50 at limit 1000; REQUEST_WEIGHT 6000 per minute',
  ]),
  binanceus: binanceFamily({ weightPerMinute: 1_200, snapshotWeight: 10 }, [
    'Binance.US WebSocket streams: as Binance (ccxt binanceus extends binance)',
    'Binance.US REST GET /api/v3/depth: weight 10 at limit 1000; REQUEST_WEIGHT 1200 per minute',
  ]),
  bingx: rule({
    watchLimit: null,
    updateMs: 300,
    sources: [
      'ccxt has unWatchOrderBook for this class, not exercised offline against its protocol: a bad book is resynced with its connection',
      ONE_PER_MESSAGE,
      'ccxt pro/bingx.js watchOrderBook: <symbol>@depth100 (options.watchOrderBook.depth: 5, 10, 20, 50, 100), each push the whole top 100',
    ],
  }),
  bitfinex: rule({
    perConnection: 30,
    watchLimit: 100,
    updateMs: 100,
    sources: [
      'Bitfinex WebSocket docs: at most 30 subscriptions to public channels per connection',
      'ccxt pro/bitfinex.js watchOrderBook: len 25 or 100; the CRC32 of the top 25 (conf flag 131072) is checked by ccxt',
      'ccxt pro/bitfinex.js declares unWatchOrderBook but throws NotSupported for it: a bad book is resynced with its connection',
    ],
  }),
  bitget: rule({
    perRequest: 20,
    perConnection: 1_000,
    updateMs: 100,
    sources: [
      'Bitget v2 WebSocket: at most 1000 channels per connection, 10 messages per second',
      'ccxt pro/bitget.js watchOrderBookForSymbols: the incremental "books" channel (all levels), CRC32 of the top 25 checked by ccxt',
      NO_UNWATCH,
    ],
  }),
  bithumb: rule({
    updateMs: 200,
    sources: [
      ONE_PER_MESSAGE,
      'ccxt pro/bithumb.js: generation 2 "orderbook", each message the whole book',
      NO_UNWATCH,
    ],
  }),
  bitopro: rule({
    updateMs: 1_000,
    sources: [
      ONE_PER_CONNECTION,
      'ccxt pro/bitopro.js watchPublic: .../order-books/<pair>, each message the whole book',
    ],
  }),
  bitrue: rule({
    updateMs: 1_000,
    sources: [
      ONE_PER_MESSAGE,
      'ccxt pro/bitrue.js: market_<pair>_simple_depth_step0, each message the whole book',
      NO_UNWATCH,
    ],
  }),
  bitstamp: rule({
    updateMs: 100,
    resync: 'book',
    rest: { weightPerMinute: 800, snapshotWeight: 1 },
    sources: [
      ONE_PER_MESSAGE,
      'ccxt pro/bitstamp.js: diff_order_book_<pair> (microtimestamp) and the book over REST GET /api/v2/order_book/<pair>/',
      'Bitstamp API: 8000 requests per 10 minutes per client',
    ],
  }),
  bittrade: htxFamily([
    'ccxt pro/bittrade.js: market.<id>.mbp.150 (the only depth it accepts) and the book by a "req" on the socket',
    NO_UNWATCH,
  ]),
  bitvavo: rule({
    perRequest: 20,
    updateMs: 100,
    sources: [
      'ccxt has unWatchOrderBook for this class, not exercised offline against its protocol: a bad book is resynced with its connection',
      'ccxt pro/bitvavo.js watchOrderBookForSymbols: one "book" channel for many markets, the book by a getBook action on the socket',
    ],
  }),
  blockchaincom: rule({
    updateMs: 200,
    sources: [ONE_PER_MESSAGE, 'ccxt pro/blockchaincom.js: l2 channel, snapshot then updates', NO_UNWATCH],
  }),
  bullish: rule({
    updateMs: 200,
    sources: [ONE_PER_MESSAGE, 'ccxt pro/bullish.js: l2Orderbook, each message the whole book', NO_UNWATCH],
  }),
  bybit: bybitFamily,
  bybiteu: bybitFamily,
  bybitid: bybitFamily,
  cex: rule({
    credentials: 'ccxt pro/cex.js watchOrderBook authenticates before subscribing',
    sources: ['ccxt pro/cex.js watchOrderBook: await this.authenticate()'],
  }),
  coinbase: rule({
    perRequest: 20,
    updateMs: 50,
    aliases: {
      'BTC/USDC': 'BTC/USD',
      'ETH/USDC': 'ETH/USD',
      'SOL/USDC': 'SOL/USD',
      'XRP/USDC': 'XRP/USD',
    },
    sources: [
      'Coinbase Advanced Trade WebSocket "level2": full book then updates; sequence_num per connection',
      'Coinbase: USDC books are the USD books (2023 USD/USDC unification): a BTC-USDC subscription is answered as BTC-USD, and ccxt pro/coinbase.js handleOrderBook files it under BTC/USD',
      NO_UNWATCH,
    ],
  }),
  coinbaseexchange: rule({
    credentials: 'ccxt pro/coinbaseexchange.js watchOrderBook signs the subscription (authenticate)',
    sources: ['ccxt pro/coinbaseexchange.js authenticate: checkRequiredCredentials'],
  }),
  coincheck: rule({
    noDefaultMarket: 'JPY markets only',
    sources: ['ccxt coincheck.js describe: markets fixed to */JPY'],
  }),
  coinex: rule({
    perRequest: 20,
    watchLimit: 50,
    updateMs: 200,
    sources: [
      'ccxt pro/coinex.js watchOrderBookForSymbols: depth.subscribe with a market_list, limits 5, 10, 20, 50; full books with a CRC32 checksum (ccxt leaves its check commented out; the ingestor checks it)',
      NO_UNWATCH,
    ],
  }),
  coinone: rule({
    noDefaultMarket: 'KRW markets only',
    sources: ['ccxt coinone.js fetchMarkets: quote_currency KRW only'],
  }),
  cryptocom: rule({
    perRequest: 20,
    watchLimit: 50,
    updateMs: 100,
    checksumError: 'gap',
    sources: [
      'ccxt pro/cryptocom.js watchOrderBookForSymbols: book.<instrument>.50 (10 or 50), SNAPSHOT_AND_UPDATE; a pu mismatch raises ChecksumError and keeps the book',
      NO_UNWATCH,
    ],
  }),
  deepcoin: rule({
    updateMs: 200,
    sources: [
      'ccxt has unWatchOrderBook for this class, not exercised offline against its protocol: a bad book is resynced with its connection',
      ONE_PER_MESSAGE,
      'ccxt pro/deepcoin.js: PMO pushes on TopicID 25, "f" the whole book',
    ],
  }),
  deribit: rule({
    perRequest: 20,
    updateMs: 100,
    sources: [
      'ccxt pro/deribit.js watchOrderBookForSymbols: book.<instrument>.100ms for many instruments in one public/subscribe (a request must stay under 32 KB)',
      NO_UNWATCH,
    ],
  }),
  derive: rule({
    watchLimit: 100,
    updateMs: 1_000,
    sources: [
      ONE_PER_MESSAGE,
      'ccxt pro/derive.js watchOrderBook: orderbook.<instrument>.10.<depth>, depth 1, 10, 20 or 100; each push the whole book',
      NO_UNWATCH,
    ],
  }),
  gate: rule({
    watchLimit: 400,
    updateMs: 100,
    resync: 'book',
    sources: [
      ONE_PER_MESSAGE,
      'ccxt pro/gate.js watchOrderBook: spot.obu ob.<pair>.<level>, level 50 by default, 400 the deepest (limit 400)',
    ],
  }),
  gateeu: rule({
    watchLimit: 1_000,
    updateMs: 100,
    resync: 'book',
    rest: { weightPerMinute: 1_200, snapshotWeight: 1 },
    rateLimitMs: 50,
    sources: [
      ONE_PER_MESSAGE,
      'ccxt pro/gate.js (gateeu): spot.order_book_update changes (U/u) and the book over REST GET /spot/order_book?limit=<watch limit> (at most 1000)',
      'Gate API: public endpoints 200 requests per 10 seconds per endpoint',
      "ccxt gateeu.js rateLimit 20 ms (50 calls/s) is faster than that budget; the ingestor gives the class gate.js's 50 ms",
    ],
  }),
  gemini: rule({
    updateMs: 100,
    sources: [
      'ccxt pro/gemini.js watchOrderBook: market data v2 "l2" per symbol (the 2026 capture speaks it); watchOrderBookForSymbols would use v1 multimarketdata instead',
      NO_UNWATCH,
    ],
  }),
  hashkey: rule({
    updateMs: 300,
    sources: [ONE_PER_MESSAGE, 'ccxt pro/hashkey.js: depth topic, each push the whole book', NO_UNWATCH],
  }),
  hitbtc: rule({
    updateMs: 100,
    sources: [ONE_PER_MESSAGE, 'ccxt pro/hitbtc.js: orderbook/full, snapshot then updates', NO_UNWATCH],
  }),
  hollaex: rule({
    updateMs: 1_000,
    sources: [ONE_PER_MESSAGE, 'ccxt pro/hollaex.js: orderbook:<pair>, each push the whole book', NO_UNWATCH],
  }),
  htx: htxFamily([
    'ccxt pro/htx.js watchOrderBook: market.<id>.mbp.<depth>, depth 5, 20, 150 or 400 (400 the deepest); the book by a "req"; a seqNum gap raises ChecksumError',
  ]),
  hyperliquid: rule({
    updateMs: 500,
    sources: [
      'ccxt has unWatchOrderBook for this class, not exercised offline against its protocol: a bad book is resynced with its connection',
      ONE_PER_MESSAGE,
      'ccxt pro/hyperliquid.js: l2Book, each push the whole book (20 levels a side)',
    ],
  }),
  independentreserve: rule({
    updateMs: 1_000,
    sources: [
      ONE_PER_CONNECTION,
      'ccxt pro/independentreserve.js: /orderbook/100?subscribe=<base>-<quote>, CRC32 of the top 10 checked by ccxt; it publishes from the first change after the snapshot',
    ],
  }),
  kraken: rule({
    perRequest: 20,
    watchLimit: 1_000,
    updateMs: 100,
    sources: [
      'Kraken WebSocket v2 "book": depth 10, 25, 100, 500 or 1000, CRC32 of the top 10',
      "ccxt pro/kraken.js handleOrderBook: its checksum check is off by default and cannot be turned on (formatNumber splits the stored numbers as strings and throws), so the ingestor checks Kraken's checksum itself",
      NO_UNWATCH,
    ],
  }),
  kucoin: rule({
    perRequest: 100,
    perConnection: 400,
    updateMs: 100,
    resync: 'book',
    rest: { weightPerMinute: 4_000, snapshotWeight: 2 },
    sources: [
      'KuCoin WebSocket: up to 100 symbols in one topic, 400 topics per connection; the socket URL from POST /api/v1/bullet-public',
      'ccxt pro/kucoin.js: /market/level2 changes and the book over REST GET /api/v1/market/orderbook/level2_100',
      'KuCoin REST: public pool 2000 weight per 30 s; level2_100 weight 2',
    ],
  }),
  lbank: rule({
    watchLimit: 100,
    updateMs: 1_000,
    sources: [
      ONE_PER_MESSAGE,
      'ccxt pro/lbank.js watchOrderBook: depth 10, 50 or 100 (default 100), each push the whole book',
      NO_UNWATCH,
    ],
  }),
  lighter: rule({
    updateMs: 100,
    sources: [
      'ccxt has unWatchOrderBook for this class, not exercised offline against its protocol: a bad book is resynced with its connection',
      ONE_PER_MESSAGE,
      'ccxt pro/lighter.js: order_book/<market index>, subscribed snapshot then updates',
    ],
  }),
  luno: rule({
    credentials: 'ccxt pro/luno.js watchOrderBook checks credentials',
    sources: ['ccxt pro/luno.js watchOrderBook: checkRequiredCredentials'],
  }),
  mexc: rule({
    updateMs: 100,
    rest: { weightPerMinute: 3_000, snapshotWeight: 1 },
    sources: [
      ONE_PER_MESSAGE,
      'ccxt pro/mexc.js: spot@public.aggre.depth.v3.api.pb@100ms@<symbol> (protobuf) and the book over REST GET /api/v3/depth',
      'MEXC spot REST: 500 weight per 10 s per endpoint and IP',
      'ccxt pro/mexc.js unWatchOrderBook sends its unsubscribe a turn later (spawn) and settles at once, so a subscription made right after it is unsubscribed by it: a bad book is resynced with its connection',
    ],
  }),
  myokx: okxFamily,
  nado: rule({
    perRequest: 20,
    updateMs: 100,
    sources: [
      'ccxt has unWatchOrderBook for this class, not exercised offline against its protocol: a bad book is resynced with its connection',
      'ccxt pro/nado.js watchOrderBookForSymbols: the book over REST, then book_depth changes chained by last_max_timestamp',
    ],
  }),
  ndax: rule({
    noDefaultMarket:
      "ccxt 4.5.84 drops the book's snapshot: its books hold only the levels changed since subscribing",
    sources: [
      'ccxt pro/ndax.js handleOrderBookSubscription: parseOrderBook over the SubscribeLevel2 rows (an array) yields an empty book',
    ],
  }),
  okx: okxFamily,
  okxus: okxFamily,
  onetrading: rule({
    updateMs: 100,
    sources: [
      ONE_PER_MESSAGE,
      'ccxt pro/onetrading.js watchMany: ORDER_BOOK with every subscribed instrument_codes (UPDATE_SUBSCRIPTION)',
      NO_UNWATCH,
    ],
  }),
  p2b: rule({
    watchLimit: 100,
    updateMs: 1_000,
    sources: [
      ONE_PER_MESSAGE,
      'ccxt pro/p2b.js watchOrderBook: depth.subscribe [market, limit (default 100), interval]',
      NO_UNWATCH,
    ],
  }),
  pacifica: rule({
    updateMs: 500,
    sources: [
      'ccxt has unWatchOrderBook for this class, not exercised offline against its protocol: a bad book is resynced with its connection',
      ONE_PER_MESSAGE,
      'ccxt pro/pacifica.js: book source, each push the whole book',
    ],
  }),
  phemex: rule({
    updateMs: 100,
    sources: [
      ONE_PER_MESSAGE,
      'ccxt pro/phemex.js: orderbook.subscribe (30 levels), snapshot then incremental',
      NO_UNWATCH,
    ],
  }),
  poloniex: rule({
    updateMs: 100,
    sources: [ONE_PER_MESSAGE, 'ccxt pro/poloniex.js: book_lv2, snapshot then updates', NO_UNWATCH],
  }),
  toobit: rule({
    perRequest: 20,
    updateMs: 300,
    sources: [
      'ccxt pro/toobit.js watchOrderBookForSymbols: one depth subscription for many symbols, each push the whole book',
      NO_UNWATCH,
    ],
  }),
  upbit: rule({
    updateMs: 200,
    sources: [
      ONE_PER_MESSAGE,
      'ccxt pro/upbit.js: each request carries every orderbook subscription of the connection; each message the whole book (15 levels)',
      NO_UNWATCH,
    ],
  }),
  weex: rule({
    perRequest: 20,
    updateMs: 200,
    sources: [
      'ccxt has unWatchOrderBook for this class, not exercised offline against its protocol: a bad book is resynced with its connection',
      'ccxt pro/weex.js watchOrderBookForSymbols: <symbol>@depth200, depthSnapshot then depth',
    ],
  }),
  whitebit: rule({
    watchLimit: 100,
    updateMs: 100,
    sources: [
      ONE_PER_MESSAGE,
      'ccxt pro/whitebit.js watchOrderBook: depth_subscribe limit up to 100 (default 10)',
      NO_UNWATCH,
    ],
  }),
  woo: rule({
    credentials: 'the public socket URL carries the application id (uid)',
    sources: ['ccxt pro/woo.js watchPublic: urls.api.ws.public + "/" + uid'],
  }),
  xt: rule({
    updateMs: 100,
    resync: 'book',
    rest: { weightPerMinute: 600, snapshotWeight: 1 },
    sources: [
      ONE_PER_MESSAGE,
      'ccxt pro/xt.js: depth_update@<symbol> changes and the book over REST GET /v4/public/depth',
      'XT REST: 10 requests per second per IP for public endpoints',
    ],
  }),
});

/** The rules of `exchangeId` (the table's entry, else DEFAULT_RULE). */
export function ruleOf(exchangeId: string): VenueRule {
  return VENUE_RULES[exchangeId] ?? DEFAULT_RULE;
}

/** Silence timeout derived from a venue's normal update interval: 600 updates' worth, within [60 s, 10 min]. */
export function defaultSilenceMs(rule: VenueRule): number {
  return Math.min(600_000, Math.max(60_000, rule.updateMs * 600));
}
