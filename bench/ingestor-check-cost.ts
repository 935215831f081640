import { Exchange as ccxtExchange } from 'ccxt';
import { krakenCheck, okxCheck, type CcxtBook, type IntegrityView } from '@app/venues';
import type { BenchRow } from './bench-row';
import type { BenchSide } from './ingestor-update-cost';

/**
 * What the integrity checks and silence timers cost per book update, timed alone (checksums verified
 * on every update, interval 0, so the figure is the cost of one verification; and OKX's between
 * two verifications of its sampling): the OKX check
 * (strings kept per level, the top 25 printed, CRC32) on updates of three levels to a real
 * 400-level ccxt book, the Kraken check (the top 10 printed at the pair's precision, CRC32), and
 * the silence timer: a clock read per update plus a runner's scan of its books every second,
 * spread over the 10 updates a second each book gets.
 */
export function benchCheckCost(): BenchRow[] {
  let seed = 11;
  const rnd = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const factory = ccxtExchange.prototype as unknown as Record<string, (s: object) => CcxtBook>;
  const book = factory.orderBook!({});
  const bids = book.bids as unknown as BenchSide;
  const asks = book.asks as unknown as BenchSide;
  const rows = (side: 'b' | 'a', n: number, from: number): string[][] =>
    Array.from({ length: n }, (_, i) => [
      String(
        Number((side === 'b' ? 1000 - 0.5 - (from + i) * 0.01 : 1000 + 0.5 + (from + i) * 0.01).toFixed(2)),
      ),
      String(Number((1 + rnd() * 5).toFixed(4))),
      '0',
      '1',
    ]);
  const snapBids = rows('b', 400, 0);
  const snapAsks = rows('a', 400, 0);
  for (const r of snapBids) bids.storeArray([Number(r[0]), Number(r[1])]);
  for (const r of snapAsks) asks.storeArray([Number(r[0]), Number(r[1])]);
  const view: IntegrityView = {
    orderbooks: { 'BTC/USDT': book },
    symbolOf: () => 'BTC/USDT',
    decimalsOf: () => ({ price: 2, amount: 4 }),
  };
  const client = {};
  // Every update verified (interval 0): the cost of one verification. And sampled with an interval
  // no update reaches: what each update costs between verifications.
  const okx = okxCheck({ everyMs: 0 });
  const okxIdle = okxCheck({ everyMs: 3_600_000 });
  for (const check of [okx, okxIdle])
    check.after(
      {
        arg: { channel: 'books', instId: 'BTC-USDT' },
        action: 'snapshot',
        data: [{ bids: snapBids, asks: snapAsks, checksum: 0, seqId: 1, prevSeqId: -1 }],
      },
      client,
      view,
    );
  const kraken = krakenCheck({ everyMs: 0 });
  const n = 20_000;
  let okxNs = 0n;
  let okxIdleNs = 0n;
  let krakenNs = 0n;
  for (let i = 0; i < n; i++) {
    const b = [rows('b', 1, Math.floor(rnd() * 40))[0]!, rows('b', 1, Math.floor(rnd() * 40))[0]!];
    const a = [rows('a', 1, Math.floor(rnd() * 40))[0]!];
    for (const r of b) bids.storeArray([Number(r[0]), Number(r[1])]);
    for (const r of a) asks.storeArray([Number(r[0]), Number(r[1])]);
    const m = {
      arg: { channel: 'books', instId: 'BTC-USDT' },
      action: 'update',
      data: [{ bids: b, asks: a, checksum: 1, seqId: i + 2, prevSeqId: i + 1 }],
    };
    let t = process.hrtime.bigint();
    okx.after(m, client, view);
    okxNs += process.hrtime.bigint() - t;
    t = process.hrtime.bigint();
    okxIdle.after(m, client, view);
    okxIdleNs += process.hrtime.bigint() - t;
    const km = {
      channel: 'book',
      type: 'update',
      data: [{ symbol: 'BTC/USDT', bids: [], asks: [], checksum: 1 }],
    };
    t = process.hrtime.bigint();
    kraken.after(km, client, view);
    krakenNs += process.hrtime.bigint() - t;
  }
  // The silence timer: one clock read per update, and every second a scan of the runner's books.
  const slots = Array.from({ length: 20 }, () => ({
    heardAt: performance.now(),
    good: true,
    resyncSince: null as number | null,
  }));
  let t = process.hrtime.bigint();
  let sink = 0;
  for (let i = 0; i < n; i++) sink += performance.now();
  const clockNs = Number(process.hrtime.bigint() - t) / n;
  t = process.hrtime.bigint();
  for (let k = 0; k < n; k++) {
    const now = performance.now();
    for (const s of slots)
      if (now - s.heardAt >= (s.good ? 60_000 : 120_000) && s.resyncSince === null) sink++;
  }
  const scanNs = Number(process.hrtime.bigint() - t) / n;
  if (sink < 0) throw new Error('unreachable');
  // A scan a second covers 20 books x 10 updates a second: 200 updates.
  const silenceNs = clockNs + scanNs / 200;
  return [
    {
      scenario: 'ingestor',
      metric: 'okx checksum check per update (400 lv, top 25)',
      value: Number(okxNs) / 1e3 / n,
      unit: 'us/update',
    },
    {
      scenario: 'ingestor',
      metric: 'okx check per update between verifications (sampled)',
      value: Number(okxIdleNs) / 1e3 / n,
      unit: 'us/update',
    },
    {
      scenario: 'ingestor',
      metric: 'kraken checksum check per update (top 10)',
      value: Number(krakenNs) / 1e3 / n,
      unit: 'us/update',
    },
    {
      scenario: 'ingestor',
      metric: 'silence timer per update (clock read + scan share)',
      value: silenceNs / 1e3,
      unit: 'us/update',
    },
  ];
}
