import { foldBitget, readBitgetBooks, startBitgetMock } from './bitget-mock';
import { foldGate, gateBand, readGateCapture, startGateMock } from './gateeu-mock';
import { foldHitbtc, readHitbtcBooks, startHitbtcMock } from './hitbtc-mock';
import { FAST_REDIAL } from './ingest-harness';
import { marketsOption, spotMarket } from './offline-markets';
import { books, type CaptureProof, type Proof } from './proof-kit';
import { foldUpbit, readUpbitBooks, startUpbitMock } from './upbit-mock';

/**
 * gateeu: spot.order_book_update plus REST snapshots, served with Gate.io's 2021 traffic (Gate EU
 * runs the same API; ccxt speaks this channel only for gateeu). watchLimit 100 asks for the
 * recorded snapshot's depth; books compared inside its band. DIS_USDT is left out: its snapshot
 * is exactly one update older than its first update, which ccxt's gate getCacheIndex refuses
 * (`nonce < U` where U - 1 is in sync), three tries, then the venue's socket is dropped.
 */
async function gateeu(): Promise<Proof> {
  const capture = readGateCapture();
  const mock = await startGateMock(capture);
  const ids: Record<string, [string, string]> = {
    OMG_USDT: ['OMG', 'USDT'],
    NEO_BTC: ['NEO', 'BTC'],
    FAST_USDT: ['FAST', 'USDT'],
    ZKS_ETH: ['ZKS', 'ETH'],
  };
  return {
    exchangeId: 'gateeu',
    mock,
    venues: {
      gateeu: {
        symbols: Object.values(ids).map(([b, q]) => `${b}/${q}`),
        watchLimit: 100,
        ccxt: {
          // ccxt tells Gate EU's socket from gate.io's by 'gateeu' in the URL.
          urls: { api: { spot: `${mock.ws}/gateeu/ws/v4/`, public: { spot: `${mock.http}/api/v4` } } },
          // ccxt gateeu's own pace, not the budget's 50 ms the venue rules give it: this replay is
          // finite (the recorded updates sent back to back), and at 50 ms a call the last book
          // saw no delta within the wait (found, not investigated further; a live venue keeps
          // sending). The proof is about frame shapes and the fold, not pacing.
          rateLimit: 20,
          markets: marketsOption(Object.entries(ids).map(([id, [b, q]]) => spotMarket(id, b, q, 0.002))),
          options: { ws: FAST_REDIAL },
        },
      },
    },
    extra: {},
    books: books(
      Object.entries(ids).map(([id, [b, q]]) => [
        `${b}/${q}`,
        // ccxt folds the first 10 updates into the snapshot (snapshotDelay): ZKS_ETH has 12 in all.
        { fold: foldGate(capture, id), band: gateBand(capture, id), minDeltas: id === 'ZKS_ETH' ? 0 : 1 },
      ]),
    ),
  };
}

/** upbit `orderbook` (15 levels, each frame the whole top), KRW-LAMB, KRW-WAVES and BTC-XTZ. */
async function upbit(): Promise<Proof> {
  const frames = readUpbitBooks();
  const mock = await startUpbitMock(frames);
  const ids: Record<string, [string, string]> = {
    'KRW-LAMB': ['LAMB', 'KRW'],
    'KRW-WAVES': ['WAVES', 'KRW'],
    'BTC-XTZ': ['XTZ', 'BTC'],
  };
  return {
    exchangeId: 'upbit',
    mock,
    venues: {
      upbit: {
        symbols: Object.values(ids).map(([b, q]) => `${b}/${q}`),
        ccxt: {
          urls: { api: { ws: `${mock.ws}/websocket/v1` } },
          markets: marketsOption(Object.entries(ids).map(([id, [b, q]]) => spotMarket(id, b, q, 0.0025))),
          options: { ws: FAST_REDIAL },
        },
      },
    },
    extra: {},
    books: books(
      Object.entries(ids).map(([id, [b, q]]) => [
        `${b}/${q}`,
        { fold: foldUpbit(frames.get(id)!), minDeltas: 3 },
      ]),
    ),
  };
}

/** hitbtc `orderbook/full` (API v3), GRT/BTC, VET/BTC and EURS/USD from the v2 capture. */
async function hitbtc(): Promise<Proof> {
  const frames = readHitbtcBooks();
  const mock = await startHitbtcMock(frames);
  const ids: Record<string, [string, string]> = {
    GRTBTC: ['GRT', 'BTC'],
    VETBTC: ['VET', 'BTC'],
    EURSUSD: ['EURS', 'USD'],
  };
  return {
    exchangeId: 'hitbtc',
    mock,
    venues: {
      hitbtc: {
        symbols: Object.values(ids).map(([b, q]) => `${b}/${q}`),
        ccxt: {
          urls: { api: { ws: { public: `${mock.ws}/api/3/ws/public` } } },
          markets: marketsOption(Object.entries(ids).map(([id, [b, q]]) => spotMarket(id, b, q, 0.0025))),
          options: { ws: FAST_REDIAL },
        },
      },
    },
    extra: {},
    books: books(
      Object.entries(ids).map(([id, [b, q]]) => [
        `${b}/${q}`,
        { fold: foldHitbtc(frames.get(id)!), minDeltas: 5 },
      ]),
    ),
  };
}

/** bitget `books` (API v2) with checksums, EOS, AVAX and STG against USDT from the v1 capture. */
async function bitget(): Promise<Proof> {
  const frames = readBitgetBooks();
  const mock = await startBitgetMock(frames);
  const bases = ['EOS', 'AVAX', 'STG'];
  return {
    exchangeId: 'bitget',
    mock,
    venues: {
      bitget: {
        symbols: bases.map((b) => `${b}/USDT`),
        ccxt: {
          urls: { api: { ws: { public: `${mock.ws}/v2/ws/public` } } },
          markets: marketsOption(bases.map((b) => spotMarket(`${b}USDT`, b, 'USDT'))),
          options: { ws: FAST_REDIAL },
        },
      },
    },
    extra: {},
    books: books(
      bases.map((b) => [`${b}/USDT`, { fold: foldBitget(frames.get(`${b}USDT`)!), minDeltas: 5 }]),
    ),
  };
}

/**
 * Venues whose capture differs from what the pinned ccxt class speaks: the capture's content is
 * reshaped to today's protocol (each says what) and fed through the real class and the Ingestor,
 * checked against an independent fold of the capture. Parser input, not proof on real traffic
 * (docs/venues.md "Proof on real traffic", translated frames column).
 */
export const TRANSLATED_VENUES: readonly CaptureProof[] = [
  {
    exchangeId: 'gateeu',
    capture: 'GATEIO.* (2021-04-22), Gate.io traffic',
    translated:
      'REST snapshot: `current` (its time) added; the 2021 answer has none and ccxt refuses one without',
    start: gateeu,
  },
  {
    exchangeId: 'upbit',
    capture: 'UPBIT.ws.62.0 (2021-04-17)',
    translated: 'SIMPLE format keys spelled out (DEFAULT format); the first frame of a code marked SNAPSHOT',
    start: upbit,
  },
  {
    exchangeId: 'hitbtc',
    capture: 'HITBTC.ws.1.0 (2021-07-15)',
    translated: 'API v2 snapshotOrderbook/updateOrderbook re-enveloped as v3 orderbook/full',
    start: hitbtc,
  },
  {
    exchangeId: 'bitget',
    capture: 'BITGET.ws.1.0 (2022-04-07)',
    translated: 'API v1 frames re-enveloped as v2 (instType sp to SPOT, top-level ts); checksums as recorded',
    start: bitget,
  },
];
