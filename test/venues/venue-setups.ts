import type { IngestorOptionsInput } from '@app/venues';
import { BinanceMock, foldBinanceCapture, readBinanceCapture } from './binance-mock';
import { foldBybit, readBybitSpotBooks, startBybitMock } from './bybit-mock';
import { foldCoinbase, readCoinbaseL2, startCoinbaseMock } from './coinbase-mock';
import { binanceCcxt, FAST_REDIAL } from './ingest-harness';
import { foldKraken, readKrakenBooks, startKrakenMock } from './kraken-mock';
import type { RawBook } from './memory-sink';
import type { MockVenue } from './mock-server';
import { marketsOption, spotMarket } from './offline-markets';
import { foldOkx, readOkxBooks, startOkxMock } from './okx-mock';

/**
 * One venue's replay: the mock serving the capture, the VENUES_CONFIG entry pointing ccxt at it,
 * and the expected books (unified symbol -> the independent fold of the capture).
 */
export interface VenueReplay {
  readonly exchangeId: string;
  readonly mock: Pick<MockVenue, 'received' | 'close'>;
  readonly venues: Record<string, unknown>;
  readonly extra: Partial<IngestorOptionsInput>;
  readonly expected: ReadonlyMap<string, RawBook>;
  /** True once the mock has sent the whole capture (where the mock can tell). */
  readonly done: () => boolean;
}

export const BINANCE_SYMBOLS: Readonly<Record<string, string>> = {
  NKNUSDT: 'NKN/USDT',
  BLZETH: 'BLZ/ETH',
  LRCBTC: 'LRC/BTC',
  RUNEEUR: 'RUNE/EUR',
};

/** binance: REST depth snapshots plus the U/u diff stream (2021 capture). */
export async function binanceReplay(): Promise<VenueReplay & { binance: BinanceMock }> {
  const capture = readBinanceCapture();
  const binance = await new BinanceMock(capture).start();
  const fold = foldBinanceCapture(capture);
  return {
    exchangeId: 'binance',
    binance,
    mock: { received: [], close: () => binance.close() },
    done: () => binance.done,
    venues: {
      binance: {
        symbols: Object.values(BINANCE_SYMBOLS),
        ccxt: binanceCcxt(binance.http, binance.ws),
      },
    },
    extra: {},
    expected: new Map(Object.entries(BINANCE_SYMBOLS).map(([id, s]) => [s, fold.get(id)!])),
  };
}

/** kraken v2 book channel, markets from the captured AssetPairs (2021 capture). */
export async function krakenReplay(): Promise<VenueReplay> {
  const { pairs, frames } = readKrakenBooks();
  const mock = await startKrakenMock(frames);
  // Taker fee is the first tier, in percent.
  const markets = marketsOption(
    ['XBTCHF', 'ETHCHF'].map((id) => {
      const p = pairs[id]!;
      const [base, quote] = p.wsname.replace('XBT', 'BTC').split('/') as [string, string];
      // Kraken's checksum prints levels with the pair's precision. The capture is websocket v1, whose
      // checksums are over the strings it sent: prices with 5 decimals (not pair_decimals), volumes
      // with lot_decimals; the v2 frames carry those checksums, so the market is given that precision.
      const precision = { price: 1e-5, amount: 10 ** -p.lot_decimals };
      return { ...spotMarket(id, base, quote, p.fees[0]![1]! / 100), precision, info: { wsname: p.wsname } };
    }),
  );
  return {
    exchangeId: 'kraken',
    mock,
    done: () => true,
    venues: {
      kraken: {
        ccxt: { urls: { api: { ws: { publicV2: `${mock.ws}/v2` } } }, markets, options: { ws: FAST_REDIAL } },
      },
    },
    extra: { assets: ['BTC', 'ETH', 'CHF'] },
    expected: new Map([
      ['BTC/CHF', foldKraken(frames.get('XBT/CHF')!)],
      ['ETH/CHF', foldKraken(frames.get('ETH/CHF')!)],
    ]),
  };
}

/** okx books channel, BTC-USDT (2022 capture). */
export async function okxReplay(): Promise<VenueReplay & { instrument: Record<string, string> }> {
  const { instrument, frames } = readOkxBooks('BTC-USDT');
  const mock = await startOkxMock(new Map([['BTC-USDT', frames]]));
  const market = spotMarket(instrument.instId!, instrument.baseCcy!, instrument.quoteCcy!, 0.001);
  return {
    exchangeId: 'okx',
    instrument,
    mock,
    done: () => true,
    venues: {
      okx: {
        ccxt: {
          urls: { api: { ws: `${mock.ws}/ws/v5` } },
          markets: marketsOption([market]),
          options: { ws: FAST_REDIAL },
        },
      },
    },
    extra: {},
    expected: new Map([['BTC/USDT', foldOkx(frames)]]),
  };
}

/** bybit spot orderbook.200, BTCUSDT and ETHUSDT (2026 capture). */
export async function bybitReplay(): Promise<VenueReplay> {
  const topics = readBybitSpotBooks();
  const mock = await startBybitMock(topics);
  const markets = marketsOption([spotMarket('BTCUSDT', 'BTC', 'USDT'), spotMarket('ETHUSDT', 'ETH', 'USDT')]);
  return {
    exchangeId: 'bybit',
    mock,
    done: () => true,
    venues: {
      bybit: {
        ccxt: {
          urls: { api: { ws: { public: { spot: `${mock.ws}/v5/public/spot` } } } },
          markets,
          options: { ws: FAST_REDIAL },
        },
      },
    },
    extra: {},
    expected: new Map([
      ['BTC/USDT', foldBybit(topics.get('orderbook.200.BTCUSDT')!)],
      ['ETH/USDT', foldBybit(topics.get('orderbook.200.ETHUSDT')!)],
    ]),
  };
}

/** coinbase level2, BTC-USD and ETH-USD (2026 capture). */
export async function coinbaseReplay(): Promise<VenueReplay> {
  const frames = readCoinbaseL2();
  const mock = await startCoinbaseMock(frames);
  const markets = marketsOption([
    spotMarket('BTC-USD', 'BTC', 'USD', 0.012),
    spotMarket('ETH-USD', 'ETH', 'USD', 0.012),
  ]);
  return {
    exchangeId: 'coinbase',
    mock,
    done: () => true,
    venues: { coinbase: { ccxt: { urls: { api: { ws: mock.ws } }, markets, options: { ws: FAST_REDIAL } } } },
    extra: {},
    expected: new Map([
      ['BTC/USD', foldCoinbase(frames, 'BTC-USD')],
      ['ETH/USD', foldCoinbase(frames, 'ETH-USD')],
    ]),
  };
}
