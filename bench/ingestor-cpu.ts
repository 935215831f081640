import { pro } from 'ccxt';
import { join } from 'node:path';
import type { EventRecord } from '@app/events';
import type { RecordSink } from '@app/event-log';
import { ingestorOptions, type IngestorLogger } from '@app/venues';
import { RecordWriter, VenueRunner } from '@app/venues';
import { defaultOf } from '@app/config';
import { DEFAULT_CHECKSUM_EVERY_MS } from '@app/venues';
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

/** A bench feed: the local venue's protocol, and whether the ingestor's own integrity checks run. */
export interface Feed {
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
