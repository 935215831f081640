import { foldGate, gateBand, readGateCapture, startGateMock } from './gateeu-mock';
import { FAST_REDIAL } from './ingest-harness';
import { marketsOption, spotMarket } from './offline-markets';
import { books, type CaptureProof, type Proof } from './proof-kit';

/**
 * Venues whose capture differs from what the pinned ccxt class speaks: the capture's content is
 * reshaped to today's protocol (each says what) and fed through the real class and the Ingestor,
 * checked against an independent fold of the capture. Parser input, not proof on real traffic
 * (docs/venues.md "Proof on real traffic", translated frames column).
 */

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

export const TRANSLATED_VENUES: readonly CaptureProof[] = [
  {
    exchangeId: 'gateeu',
    capture: 'GATEIO.* (2021-04-22), Gate.io traffic',
    translated:
      'REST snapshot: `current` (its time) added; the 2021 answer has none and ccxt refuses one without',
    start: gateeu,
  },
];
