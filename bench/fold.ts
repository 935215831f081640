import { dirname, join } from 'node:path';
import { OrderBook } from '@app/books';
import type { BookRecord, Level } from '@app/events';
import type { BenchRow } from './bench-row';
import { prng, sideLevels } from './market-gen';

interface CcxtSide {
  store(price: number, amount: number): void;
}
interface CcxtBook {
  bids: CcxtSide;
  asks: CcxtSide;
}
type CcxtBookCtor = new (snapshot: { bids: Level[]; asks: Level[] }) => CcxtBook;

/** ccxt's own OrderBook (the class watchOrderBook maintains), loaded from the installed package. */
function ccxtOrderBook(): CcxtBookCtor {
  // The package's exports map hides the file, so resolve it next to the CJS bundle.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(join(dirname(require.resolve('ccxt')), 'cjs/src/base/ws/OrderBook.js')) as {
    OrderBook: CcxtBookCtor;
  };
  return mod.OrderBook;
}

/** A realistic delta stream on a book of `levels` per side: mostly size changes near the top, some inserts and removals. */
function deltaStream(levels: number, count: number): { snapshot: BookRecord; deltas: BookRecord[] } {
  const rand = prng(7);
  const mid = 65_000;
  const tick = 0.1;
  const bids = sideLevels(rand, mid, tick, 0.05, levels, -1);
  const asks = sideLevels(rand, mid, tick, 0.05, levels, 1);
  const base = {
    v: 1 as const,
    type: 'book' as const,
    exchangeId: 'x',
    symbol: 'BTC/USDT',
    exchangeTimestamp: null,
    receivedAt: 0,
  };
  const snapshot: BookRecord = { ...base, snapshot: true, bids, asks, sequence: 0 };
  const deltas: BookRecord[] = [];
  const span = levels * 2.5 * tick;
  for (let s = 1; s <= count; s++) {
    const changes = 1 + Math.floor(rand() * 3);
    const b: Level[] = [];
    const a: Level[] = [];
    for (let c = 0; c < changes; c++) {
      // Depth of the touched price: skewed toward the top of the book like real feeds.
      const depth = Math.floor((Math.pow(rand(), 3) * span) / tick) * tick;
      const remove = rand() < 0.3;
      const amount = remove ? 0 : +(0.01 + rand()).toFixed(4);
      if (rand() < 0.5) b.push([+(mid - tick - depth).toFixed(1), amount]);
      else a.push([+(mid + tick + depth).toFixed(1), amount]);
    }
    deltas.push({ ...base, snapshot: false, bids: b, asks: a, sequence: s });
  }
  return { snapshot, deltas };
}

/**
 * Apply `deltas` to both books chunk by chunk, timing each side separately and alternating which
 * goes first. A live fold applies a record right after parsing it, while it is still in cache;
 * chunks of 256 records (a feed batch) keep both sides in that regime instead of measuring memory
 * latency on 200,000 cold records (which dominated both figures and hid the books' own cost).
 */
function runBoth(
  Ctor: CcxtBookCtor,
  snapshot: BookRecord,
  deltas: BookRecord[],
): { ours: number; theirs: number } {
  const ours = new OrderBook('x', 'BTC/USDT');
  ours.apply(snapshot);
  const theirs = new Ctor({
    bids: snapshot.bids.map((l) => [l[0], l[1]]),
    asks: snapshot.asks.map((l) => [l[0], l[1]]),
  });
  const CHUNK = 256;
  let tOurs = 0n;
  let tTheirs = 0n;
  let touched = 0;
  for (let start = 0, k = 0; start < deltas.length; start += CHUNK, k++) {
    const end = Math.min(deltas.length, start + CHUNK);
    // Untimed pass: bring the chunk's records into cache as a parser would have just left them.
    for (let i = start; i < end; i++) {
      const d = deltas[i]!;
      for (const l of d.bids) touched += l[0] + l[1];
      for (const l of d.asks) touched += l[0] + l[1];
    }
    const runOurs = (): void => {
      const t0 = process.hrtime.bigint();
      for (let i = start; i < end; i++) ours.apply(deltas[i]!);
      tOurs += process.hrtime.bigint() - t0;
    };
    const runTheirs = (): void => {
      const t0 = process.hrtime.bigint();
      for (let i = start; i < end; i++) {
        const d = deltas[i]!;
        for (const [p, q] of d.bids) theirs.bids.store(p, q);
        for (const [p, q] of d.asks) theirs.asks.store(p, q);
      }
      tTheirs += process.hrtime.bigint() - t0;
    };
    if (k % 2 === 0) {
      runOurs();
      runTheirs();
    } else {
      runTheirs();
      runOurs();
    }
  }
  if (ours.bids.count === 0 || !ours.inSync || touched === 0)
    throw new Error('fold bench: our book did not follow the stream');
  return { ours: Number(tOurs) / 1e9, theirs: Number(tTheirs) / 1e9 };
}

/** Scenario `fold`: one delta stream applied to this project's book and ccxt's, side by side. */
export function benchFold(): BenchRow[] {
  const Ctor = ccxtOrderBook();
  const rows: BenchRow[] = [];
  for (const levels of [1000, 5000]) {
    const count = 200_000;
    const { snapshot, deltas } = deltaStream(levels, count);
    const updates = deltas.reduce((n, d) => n + d.bids.length + d.asks.length, 0);
    // Warm both up, then take the best of three runs.
    runBoth(Ctor, snapshot, deltas.slice(0, 20_000));
    let ours = Infinity;
    let theirs = Infinity;
    for (let i = 0; i < 3; i++) {
      const t = runBoth(Ctor, snapshot, deltas);
      ours = Math.min(ours, t.ours);
      theirs = Math.min(theirs, t.theirs);
    }
    rows.push({ scenario: 'fold', metric: `ours_${levels}_levels`, value: count / ours, unit: 'records/s' });
    rows.push({
      scenario: 'fold',
      metric: `ccxt_${levels}_levels`,
      value: count / theirs,
      unit: 'records/s',
    });
    rows.push({
      scenario: 'fold',
      metric: `ours_${levels}_levels_level_updates`,
      value: updates / ours,
      unit: 'updates/s',
    });
    rows.push({ scenario: 'fold', metric: `speedup_${levels}_levels`, value: theirs / ours, unit: 'x' });
  }
  return rows;
}
