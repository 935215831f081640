import { BinanceMock, foldBinanceCapture, readBinanceCapture } from './binance-mock';
import { BitstampMock, foldBitstamp, readBitstampCapture } from './bitstamp-mock';
import { foldBitfinex, readBitfinexBooks, startBitfinexMock } from './bitfinex-mock';
import { foldBlockchain, readBlockchainL2, startBlockchainMock } from './blockchaincom-mock';
import { foldGemini, readGeminiL2, startGeminiMock } from './gemini-mock';
import { FAST_REDIAL } from './ingest-harness';
import { foldKucoin, kucoinBand, readKucoinCapture, startKucoinMock } from './kucoin-mock';
import { waitFor } from './memory-sink';
import { marketsOption, spotMarket } from './offline-markets';
import { foldPhemex, readPhemexBooks, startPhemexMock } from './phemex-mock';
import { foldPoloniex, readPoloniexBooks, startPoloniexMock } from './poloniex-mock';
import { books, type CaptureProof, type Proof } from './proof-kit';

/** poloniex book_lv2 (current spot API), BTC/USDT, SOL/USDT and BCH/USDT. */
async function poloniex(): Promise<Proof> {
  const frames = readPoloniexBooks();
  const mock = await startPoloniexMock(frames);
  const ids = { BTC_USDT: 'BTC', SOL_USDT: 'SOL', BCH_USDT: 'BCH' } as const;
  return {
    exchangeId: 'poloniex',
    mock,
    venues: {
      poloniex: {
        ccxt: {
          urls: { api: { ws: { public: `${mock.ws}/ws/public` } } },
          markets: marketsOption(
            Object.entries(ids).map(([id, base]) => spotMarket(id, base, 'USDT', 0.002)),
          ),
          options: { ws: FAST_REDIAL },
        },
      },
    },
    extra: { assets: ['BTC', 'SOL', 'BCH', 'USDT'] },
    books: books(
      Object.entries(ids).map(([id, base]) => [
        `${base}/USDT`,
        { fold: foldPoloniex(frames, id), minDeltas: 5 },
      ]),
    ),
  };
}

/**
 * blockchaincom l2 (counted levels), ALGO/BTC, ENJ/USDT and XLM/EUR. YFI-USDT also updates in the
 * window, but its ask side empties for four frames (quotes pulled and re-posted): the ingestor
 * withholds an empty side and re-subscribes, the same frames come again, so it is left out.
 */
async function blockchaincom(): Promise<Proof> {
  const frames = readBlockchainL2();
  const mock = await startBlockchainMock(frames);
  const ids = ['ALGO-BTC', 'ENJ-USDT', 'XLM-EUR'];
  const symbol = (id: string): string => id.replace('-', '/');
  return {
    exchangeId: 'blockchaincom',
    mock,
    venues: {
      blockchaincom: {
        symbols: ids.map(symbol),
        ccxt: {
          urls: { api: { ws: `${mock.ws}/mercury-gateway/v1/ws` } },
          markets: marketsOption(ids.map((id) => spotMarket(id, ...(id.split('-') as [string, string])))),
          options: { ws: FAST_REDIAL },
        },
      },
    },
    extra: {},
    books: books(ids.map((id) => [symbol(id), { fold: foldBlockchain(frames.get(id)!), minDeltas: 3 }])),
  };
}

/** bitfinex v2 `book` P0 at len 100 (watchLimit 100, as recorded), IOT/ETH, DOG/USD and MNA/BTC. */
async function bitfinex(): Promise<Proof> {
  const { info, books: captured } = readBitfinexBooks();
  const mock = await startBitfinexMock(info, captured);
  const ids: Record<string, [string, string]> = {
    tIOTETH: ['IOT', 'ETH'],
    tDOGUSD: ['DOG', 'USD'],
    tMNABTC: ['MNA', 'BTC'],
  };
  return {
    exchangeId: 'bitfinex',
    mock,
    venues: {
      bitfinex: {
        symbols: Object.values(ids).map(([b, q]) => `${b}/${q}`),
        watchLimit: 100,
        ccxt: {
          urls: { api: { ws: { public: `${mock.ws}/ws/2` } } },
          markets: marketsOption(Object.entries(ids).map(([id, [b, q]]) => spotMarket(id, b, q, 0.002))),
          options: { ws: FAST_REDIAL },
        },
      },
    },
    extra: {},
    books: books(
      Object.entries(ids).map(([id, [b, q]]) => [
        `${b}/${q}`,
        { fold: foldBitfinex(captured.get(id)!.frames), minDeltas: 5 },
      ]),
    ),
  };
}

/**
 * phemex spot `orderbook` (30 levels, integer-scaled values), GRT, LINK, ENJ and BCH against USDT.
 * Markets are injected: the 2021 product list lacks the priceScale that ccxt reads from today's
 * list (spot scales are 8), while the socket frames are served as recorded.
 */
async function phemex(): Promise<Proof> {
  const frames = readPhemexBooks();
  const mock = await startPhemexMock(frames);
  const bases = ['GRT', 'LINK', 'ENJ', 'BCH'];
  return {
    exchangeId: 'phemex',
    mock,
    venues: {
      phemex: {
        symbols: bases.map((b) => `${b}/USDT`),
        ccxt: {
          urls: { api: { ws: `${mock.ws}/ws` } },
          markets: marketsOption(
            bases.map((b) => ({ ...spotMarket(`s${b}USDT`, b, 'USDT'), priceScale: 8, valueScale: 8 })),
          ),
          options: { ws: FAST_REDIAL },
        },
      },
    },
    extra: {},
    books: books(
      bases.map((b) => [`${b}/USDT`, { fold: foldPhemex(frames.get(`s${b}USDT`)!), minDeltas: 5 }]),
    ),
  };
}

/**
 * gemini market data v2 `l2` (2026 capture), seven spot books. ccxt speaks v2 in watchOrderBook;
 * its watchOrderBookForSymbols speaks v1 multimarketdata, which no capture holds, so the entry
 * turns that method off (`has.watchOrderBookForSymbols: false`): one v2 watch per symbol.
 */
async function gemini(): Promise<Proof> {
  const frames = readGeminiL2();
  const mock = await startGeminiMock(frames);
  const pairs: [string, string][] = [
    ['BTC', 'USD'],
    ['ETH', 'USD'],
    ['SOL', 'USD'],
    ['BTC', 'USDT'],
    ['ETH', 'USDT'],
    ['BTC', 'EUR'],
    ['BTC', 'GBP'],
  ];
  const id = ([b, q]: [string, string]): string => `${b}${q}`;
  return {
    exchangeId: 'gemini',
    mock,
    venues: {
      gemini: {
        symbols: pairs.map(([b, q]) => `${b}/${q}`),
        ccxt: {
          has: { watchOrderBookForSymbols: false },
          urls: { api: { ws: mock.ws } },
          markets: marketsOption(pairs.map((p) => spotMarket(id(p).toLowerCase(), ...p, 0.004))),
          options: { ws: FAST_REDIAL },
        },
      },
    },
    extra: {},
    books: books(
      pairs.map((p) => {
        const mine = frames.get(id(p))!;
        // BTC/EUR, BTC/GBP and ETH/USDT barely change in the 14 s window: their initial book is the proof.
        return [`${p[0]}/${p[1]}`, { fold: foldGemini(mine), minDeltas: mine.length > 10 ? 3 : 0 }];
      }),
    ),
  };
}

/** binanceus: REST depth snapshots plus the U/u diff stream, binance's protocol (2021 capture). */
async function binanceus(): Promise<Proof> {
  const capture = readBinanceCapture('BINANCE_US');
  const venue = await new BinanceMock(capture).start();
  const fold = foldBinanceCapture(capture);
  const ids: Record<string, string> = {
    COMPUSDT: 'COMP/USDT',
    OMGBUSD: 'OMG/BUSD',
    CRVUSDT: 'CRV/USDT',
    ZRXUSDT: 'ZRX/USDT',
  };
  return {
    exchangeId: 'binanceus',
    mock: { received: [], close: () => venue.close() },
    venues: {
      binanceus: {
        symbols: Object.values(ids),
        ccxt: {
          urls: { api: { public: `${venue.http}/api/v3`, ws: { spot: `${venue.ws}/ws` } } },
          rateLimit: 5,
          options: { ws: FAST_REDIAL },
        },
      },
    },
    extra: {},
    books: books(Object.entries(ids).map(([id, s]) => [s, { fold: fold.get(id)!, minDeltas: 5 }])),
  };
}

/** bitstamp diff_order_book plus REST order_book snapshots (2022 capture), the four pairs with 7+ diffs before their snapshot. */
async function bitstamp(): Promise<Proof> {
  const capture = readBitstampCapture();
  const venue = await new BitstampMock(capture).start();
  const pairs: Record<string, [string, string]> = {
    ethusd: ['ETH', 'USD'],
    usdtusd: ['USDT', 'USD'],
    usdteur: ['USDT', 'EUR'],
    batbtc: ['BAT', 'BTC'],
  };
  const symbol = (id: string): string => pairs[id]!.join('/');
  return {
    exchangeId: 'bitstamp',
    mock: venue.mock,
    attach: (sink) => {
      // The newer diffs flow once ccxt synced the pair's book from the snapshot (it published it).
      venue.gate = (pair) =>
        waitFor(`bitstamp ${pair} synced`, () => sink.books('bitstamp', symbol(pair)).length > 0);
    },
    venues: {
      bitstamp: {
        symbols: Object.keys(pairs).map(symbol),
        ccxt: {
          urls: { api: { public: `${venue.mock.http}/api`, ws: venue.mock.ws } },
          markets: marketsOption(Object.entries(pairs).map(([id, [b, q]]) => spotMarket(id, b, q, 0.004))),
          options: { ws: FAST_REDIAL },
        },
      },
    },
    extra: {},
    books: books(
      Object.keys(pairs).map((id) => [symbol(id), { fold: foldBitstamp(capture, id), minDeltas: 5 }]),
    ),
  };
}

/**
 * kucoin /market/level2 plus REST snapshots (2021 capture), BSV/USDT (BCHSV-USDT), SNX/BTC and
 * ANKR/BTC. Without API keys ccxt syncs from the public 100-level snapshot, so the books are
 * compared inside the band that snapshot covers (docs/venues.md).
 */
async function kucoin(): Promise<Proof> {
  const capture = readKucoinCapture();
  const mock = await startKucoinMock(capture);
  const ids: Record<string, [string, string]> = {
    'BCHSV-USDT': ['BSV', 'USDT'],
    'SNX-BTC': ['SNX', 'BTC'],
    'ANKR-BTC': ['ANKR', 'BTC'],
  };
  return {
    exchangeId: 'kucoin',
    mock,
    venues: {
      kucoin: {
        symbols: Object.values(ids).map(([b, q]) => `${b}/${q}`),
        ccxt: {
          urls: { api: { public: mock.http, ws: { spot: mock.ws } } },
          markets: marketsOption(Object.entries(ids).map(([id, [b, q]]) => spotMarket(id, b, q))),
          options: { ws: FAST_REDIAL },
        },
      },
    },
    extra: {},
    books: books(
      Object.entries(ids).map(([id, [b, q]]) => [
        `${b}/${q}`,
        { fold: foldKucoin(capture, id), band: kucoinBand(capture, id), minDeltas: 5 },
      ]),
    ),
  };
}

/**
 * The venues proven on real recorded traffic beyond binance, okx, bybit and coinbase (venue-setups.ts): each starts
 * a mock venue serving its capture as recorded and returns the VENUES_CONFIG entry pointing the
 * real ccxt class at it plus the independent folds. docs/venues.md "Proof on real traffic".
 */
export const REAL_TRAFFIC_VENUES: readonly CaptureProof[] = [
  { exchangeId: 'gemini', capture: 'GEMINI.jsonl.gz (2026-08-09), market data v2', start: gemini },
  { exchangeId: 'kucoin', capture: 'KUCOIN.* (2021-04-25)', start: kucoin },
  { exchangeId: 'phemex', capture: 'PHEMEX.ws.1.0 (2021-07-03)', start: phemex },
  { exchangeId: 'poloniex', capture: 'POLONIEX.ws.1.0 (2022-08-21)', start: poloniex },
  { exchangeId: 'binanceus', capture: 'BINANCE_US.* (2021-10-12)', start: binanceus },
  { exchangeId: 'bitfinex', capture: 'BITFINEX.ws.11.0 (2021-04-17)', start: bitfinex },
  { exchangeId: 'bitstamp', capture: 'BITSTAMP.* (2022-01-05)', start: bitstamp },
  { exchangeId: 'blockchaincom', capture: 'BLOCKCHAIN.ws.1.0 (2021-07-22)', start: blockchaincom },
];
