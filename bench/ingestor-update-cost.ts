import { Exchange as ccxtExchange } from 'ccxt';
import { BookPublisher, touchedBand, trackBook, type CcxtBook } from '@app/venues';
import type { BenchRow } from './bench-row';

/** A side of a real ccxt book, changed through its own storeArray as ccxt's handlers do. */
export interface BenchSide {
  storeArray(delta: number[]): void;
}

/**
 * Cost of one book update at 500 levels per side: diff against what was published, build and
 * encode the record. The book is a real ccxt book changed through its own storeArray (a few
 * amounts near the top of each side, as a typical venue update); ccxt's own cost is not timed.
 * `banded`: the changed-price band the ingestor taps from ccxt (side-tracker.ts); otherwise the
 * whole 500-level window is diffed (the path for books whose changes cannot be banded).
 */
function updateCost(banded: boolean): number {
  let seed = 7;
  const rnd = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const factory = ccxtExchange.prototype as unknown as Record<string, (s: object) => CcxtBook>;
  const book = factory.orderBook!({});
  const bids = book.bids as unknown as BenchSide;
  const asks = book.asks as unknown as BenchSide;
  for (let i = 0; i < 520; i++) {
    bids.storeArray([Math.round((999.5 - i * 0.01) * 100) / 100, 1 + rnd()]);
    asks.storeArray([Math.round((1000.5 + i * 0.01) * 100) / 100, 1 + rnd()]);
  }
  if (banded) trackBook(book);
  const bidBand = banded ? touchedBand(book.bids) : undefined;
  const askBand = banded ? touchedBand(book.asks) : undefined;
  const pub = new BookPublisher('bench', 'A/B', 1_000_000, 500);
  let timed = 0n;
  const step = (): void => {
    for (let k = 0; k < 3; k++) bids.storeArray([book.bids[Math.floor(rnd() * 20)]![0]!, 1 + rnd()]);
    asks.storeArray([book.asks[Math.floor(rnd() * 20)]![0]!, 1 + rnd()]);
    const t0 = process.hrtime.bigint();
    const out = pub.publish(book.bids, book.asks, null, 0, bidBand, askBand);
    if (out.kind === 'record') JSON.stringify(out.record);
    timed += process.hrtime.bigint() - t0;
  };
  for (let i = 0; i < 2000; i++) step();
  timed = 0n;
  const n = 20_000;
  for (let i = 0; i < n; i++) step();
  return Number(timed) / 1e3 / n;
}

/** The publisher's cost per book update, banded and whole-window, timed in this process. */
export function benchUpdateCost(): BenchRow[] {
  return [
    {
      scenario: 'ingestor',
      metric: 'update cost @500 levels (diff+encode)',
      value: updateCost(true),
      unit: 'us/update',
    },
    {
      scenario: 'ingestor',
      metric: 'update cost @500 levels, whole-window diff',
      value: updateCost(false),
      unit: 'us/update',
    },
  ];
}
