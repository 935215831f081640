import { Exchange as ccxtExchange, pro } from 'ccxt';
import { join } from 'node:path';
import type { EventRecord } from '@app/events';
import type { RecordSink } from '@app/event-log';
import { BookPublisher } from '@app/venues';
import type { CcxtBook } from '@app/venues';
import { ingestorOptions, type IngestorLogger } from '@app/venues';
import { touchedBand, trackBook } from '@app/venues';
import { RecordWriter, VenueRunner } from '@app/venues';
import { defaultOf } from '@app/config';
import { DEFAULT_CHECKSUM_EVERY_MS, krakenCheck, okxCheck, type IntegrityView } from '@app/venues';
import type { BenchRow } from './bench-row';
import { forkHeld } from './processes';

const quiet: IngestorLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Encodes every record as the log would (JSON text) and counts them. */
class CountingSink implements RecordSink {
  books = 0;
  bytes = 0;
  write(records: readonly EventRecord[]): Promise<void> {
    for (const r of records) {
      this.bytes += JSON.stringify(r).length;
      if (r.type === 'book') this.books++;
    }
    return Promise.resolve();
  }
}

interface BenchSide {
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

function benchUpdateCost(): BenchRow[] {
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

/** A bench feed: the local venue's protocol, and whether the ingestor's own integrity checks run. */
interface Feed {
  readonly protocol: 'bybit' | 'okx';
  readonly checks: boolean;
  /** Levels a side of the bybit feed's snapshots (its channel depth, 200, when absent). */
  readonly levels?: number;
  /** VENUES_CONFIG `checksumEveryMs` (0 = every update); the default interval when absent. */
  readonly everyMs?: number;
}

/**
 * CPU of the ingestor at `venues` x `symbols` x `rate` updates a second: real ccxt classes and
 * VenueRunners (silence timers, integrity checks, everything the Ingestor runs) against a local
 * venue in a child process (its CPU is not counted). bybit: `orderbook.200` books with a
 * contiguous update id (the ingestor checks it); okx: the 400-level `books` channel with the
 * CRC32 of the top 25 (the ingestor checks it; ccxt does not) and seqId (ccxt checks the chain).
 */
export async function benchCpu(
  venues: number,
  symbols: number,
  rate: number,
  windowMs: number,
  feed: Feed,
): Promise<BenchRow[]> {
  const script = feed.protocol === 'okx' ? 'ingestor-okx-feed.js' : 'ingestor-feed.js';
  const args = feed.levels === undefined ? [String(rate)] : [String(rate), String(feed.levels)];
  const child = forkHeld('mock venues', join(__dirname, script), args, { stdio: 'ignore' });
  const handled = countMessages(feed.protocol);
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (m: { port: number }) => resolve(m.port));
      child.once('error', reject);
    });
    const names = Array.from({ length: symbols }, (_, i) => `S${i}`);
    const id = (b: string): string => (feed.protocol === 'okx' ? `${b}-USDT` : `${b}USDT`);
    const markets = Object.fromEntries(
      names.map((b) => [
        `${b}/USDT`,
        {
          id: id(b),
          symbol: `${b}/USDT`,
          base: b,
          quote: 'USDT',
          baseId: b,
          quoteId: 'USDT',
          type: 'spot',
          spot: true,
          active: true,
          taker: 0.001,
          precision: {},
          limits: {},
        },
      ]),
    );
    const sink = new CountingSink();
    // One queue into the sink for every venue, as the Ingestor has.
    const writer = new RecordWriter({
      sink,
      logger: quiet,
      budgetBytes: defaultOf('WRITE_BUFFER_BYTES'),
      backoff: { initialMs: 200, maxMs: 5_000 },
      onLost: () => undefined,
      onRecovered: () => undefined,
    });
    const runners = Array.from({ length: venues }, (_, v) => {
      const urls =
        feed.protocol === 'okx'
          ? { api: { ws: `ws://127.0.0.1:${port}/ws/v5?venue=${v}` } }
          : { api: { ws: { public: { spot: `ws://127.0.0.1:${port}/v5/public/spot?venue=${v}` } } } };
      const opts = ingestorOptions({
        sink,
        bufferBytes: defaultOf('WRITE_BUFFER_BYTES'),
        listingRepublishMs: defaultOf('LISTING_REPUBLISH_MS'),
        logger: quiet,
        venuesConfig: {
          venues: new Map([
            [
              feed.protocol,
              {
                symbols: names.map((b) => `${b}/USDT`),
                ccxt: { urls, markets },
                watchLimit: null,
                silenceMs: null,
                checksum: feed.checks,
                checksumEveryMs: feed.everyMs ?? null,
              },
            ],
          ]),
        },
      });
      return new VenueRunner(opts.venues[0]!, opts, writer);
    });
    for (const r of runners) r.start();
    // Measured once every book is up (the 1,200 snapshots arrive behind each venue's pacing,
    // slower on a busy machine) and the catch-up after them has settled.
    const upBy = Date.now() + 90_000;
    while (runners.some((r) => r.health().goodBooks < symbols) && Date.now() < upBy)
      await new Promise((r) => setTimeout(r, 250));
    await new Promise((r) => setTimeout(r, 3000));
    const books0 = sink.books;
    const handled0 = handled.count;
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    await new Promise((r) => setTimeout(r, windowMs));
    const cpu = process.cpuUsage(cpu0);
    const wallUs = Number(process.hrtime.bigint() - t0) / 1e3;
    const updates = handled.count - handled0;
    const cpuUs = cpu.user + cpu.system;
    const faults = runners.reduce(
      (n, r) => n + r.counters.checksumFailures + r.counters.gaps + r.counters.stalls,
      0,
    );
    await Promise.all(runners.map((r) => r.stop()));
    await writer.close();
    const what = feed.protocol === 'okx' ? '400lv okx' : `${feed.levels ?? 200}lv bybit`;
    // Only okx's check is sampled (a checksum over the book); bybit's update-id check sees every message.
    const every =
      feed.protocol !== 'okx'
        ? ''
        : feed.everyMs === undefined
          ? ` every ${DEFAULT_CHECKSUM_EVERY_MS} ms (default)`
          : ` every ${feed.everyMs} ms`;
    const label = `${venues}x${symbols}x${rate}/s ${what}, checks ${feed.checks ? `on${every}` : 'off'}`;
    if (faults > 0)
      throw new Error(
        `ingestor bench: ${faults} checksum failures, gaps or stalls on a clean feed (${label})`,
      );
    if (updates === 0) throw new Error(`ingestor bench: no update handled (${label})`);
    // On a busy machine the local venue (another process) may fall behind its 12,000 updates a
    // second; the figure is the ingestor's CPU per update handled, at the full offered rate.
    const offered = venues * symbols * rate;
    return [
      {
        scenario: 'ingestor',
        metric: `cpu ${label} (target < 0.5)`,
        value: ((cpuUs / updates) * offered) / 1e6,
        unit: 'cores',
      },
      { scenario: 'ingestor', metric: `cpu per update ${label}`, value: cpuUs / updates, unit: 'us/update' },
      {
        scenario: 'ingestor',
        metric: `updates handled ${label}`,
        value: (updates / wallUs) * 1e6,
        unit: 'updates/s',
      },
      {
        scenario: 'ingestor',
        metric: `book records ${label}`,
        value: ((sink.books - books0) / wallUs) * 1e6,
        unit: 'records/s',
      },
    ];
  } finally {
    handled.restore();
    child.kill();
  }
}

/** Counts the messages a ccxt class handles (every instance), until restored. */
function countMessages(id: 'bybit' | 'okx'): { count: number; restore(): void } {
  const proto = (
    pro as unknown as Record<
      string,
      { prototype: { handleMessage: (this: unknown, c: unknown, m: unknown) => unknown } }
    >
  )[id]!.prototype;
  const original = proto.handleMessage;
  const counter = {
    count: 0,
    restore: () => {
      proto.handleMessage = original;
    },
  };
  proto.handleMessage = function (this: unknown, c: unknown, m: unknown): unknown {
    counter.count++;
    return original.call(this, c, m);
  };
  return counter;
}

/**
 * What the integrity checks and silence timers cost per book update, timed alone (checksums verified
 * on every update, interval 0, so the figure is the cost of one verification; and OKX's between
 * two verifications of its sampling): the OKX check
 * (strings kept per level, the top 25 printed, CRC32) on updates of three levels to a real
 * 400-level ccxt book, the Kraken check (the top 10 printed at the pair's precision, CRC32), and
 * the silence timer: a clock read per update plus a runner's scan of its books every second,
 * spread over the 10 updates a second each book gets.
 */
function benchCheckCost(): BenchRow[] {
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

/** The ingestor's figures for `npm run bench`. */
export async function benchIngestor(): Promise<BenchRow[]> {
  return [
    ...benchUpdateCost(),
    ...benchCheckCost(),
    // Checks off first: the first of these runs also pays the process's warm-up (heap growth).
    ...(await benchCpu(60, 20, 10, 10_000, { protocol: 'okx', checks: false })),
    ...(await benchCpu(60, 20, 10, 10_000, { protocol: 'okx', checks: true })),
    ...(await benchCpu(60, 20, 10, 10_000, { protocol: 'okx', checks: true, everyMs: 0 })),
    ...(await benchCpu(60, 20, 10, 10_000, { protocol: 'bybit', checks: true })),
  ];
}
