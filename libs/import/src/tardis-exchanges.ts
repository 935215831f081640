/**
 * How a venue writes a spot pair in tardis.dev data (tardis uppercases every symbol):
 * - `separator`: BASE<sep>QUOTE (`BTC-USD`), or QUOTE<sep>BASE when `reversed` (`KRW-BTC`), after
 *   an optional `prefix` (`SPOT_BTC_USDT`); anything with more or fewer parts is not a spot pair.
 * - `concatenated`: BASEQUOTE (`BTCUSDT`), split before the one quote currency of `quotes` it ends
 *   with; two candidates (`ADAEUR`: ADA/EUR or AD/AEUR) leave it unmapped rather than guess.
 * - `bitfinex`: BASE:QUOTE, or three letters and three letters, after an optional `t` (`tBTCUSD`).
 * - `explicit`: no rule (derivatives, or a venue whose symbols changed shape over the years):
 *   only a `--symbols` entry maps a symbol.
 */
export type SymbolShape =
  | {
      readonly kind: 'separator';
      readonly sep: string;
      readonly reversed?: boolean;
      readonly prefix?: string;
      /** Codes of the venue's feed whose ccxt code is not what ccxt's renames of the bare code give. */
      readonly codes?: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'concatenated'; readonly quotes: readonly string[] }
  | { readonly kind: 'bitfinex' }
  | { readonly kind: 'explicit'; readonly why: string };

/** A tardis.dev exchange id, the ccxt class of the pinned ccxt it maps to, and its symbol shape. */
export interface TardisExchange {
  readonly tardis: string;
  readonly ccxt: string;
  readonly shape: SymbolShape;
}

const FIAT = ['EUR', 'GBP', 'AUD', 'BRL', 'TRY', 'RUB', 'UAH', 'NGN', 'ZAR', 'PLN', 'RON', 'ARS', 'JPY'];

/** Binance's quote currencies over its history (its 2021 market list, and those added since). */
const BINANCE_QUOTES = [
  ...['USDT', 'BUSD', 'USDC', 'FDUSD', 'TUSD', 'USDP', 'PAX', 'DAI', 'USDS', 'UST', 'AEUR', 'EURI'],
  ...['BTC', 'ETH', 'BNB', 'XRP', 'TRX', 'DOGE', 'DOT', 'VAI', 'GYEN', 'IDRT', 'BIDR', 'BVND', 'BKRW'],
  ...FIAT,
  ...['MXN', 'COP', 'CZK'],
];

const DERIVATIVES: SymbolShape = {
  kind: 'explicit',
  why: 'a derivatives venue: its contracts are not spot pairs',
};

/**
 * The tardis.dev exchanges this import maps, each to a class of the pinned ccxt (package.json),
 * which is the venue id written in the records. A tardis id missing here (bitmex, ftx, okcoin,
 * ascendex, ...) has no class in that ccxt: `--symbols` can name a venue id for it.
 */
export const TARDIS_EXCHANGES: readonly TardisExchange[] = [
  { tardis: 'binance', ccxt: 'binance', shape: { kind: 'concatenated', quotes: BINANCE_QUOTES } },
  {
    tardis: 'binance-us',
    ccxt: 'binanceus',
    shape: { kind: 'concatenated', quotes: ['USD', 'USDT', 'USDC', 'BUSD', 'DAI', 'BTC', 'ETH', 'BNB'] },
  },
  { tardis: 'binance-futures', ccxt: 'binanceusdm', shape: DERIVATIVES },
  { tardis: 'binance-delivery', ccxt: 'binancecoinm', shape: DERIVATIVES },
  { tardis: 'okex', ccxt: 'okx', shape: { kind: 'separator', sep: '-' } },
  { tardis: 'okex-swap', ccxt: 'okx', shape: DERIVATIVES },
  { tardis: 'okex-futures', ccxt: 'okx', shape: DERIVATIVES },
  { tardis: 'okex-options', ccxt: 'okx', shape: DERIVATIVES },
  {
    tardis: 'huobi',
    ccxt: 'htx',
    shape: { kind: 'concatenated', quotes: ['USDT', 'USDC', 'USDD', 'HUSD', 'BTC', 'ETH', 'HT', 'TRX'] },
  },
  { tardis: 'huobi-dm', ccxt: 'htx', shape: DERIVATIVES },
  { tardis: 'huobi-dm-swap', ccxt: 'htx', shape: DERIVATIVES },
  { tardis: 'huobi-dm-linear-swap', ccxt: 'htx', shape: DERIVATIVES },
  { tardis: 'huobi-dm-options', ccxt: 'htx', shape: DERIVATIVES },
  { tardis: 'gate-io', ccxt: 'gate', shape: { kind: 'separator', sep: '_' } },
  { tardis: 'gate-io-futures', ccxt: 'gate', shape: DERIVATIVES },
  { tardis: 'bitfinex', ccxt: 'bitfinex', shape: { kind: 'bitfinex' } },
  { tardis: 'bitfinex-derivatives', ccxt: 'bitfinex', shape: DERIVATIVES },
  // Kraken's WebSocket pairs use altnames (XBT/USD): its altname REP is the asset XREP, which ccxt
  // calls REP (ccxt's rename REP -> REPV1 is of the asset whose id is REP).
  { tardis: 'kraken', ccxt: 'kraken', shape: { kind: 'separator', sep: '/', codes: { REP: 'REP' } } },
  { tardis: 'cryptofacilities', ccxt: 'krakenfutures', shape: DERIVATIVES },
  { tardis: 'coinbase', ccxt: 'coinbase', shape: { kind: 'separator', sep: '-' } },
  { tardis: 'coinbase-international', ccxt: 'coinbaseinternational', shape: DERIVATIVES },
  {
    tardis: 'bitstamp',
    ccxt: 'bitstamp',
    shape: { kind: 'concatenated', quotes: ['USD', 'USDT', 'USDC', 'PAX', 'EUR', 'GBP', 'BTC', 'ETH'] },
  },
  { tardis: 'kucoin', ccxt: 'kucoin', shape: { kind: 'separator', sep: '-' } },
  { tardis: 'kucoin-futures', ccxt: 'kucoinfutures', shape: DERIVATIVES },
  {
    tardis: 'gemini',
    ccxt: 'gemini',
    shape: {
      kind: 'concatenated',
      quotes: ['USD', 'USDT', 'GUSD', 'DAI', 'BTC', 'ETH', 'BCH', 'LTC', 'EUR', 'GBP', 'SGD'],
    },
  },
  // Spot pairs are BTC_USDC; BTC-PERPETUAL, BTC_USDC-PERPETUAL and options are not.
  { tardis: 'deribit', ccxt: 'deribit', shape: { kind: 'separator', sep: '_' } },
  {
    tardis: 'bybit-spot',
    ccxt: 'bybit',
    shape: {
      kind: 'concatenated',
      quotes: ['USDT', 'USDC', 'USDE', 'DAI', 'BTC', 'ETH', 'MNT', 'EUR', 'BRL', 'PLN', 'TRY'],
    },
  },
  { tardis: 'bybit', ccxt: 'bybit', shape: DERIVATIVES },
  { tardis: 'bybit-options', ccxt: 'bybit', shape: DERIVATIVES },
  {
    tardis: 'mexc',
    ccxt: 'mexc',
    shape: { kind: 'concatenated', quotes: ['USDT', 'USDC', 'USDE', 'BTC', 'ETH', 'EUR', 'BRL', 'TRY'] },
  },
  { tardis: 'mexc-futures', ccxt: 'mexc', shape: DERIVATIVES },
  {
    tardis: 'bitget',
    ccxt: 'bitget',
    shape: { kind: 'concatenated', quotes: ['USDT', 'USDC', 'USDE', 'BTC', 'ETH', 'EUR', 'BRL', 'TRY'] },
  },
  { tardis: 'bitget-futures', ccxt: 'bitget', shape: DERIVATIVES },
  { tardis: 'crypto-com', ccxt: 'cryptocom', shape: { kind: 'separator', sep: '_' } },
  { tardis: 'bitflyer', ccxt: 'bitflyer', shape: { kind: 'separator', sep: '_' } },
  { tardis: 'upbit', ccxt: 'upbit', shape: { kind: 'separator', sep: '-', reversed: true } },
  { tardis: 'blockchain-com', ccxt: 'blockchaincom', shape: { kind: 'separator', sep: '-' } },
  { tardis: 'woo-x', ccxt: 'woo', shape: { kind: 'separator', sep: '_', prefix: 'SPOT_' } },
  {
    tardis: 'poloniex',
    ccxt: 'poloniex',
    shape: { kind: 'explicit', why: 'its pairs were QUOTE_BASE before 2022 and BASE_QUOTE since' },
  },
  {
    tardis: 'hitbtc',
    ccxt: 'hitbtc',
    shape: { kind: 'explicit', why: 'its USD meant USDT in the years tardis.dev covers' },
  },
  { tardis: 'phemex', ccxt: 'phemex', shape: DERIVATIVES },
  { tardis: 'delta', ccxt: 'delta', shape: DERIVATIVES },
  { tardis: 'dydx-v4', ccxt: 'dydx', shape: DERIVATIVES },
  { tardis: 'hyperliquid', ccxt: 'hyperliquid', shape: DERIVATIVES },
  { tardis: 'aster-futures', ccxt: 'aster', shape: DERIVATIVES },
];

const BY_ID = new Map(TARDIS_EXCHANGES.map((e) => [e.tardis, e]));

/** The table's entry for a tardis.dev exchange id, if it has one. */
export function tardisExchange(id: string): TardisExchange | undefined {
  return BY_ID.get(id);
}
