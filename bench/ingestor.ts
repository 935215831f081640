import { Exchange as ccxtExchange } from 'ccxt';
import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { EventRecord } from '@app/events';
import type { RecordSink } from '@app/log';
import { BookPublisher } from '@app/venues';
import type { CcxtBook } from '@app/venues';
import { ingestorOptions, type IngestorLogger } from '@app/venues';
import { touchedBand, trackBook } from '@app/venues';
import { DEFAULT_BUFFER_BYTES, RecordWriter, VenueRunner } from '@app/venues';
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

/**
 * CPU of the ingestor at `venues` x `symbols` x `rate` updates a second: real ccxt bybit
 * classes and VenueRunners against a local venue in a child process (its CPU is not counted).
 * The books have the subscribed channel's depth (200 levels a side, as Bybit sends), or
 * `levels` when given (500 on the 200 channel was this bench's first, heavier feed).
 */
export async function benchCpu(
  venues = 60,
  symbols = 20,
  rate = 10,
  windowMs = 10_000,
  levels?: number,
): Promise<BenchRow[]> {
  const args = levels === undefined ? [String(rate)] : [String(rate), String(levels)];
  const child = fork(join(__dirname, 'ingestor-feed.js'), args, { stdio: 'ignore' });
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
    // One queue into the sink for every venue, as the Ingestor has.
    const writer = new RecordWriter({
      sink,
      logger: quiet,
      budgetBytes: DEFAULT_BUFFER_BYTES,
      backoff: { initialMs: 200, maxMs: 5_000 },
      onLost: () => undefined,
      onRecovered: () => undefined,
    });
    const runners = Array.from({ length: venues }, (_, v) => {
      const ccxt = {
        urls: { api: { ws: { public: { spot: `ws://127.0.0.1:${port}/v5/public/spot?venue=${v}` } } } },
        markets,
      };
      const opts = ingestorOptions({
        sink,
        logger: quiet,
        venuesConfig: {
          venues: new Map([
            [
              'bybit',
              {
                symbols: names.map((b) => `${b}/USDT`),
                ccxt,
                watchLimit: 200,
                silenceMs: null,
                checksum: null,
              },
            ],
          ]),
        },
      });
      return new VenueRunner(opts.venues[0]!, opts, writer);
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
    await writer.close();
    const label = `${venues}x${symbols}x${rate}/s ${levels ?? 200}lv`;
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
  return [...benchUpdateCost(), ...(await benchCpu()), ...(await benchCpu(60, 20, 10, 10_000, 500))];
}
