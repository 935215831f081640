import { NO_UNWATCH, rule, UNWATCH_UNTESTED, type VenueRule } from './venue-rule';

// The venues whose ccxt class subscribes one book per message (watchOrderBook) or opens one
// connection per book: books per request is 1 for each of them.

/** ccxt subscribes one book per message for the class (no watchOrderBookForSymbols). */
const ONE_PER_MESSAGE = 'ccxt subscribes one book per message (no watchOrderBookForSymbols)';
/** ccxt opens one connection per book for the class: a connection resync is a book resync. */
const ONE_PER_CONNECTION = 'ccxt opens one connection per book (the URL names the book)';

const htxFamily = (sources: readonly string[]): VenueRule =>
  rule({ updateMs: 100, checksumError: 'gap', sources: [ONE_PER_MESSAGE, ...sources] });

/** Venues taking one book per subscribe message or connection (the table is venue-quirks.ts). */
export const ONE_BOOK_VENUE_RULES: Readonly<Record<string, VenueRule>> = {
  bequant: rule({
    updateMs: 100,
    sources: [
      ONE_PER_MESSAGE,
      'ccxt pro/hitbtc.js (bequant extends it): orderbook/full, snapshot then updates',
      NO_UNWATCH,
    ],
  }),
  bingx: rule({
    watchLimit: null,
    updateMs: 300,
    sources: [
      UNWATCH_UNTESTED,
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
  blockchaincom: rule({
    updateMs: 200,
    sources: [ONE_PER_MESSAGE, 'ccxt pro/blockchaincom.js: l2 channel, snapshot then updates', NO_UNWATCH],
  }),
  bullish: rule({
    updateMs: 200,
    sources: [ONE_PER_MESSAGE, 'ccxt pro/bullish.js: l2Orderbook, each message the whole book', NO_UNWATCH],
  }),
  deepcoin: rule({
    updateMs: 200,
    sources: [
      UNWATCH_UNTESTED,
      ONE_PER_MESSAGE,
      'ccxt pro/deepcoin.js: PMO pushes on TopicID 25, "f" the whole book',
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
      UNWATCH_UNTESTED,
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
      UNWATCH_UNTESTED,
      ONE_PER_MESSAGE,
      'ccxt pro/lighter.js: order_book/<market index>, subscribed snapshot then updates',
    ],
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
      UNWATCH_UNTESTED,
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
  upbit: rule({
    updateMs: 200,
    sources: [
      ONE_PER_MESSAGE,
      'ccxt pro/upbit.js: each request carries every orderbook subscription of the connection; each message the whole book (15 levels)',
      NO_UNWATCH,
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
};
