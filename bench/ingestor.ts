import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { EventRecord } from '@app/events';
import type { RecordSink } from '@app/log';
import { BookPublisher } from '../apps/ingestor/src/book-publisher';
import { ingestorOptions, type IngestorLogger } from '../apps/ingestor/src/options';
import { VenueRunner } from '../apps/ingestor/src/venue-runner';
import type { BenchRow } from './bench-row';

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

/** Cost of one book update at 500 levels per side: copy top levels, diff, build and encode the record. */
function benchUpdateCost(): BenchRow[] {
  let seed = 7;
  const rnd = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const bids: number[][] = [];
  const asks: number[][] = [];
  for (let i = 0; i < 520; i++) {
    bids.push([999.5 - i * 0.01, 1 + rnd()]);
    asks.push([1000.5 + i * 0.01, 1 + rnd()]);
  }
  const pub = new BookPublisher('bench', 'A/B', 1_000_000, 500);
  const step = (): void => {
    // A typical venue update: a few amounts change near the top of each side.
    for (let k = 0; k < 3; k++) bids[Math.floor(rnd() * 20)]![1] = 1 + rnd();
    asks[Math.floor(rnd() * 20)]![1] = 1 + rnd();
    const out = pub.publish(bids, asks, null, 0);
    if (out.kind === 'record') JSON.stringify(out.record);
  };
  for (let i = 0; i < 2000; i++) step();
  const n = 20_000;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) step();
  const us = Number(process.hrtime.bigint() - t0) / 1e3 / n;
  return [
    { scenario: 'ingestor', metric: 'update cost @500 levels (diff+encode)', value: us, unit: 'us/update' },
  ];
}

/**
 * CPU of the ingestor at `venues` x `symbols` x `rate` updates a second: real ccxt bybit
 * classes and VenueRunners against a local venue in a child process (its CPU is not counted).
 */
export async function benchCpu(venues = 60, symbols = 20, rate = 10, windowMs = 10_000): Promise<BenchRow[]> {
  const child = fork(join(__dirname, 'ingestor-feed.js'), [String(rate)], { stdio: 'ignore' });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (m: { port: number }) => resolve(m.port));
      child.once('error', reject);
    });
    const names = Array.from({ length: symbols }, (_, i) => `S${i}`);
    const markets = Object.fromEntries(
      names.map((b) => [
        `${b}/USDT`,
        {
          id: `${b}USDT`,
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
    const runners = Array.from({ length: venues }, (_, v) => {
      const ccxt = {
        urls: { api: { ws: { public: { spot: `ws://127.0.0.1:${port}/v5/public/spot?venue=${v}` } } } },
        markets,
      };
      const opts = ingestorOptions({
        sink,
        logger: quiet,
        venuesConfig: {
          venues: new Map([['bybit', { symbols: names.map((b) => `${b}/USDT`), ccxt, watchLimit: 200 }]]),
        },
      });
      return new VenueRunner(opts.venues[0]!, opts);
    });
    for (const r of runners) r.start();
    await new Promise((r) => setTimeout(r, 3000));
    const books0 = sink.books;
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    await new Promise((r) => setTimeout(r, windowMs));
    const cpu = process.cpuUsage(cpu0);
    const wallUs = Number(process.hrtime.bigint() - t0) / 1e3;
    const updates = ((sink.books - books0) / wallUs) * 1e6;
    await Promise.all(runners.map((r) => r.stop()));
    const label = `${venues}x${symbols}x${rate}/s`;
    return [
      {
        scenario: 'ingestor',
        metric: `cpu ${label} (target < 0.5)`,
        value: (cpu.user + cpu.system) / wallUs,
        unit: 'cores',
      },
      { scenario: 'ingestor', metric: `book records ${label}`, value: updates, unit: 'records/s' },
    ];
  } finally {
    child.kill();
  }
}

/** The ingestor's figures for `npm run bench`. */
export async function benchIngestor(): Promise<BenchRow[]> {
  return [...benchUpdateCost(), ...(await benchCpu())];
}
