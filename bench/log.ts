/**
 * Event-log benchmarks (issue 4): `log`, the embedded log's append+fold, produce-to-visible
 * latency and the rebuild of an hour of 60-venue data; `log-kafka`, Kafka fold throughput with
 * kafkajs (with `compareKafkaClients` @platformatic/kafka side by side) and produce-to-visible
 * latency, on KAFKA_BROKERS or a jar broker of the bench's own (bench/kafka-broker.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BookCache } from '@app/books';
import type { EventRecord } from '@app/events';
import { EmbeddedLog, type AppendEntry, type EventLog } from '@app/event-log';
import { createBookFeed, foldEntries } from '@app/live-feed';
import type { BenchRow } from './bench-row';
import { quantile } from './bench-row';
import { bookRecords, listingRecords, toEntries, type StreamSpec } from '@app/synth';
import { benchEmbeddedConcurrent } from './log-concurrent';
import { benchKafka } from './kafka-broker';
import { benchKafkaFold, kafkaLogForBench } from './log-kafka';
import { APPEND_FOLD_SPEC } from './log-specs';

const RECORDS = 300_000;
const KAFKA_RECORDS = 200_000;

const quiet = {
  log: () => undefined,
  warn: (m: string) => console.error(m),
  error: (m: string) => console.error(m),
};

const seconds = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e9;

/**
 * Append N book records (`levels` levels each) in batches of 5,000, then follow from 0 and fold
 * them all, in one thread: a floor for the service, where writer and feed are two processes.
 */
export async function benchEmbeddedAppendFold(records: number, levels: number): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-log-'));
  try {
    let entries: AppendEntry[] | null = toEntries([
      ...bookRecords({ ...APPEND_FOLD_SPEC, bookRecords: records, levels }),
    ]);
    const log = new EmbeddedLog({ dataDir: dir, fsync: 'interval' });
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < entries.length; i += 5000) log.appendSync('books', entries.slice(i, i + 5000));
    const appendS = seconds(t0);
    // The producer's input is not the consumer's to keep alive (it would only slow its GC).
    entries = null;
    const cache = new BookCache();
    const hwm = await log.highWatermarks('books');
    const ac = new AbortController();
    let left = hwm.reduce((a, b) => a + b, 0);
    const t1 = process.hrtime.bigint();
    for await (const batch of log.follow(
      hwm.map((_, partition) => ({ topic: 'books' as const, partition, offset: 0 })),
      { signal: ac.signal },
    )) {
      foldEntries(batch, cache, () => undefined);
      left -= batch.length;
      if (left <= 0) ac.abort();
    }
    const foldS = seconds(t1);
    await log.close();
    return [
      {
        scenario: 'log',
        metric: `embedded append (${levels} lv)`,
        value: records / appendS,
        unit: 'records/s',
      },
      {
        scenario: 'log',
        metric: `embedded read+fold (${levels} lv)`,
        value: records / foldS,
        unit: 'records/s',
      },
      {
        scenario: 'log',
        metric: `embedded append then fold (${levels} lv)`,
        value: records / (appendS + foldS),
        unit: 'records/s',
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Produce at `rate` records/s for `ms` while a feed follows; latency from append to visible in the cache. */
export async function benchLatency(
  label: string,
  log: EventLog,
  rate = 5000,
  ms = 3000,
): Promise<BenchRow[]> {
  const spec: StreamSpec = {
    venues: 5,
    symbolsPerVenue: 4,
    bookRecords: Math.ceil((rate * ms) / 1000),
    levels: 10,
    snapshotEvery: 1000,
    startAt: 1_786_000_000_000,
  };
  await log.append('venues', toEntries(listingRecords(spec)));
  const records = [...bookRecords(spec)];
  const feed = createBookFeed({ log, logger: quiet });
  await feed.start();
  const pending = new Map<string, { seq: number; at: number }[]>();
  const samples: number[] = [];
  feed.onChange((symbols) => {
    const now = performance.now();
    for (const symbol of symbols) {
      for (const ex of feed.cache.venuesListing(symbol)) {
        const q = pending.get(`${ex}|${symbol}`);
        const book = feed.cache.book(ex, symbol);
        if (q === undefined || book === undefined) continue;
        while (q.length > 0 && q[0]!.seq <= book.sequence) samples.push(now - q.shift()!.at);
      }
    }
  });
  const perTick = Math.max(1, Math.round(rate / 200));
  const start = performance.now();
  for (let i = 0; i < records.length; i += perTick) {
    const due = start + (i / rate) * 1000;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const chunk = records.slice(i, i + perTick);
    const at = performance.now();
    for (const r of chunk) {
      if (r.type !== 'book') continue;
      const k = `${r.exchangeId}|${r.symbol}`;
      let q = pending.get(k);
      if (q === undefined) pending.set(k, (q = []));
      q.push({ seq: r.sequence, at });
    }
    await log.append('books', toEntries(chunk));
  }
  const deadline = performance.now() + 10_000;
  while (samples.length < records.length && performance.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  await feed.stop();
  return [
    {
      scenario: 'log',
      metric: `${label} visible latency p50 @${rate}/s`,
      value: quantile(samples, 0.5),
      unit: 'ms',
    },
    {
      scenario: 'log',
      metric: `${label} visible latency p99 @${rate}/s`,
      value: quantile(samples, 0.99),
      unit: 'ms',
    },
    {
      scenario: 'log',
      metric: `${label} latency samples seen`,
      value: (samples.length / records.length) * 100,
      unit: '%',
    },
  ];
}

/** One hour of 60-venue data (generated, snapshots every ~30 s per book), then a cold feed start. */
export async function benchRebuildHour(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-hour-'));
  try {
    const records = 600_000;
    const spec: StreamSpec = {
      venues: 60,
      symbolsPerVenue: 5,
      bookRecords: records,
      levels: 4,
      snapshotEvery: 50,
      startAt: 1_786_000_000_000,
      stepMs: 3_600_000 / records,
    };
    const log = new EmbeddedLog({ dataDir: dir, fsync: 'never' });
    log.appendSync('venues', toEntries(listingRecords(spec)));
    let batch: EventRecord[] = [];
    for (const r of bookRecords(spec)) {
      batch.push(r);
      if (batch.length === 10_000) {
        log.appendSync('books', toEntries(batch));
        batch = [];
      }
    }
    if (batch.length > 0) log.appendSync('books', toEntries(batch));
    await log.close();
    const reader = new EmbeddedLog({ dataDir: dir });
    const t0 = process.hrtime.bigint();
    const feed = createBookFeed({ log: reader, logger: quiet });
    await feed.start();
    const s = seconds(t0);
    const applied = feed.stats.applied;
    await feed.stop();
    await reader.close();
    return [
      { scenario: 'log', metric: 'rebuild 1 h of 60 venues (embedded)', value: s * 1000, unit: 'ms' },
      { scenario: 'log', metric: 'rebuild: records folded of 600,000', value: applied, unit: 'records' },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchLog(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  // 2 levels is a typical venue delta; 10 levels matches the Kafka figures below.
  // Steady state is what is measured: a short unreported run first compiles the hot paths.
  await benchEmbeddedAppendFold(30_000, 2);
  rows.push(...(await benchEmbeddedAppendFold(RECORDS, 2)));
  rows.push(...(await benchEmbeddedAppendFold(RECORDS, 10)));
  rows.push(...(await benchEmbeddedConcurrent(RECORDS, 2)));
  rows.push(...(await benchEmbeddedConcurrent(RECORDS, 10)));
  const dir = mkdtempSync(join(tmpdir(), 'bench-lat-'));
  try {
    const log = new EmbeddedLog({ dataDir: dir });
    rows.push(...(await benchLatency('embedded', log)));
    await log.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  rows.push(...(await benchRebuildHour()));
  return rows;
}

/** `compareKafkaClients`: also fold through @platformatic/kafka (installed on demand, outside the lock file). */
export async function benchLogKafka(compareKafkaClients: boolean): Promise<BenchRow[]> {
  const kafka = await benchKafka('log-kafka');
  try {
    const rows = await benchKafkaFold(kafka.brokers, KAFKA_RECORDS, compareKafkaClients);
    const log = kafkaLogForBench(kafka.brokers);
    rows.push(...(await benchLatency('kafka', log)));
    await log.close();
    return rows;
  } finally {
    await kafka.close();
  }
}
