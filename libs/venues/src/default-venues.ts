/**
 * The default venues: the spot venues among ccxt 4.5.84's pro classes with watchOrderBook, in
 * exchangeId order. A fixed list, not a run-time scan, so an upgrade of ccxt cannot silently add
 * or drop venues (docs/venues.md lists each left-out class and why).
 */
export const DEFAULT_VENUES: readonly string[] = Object.freeze([
  'aster',
  'backpack',
  'bequant',
  'binance',
  'binanceus',
  'bingx',
  'bitfinex',
  'bitget',
  'bithumb',
  'bitopro',
  'bitrue',
  'bitstamp',
  'bittrade',
  'bitvavo',
  'blockchaincom',
  'bullish',
  'bybit',
  'bybiteu',
  'bybitid',
  'cex',
  'coinbase',
  'coinbaseexchange',
  'coincheck',
  'coinex',
  'coinone',
  'cryptocom',
  'deepcoin',
  'deribit',
  'derive',
  'gate',
  'gateeu',
  'gemini',
  'hashkey',
  'hitbtc',
  'hollaex',
  'htx',
  'hyperliquid',
  'independentreserve',
  'kraken',
  'kucoin',
  'lbank',
  'lighter',
  'luno',
  'mexc',
  'myokx',
  'nado',
  'ndax',
  'okx',
  'okxus',
  'onetrading',
  'p2b',
  'pacifica',
  'phemex',
  'poloniex',
  'toobit',
  'upbit',
  'weex',
  'whitebit',
  'woo',
  'xt',
]);

/** ccxt pro classes with watchOrderBook that are not in DEFAULT_VENUES, and why. */
export const EXCLUDED_VENUES: Readonly<Record<string, string>> = Object.freeze({
  alpaca: 'market-data websockets require API keys',
  apex: 'derivatives only (perpetuals DEX)',
  binancecoinm: 'derivatives only (coin-margined futures)',
  binanceusdm: 'derivatives only (USD-margined futures)',
  blofin: 'derivatives only',
  bydfi: 'derivatives only',
  coinbaseinternational: 'institutional venue; websockets require API keys',
  dydx: 'derivatives only (perpetuals DEX)',
  extended: 'derivatives only (perpetuals DEX)',
  grvt: 'derivatives only (perpetuals DEX)',
  krakenfutures: 'derivatives only',
  kucoinfutures: 'derivatives only',
  modetrade: 'derivatives only (perpetuals DEX)',
  paradex: 'derivatives only (perpetuals DEX)',
  woofipro: 'derivatives only (perpetuals DEX)',
});

/** The default asset universe: a market is watched when both its base and quote are in it. */
export const DEFAULT_ASSETS: readonly string[] = Object.freeze([
  'BTC',
  'ETH',
  'USDT',
  'USDC',
  'SOL',
  'XRP',
  'EUR',
  'USD',
]);

/**
 * `limit` passed to watchOrderBook where a venue's default channel is shallow. ccxt trims the
 * book to `limit` for good, so we ask for the deepest public channel and cut to depth ourselves.
 */
export const DEFAULT_WATCH_LIMITS: Readonly<Record<string, number>> = Object.freeze({
  bybit: 200, // ccxt's default is orderbook.50; 200 is the deepest spot channel at 100 ms
  bybiteu: 200,
  bybitid: 200,
  kraken: 1000, // ccxt uses kraken's websocket v2, whose default book depth is 10
});
