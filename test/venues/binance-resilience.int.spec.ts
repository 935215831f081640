import { BookCache } from '@app/books';
import { afterEach, describe, expect, it } from 'vitest';
import { BinanceMock, foldBinanceCapture, readBinanceCapture, type BinanceCapture } from './binance-mock';
import { CAPTURES_PRESENT } from './captures';
import { binanceCcxt, startIngestor } from './ingest-harness';
import { waitFor, type MemorySink } from './memory-sink';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const NKN = 'NKN/USDT';

async function setup(
  configure: (mock: BinanceMock, capture: BinanceCapture) => void,
  paceMs = 4,
  extraVenues: Record<string, unknown> = {},
) {
  const capture = readBinanceCapture();
  const mock = new BinanceMock(capture, paceMs);
  configure(mock, capture);
  await mock.start();
  const run = startIngestor({
    binance: { symbols: [NKN], ccxt: binanceCcxt(mock.http, mock.ws) },
    ...extraVenues,
  });
  cleanups.push(
    () => mock.close(),
    () => run.ingestor.stop(),
  );
  return { capture, mock, ...run };
}

async function settle(mock: BinanceMock, sink: MemorySink): Promise<void> {
  await waitFor('the replay to finish', () => mock.done);
  await waitFor('the ingestor to go quiet', () => Date.now() - sink.lastWriteAt > 400);
}

function expectCaptureBook(sink: MemorySink, capture: BinanceCapture): void {
  const got = sink.levels('binance', NKN);
  expect(got?.inSync).toBe(true);
  expect({ bids: got?.bids, asks: got?.asks }).toEqual(foldBinanceCapture(capture).get('NKNUSDT')!.top(500));
}

const nknIndices = (capture: BinanceCapture): number[] =>
  capture.deltas.flatMap((d, i) => (d.id === 'NKNUSDT' && d.u > 499869752 ? [i] : []));

describe.skipIf(!CAPTURES_PRESENT)('binance resilience (real ccxt, mock venue, 2021 capture)', () => {
  it('a lost diff (U/u gap) leads to a new subscription, a new snapshot record and the correct book', async () => {
    const { mock, sink, capture, ingestor } = await setup((m, c) => {
      const idx = nknIndices(c);
      m.dropIndex = idx[Math.floor(idx.length / 2)]!;
    });
    await settle(mock, sink);
    expect(mock.subscribeCount).toBeGreaterThanOrEqual(2);
    const books = sink.books('binance', NKN);
    expect(books.filter((b) => b.snapshot).length).toBeGreaterThanOrEqual(2);
    expect(books.map((b) => b.sequence)).toEqual(books.map((_, i) => i + 1));
    // One book's gap resyncs that book: counted, and the venue never shows down for it.
    expect(ingestor.health()[0]!.counters.gaps).toBeGreaterThanOrEqual(1);
    expect(sink.venues('binance').map((v) => v.connected)).toEqual([false, true]);
    expectCaptureBook(sink, capture);
  });

  it('a dropped connection toggles connected, counts a reconnect and recovers the book', async () => {
    const { mock, sink, capture } = await setup(() => undefined, 6);
    await waitFor('a first book', () => sink.books('binance', NKN).length > 3);
    mock.dropAll();
    await settle(mock, sink);
    const states = sink.venues('binance').map((v) => [v.connected, v.reconnectCount]);
    expect(states).toEqual([
      [false, 0],
      [true, 0],
      [false, 1],
      [true, 1],
    ]);
    expect(sink.venues('binance')[2]!.lastError).toContain('NetworkError');
    expect(sink.books('binance', NKN).filter((b) => b.snapshot).length).toBe(2);
    expectCaptureBook(sink, capture);
  });

  it('a crossed book is never published: it is withheld, re-subscribed and replaced by a fresh snapshot', async () => {
    const { mock, sink, capture, ingestor } = await setup((m, c) => {
      const last = c.deltas[nknIndices(c).at(-1)!]!;
      const snap = JSON.parse(c.snapshots.get('NKNUSDT')!) as { asks: [string, string][] };
      // A corrupt diff: delivered to the client but not part of the venue's true book.
      const bid = (Number(snap.asks[0]![0]) + 0.01).toFixed(8);
      const data = {
        e: 'depthUpdate',
        E: 1633998600000,
        s: 'NKNUSDT',
        U: last.u + 1,
        u: last.u + 1,
        b: [[bid, '1.00000000']],
        a: [],
      };
      m.corruptFrames.push({
        id: 'NKNUSDT',
        frame: JSON.stringify({ stream: 'nknusdt@depth@100ms', data }),
        U: data.U,
        u: data.u,
        b: data.b as [string, string][],
        a: [],
      });
    });
    await settle(mock, sink);
    const replay = new BookCache();
    for (const r of sink.books('binance', NKN)) {
      replay.apply(r);
      expect(replay.book('binance', NKN)!.crossed).toBe(false);
    }
    const { counters } = ingestor.health()[0]!;
    expect(counters.badBooks).toBeGreaterThanOrEqual(1);
    expect(counters.bookResyncs + counters.connectionResyncs).toBeGreaterThanOrEqual(1);
    expect(mock.subscribeCount).toBeGreaterThanOrEqual(2);
    expectCaptureBook(sink, capture);
  });

  it('one venue failing (down at start) does not stop the others', async () => {
    const down = {
      urls: { api: { public: 'http://127.0.0.1:9/0/public', ws: { publicV2: 'ws://127.0.0.1:9/v2' } } },
    };
    const { mock, sink, capture } = await setup(() => undefined, 2, {
      kraken: { symbols: ['BTC/USD'], ccxt: down },
    });
    await settle(mock, sink);
    expectCaptureBook(sink, capture);
    const kraken = sink.venues('kraken');
    expect(kraken.length).toBeGreaterThanOrEqual(1);
    expect(kraken.every((v) => !v.connected)).toBe(true);
    expect(kraken[0]!.lastError).toContain('loading markets failed');
  });
});
