import { NO_UNWATCH, rule, UNWATCH_UNTESTED, type VenueRule } from './venue-rule';

// The venues whose ccxt class subscribes many books in one request (watchOrderBookForSymbols):
// more than one book per request for each, up to what the venue accepts in one message.

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

/** Venues taking many books per subscribe request (the table is venue-quirks.ts). */
export const BATCHED_VENUE_RULES: Readonly<Record<string, VenueRule>> = {
  aster: rule({
    perRequest: 20,
    perConnection: 200,
    watchLimit: 20,
    updateMs: 250,
    sources: [
      UNWATCH_UNTESTED,
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
  binance: binanceFamily({ weightPerMinute: 6_000, snapshotWeight: 50 }, [
    'Binance spot WebSocket streams: 1024 streams per connection, 5 incoming messages per second',
    'Binance spot REST GET /api/v3/depth: weight 50 at limit 1000; REQUEST_WEIGHT 6000 per minute',
  ]),
  binanceus: binanceFamily({ weightPerMinute: 1_200, snapshotWeight: 10 }, [
    'Binance.US WebSocket streams: as Binance (ccxt binanceus extends binance)',
    'Binance.US REST GET /api/v3/depth: weight 10 at limit 1000; REQUEST_WEIGHT 1200 per minute',
  ]),
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
  bitvavo: rule({
    perRequest: 20,
    updateMs: 100,
    sources: [
      UNWATCH_UNTESTED,
      'ccxt pro/bitvavo.js watchOrderBookForSymbols: one "book" channel for many markets, the book by a getBook action on the socket',
    ],
  }),
  bybit: bybitFamily,
  bybiteu: bybitFamily,
  bybitid: bybitFamily,
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
  coinex: rule({
    perRequest: 20,
    watchLimit: 50,
    updateMs: 200,
    sources: [
      'ccxt pro/coinex.js watchOrderBookForSymbols: depth.subscribe with a market_list, limits 5, 10, 20, 50; full books with a CRC32 checksum (ccxt leaves its check commented out; the ingestor checks it)',
      NO_UNWATCH,
    ],
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
  deribit: rule({
    perRequest: 20,
    updateMs: 100,
    sources: [
      'ccxt pro/deribit.js watchOrderBookForSymbols: book.<instrument>.100ms for many instruments in one public/subscribe (a request must stay under 32 KB)',
      NO_UNWATCH,
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
  myokx: okxFamily,
  nado: rule({
    perRequest: 20,
    updateMs: 100,
    sources: [
      UNWATCH_UNTESTED,
      'ccxt pro/nado.js watchOrderBookForSymbols: the book over REST, then book_depth changes chained by last_max_timestamp',
    ],
  }),
  okx: okxFamily,
  okxus: okxFamily,
  toobit: rule({
    perRequest: 20,
    updateMs: 300,
    sources: [
      'ccxt pro/toobit.js watchOrderBookForSymbols: one depth subscription for many symbols, each push the whole book',
      NO_UNWATCH,
    ],
  }),
  weex: rule({
    perRequest: 20,
    updateMs: 200,
    sources: [
      UNWATCH_UNTESTED,
      'ccxt pro/weex.js watchOrderBookForSymbols: <symbol>@depth200, depthSnapshot then depth',
    ],
  }),
};
