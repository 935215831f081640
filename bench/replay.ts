import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BookCache } from '@app/books';
import type { EventRecord } from '@app/events';
import { EmbeddedLog, logSink } from '@app/event-log';
import { ROUTE_DEFAULTS } from '@app/request';
import { SERVER_DEFAULTS } from '@app/config';
import { solve, type RouteRequest } from '@app/routing';
import { QuoteJournal } from '@app/audit';
import { InstantFold, fileSource } from '@app/history';
import { runBacktest } from '../apps/replay/src/backtest/run-backtest';
import { parseSchedule } from '../apps/replay/src/backtest/schedule';
import { generateMarket } from '@app/synth';
import { findQuote } from '@app/audit';
import { replayQuote } from '@app/audit';
import { quantile, type BenchRow } from './bench-row';

const START = 1_786_300_000_000;

const REQUEST: Omit<RouteRequest, 'requestId'> = {
  ...ROUTE_DEFAULTS,
  from: 'ETH',
  to: 'USDT',
  amount: 50,
  strategy: 'split_optimal',
  bridges: ['USDC', 'BTC'],
  hopPenaltyBps: 5,
};

interface Built {
  readonly dir: string;
  readonly records: number;
  readonly requestIds: string[];
}

/** Write `minutes` of 60-venue market data into a fresh embedded log and journal a quote every `every` records. */
async function buildLog(minutes: number, quoteAt: readonly number[], keep?: EventRecord[]): Promise<Built> {
  const dir = mkdtempSync(join(tmpdir(), `bench-replay-${minutes}m-`));
  const log = new EmbeddedLog({ dataDir: dir, fsync: 'never' });
  const sink = logSink(log);
  const journal = new QuoteJournal({
    log,
    routing: SERVER_DEFAULTS.routing,
    mode: 'strict',
    maxQueuedBytes: SERVER_DEFAULTS.journalQueueBytes,
  });
  const cache = new BookCache();
  const positions = { books: [] as number[], venues: [] as number[] };
  let batch: EventRecord[] = [];
  let count = 0;
  const requestIds: string[] = [];
  const end = START + minutes * 60_000;
  const marks = quoteAt.map((f) => START + Math.floor(f * (end - START)));
  const flush = async (): Promise<void> => {
    await sink.write(batch);
    batch = [];
    positions.books = await log.highWatermarks('books');
    positions.venues = await log.highWatermarks('venues');
  };
  for (const r of generateMarket({ seed: 5, startAt: START, durationMs: minutes * 60_000 })) {
    while (marks.length > 0 && r.receivedAt > marks[0]!) {
      await flush();
      const at = marks.shift()!;
      const request = { ...REQUEST, requestId: `bench-${minutes}m-${at}` };
      const result = solve({ request, books: cache, now: at, config: SERVER_DEFAULTS.routing });
      await journal.record({
        kind: 'rest',
        request,
        calculatedAt: at,
        positions,
        status: 200,
        body: JSON.stringify(result),
      });
      requestIds.push(request.requestId);
    }
    cache.apply(r);
    keep?.push(r);
    batch.push(r);
    count++;
    if (batch.length >= 5000) await flush();
  }
  await flush();
  await journal.close();
  await log.close();
  return { dir, records: count, requestIds };
}

/** Median wall time of `quote <requestId>` (find, rebuild, solve, hash) over `runs` fresh log handles. */
async function replayMs(dir: string, requestId: string, runs = 7): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const log = new EmbeddedLog({ dataDir: dir });
    const found = await findQuote(log, requestId);
    if (found === null) throw new Error(`bench: ${requestId} not journalled`);
    const replay = await replayQuote(log, found.record);
    await log.close();
    if (!replay.identical) throw new Error(`bench: ${requestId} did not replay identically`);
    samples.push(performance.now() - t0);
  }
  return quantile(samples, 0.5);
}

const SCHEDULE = parseSchedule({
  intervalMs: 1000,
  strategies: ['best_single', 'split_optimal', 'split_capped'],
  requests: [
    { from: 'BTC', to: 'USDT', sizes: [0.5, 5, 25], bridges: ['USDC'], hopPenaltyBps: 2 },
    { from: 'USDT', to: 'ETH', sizes: [10_000, 250_000], bridges: ['BTC', 'USDC'], maxVenues: 4 },
    { from: 'USDC', to: 'BTC', exactSide: 'out', sizes: [2] },
  ],
});

/** Scenario `replay`: quote replay time on 10-minute and 1-hour logs, and backtest throughput. */
export async function benchReplay(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const tenMinRecords: EventRecord[] = [];
  const short = await buildLog(10, [0.5, 0.95], tenMinRecords);
  const long = await buildLog(60, [0.5, 0.95]);
  try {
    for (const [name, built] of [
      ['10min', short],
      ['1h', long],
    ] as const) {
      rows.push({ scenario: 'replay', metric: `log ${name}: records`, value: built.records, unit: 'count' });
      rows.push({
        scenario: 'replay',
        metric: `quote ${name}: mid-log p50`,
        value: await replayMs(built.dir, built.requestIds[0]!),
        unit: 'ms',
      });
      rows.push({
        scenario: 'replay',
        metric: `quote ${name}: near end p50`,
        value: await replayMs(built.dir, built.requestIds[1]!),
        unit: 'ms',
      });
    }
  } finally {
    rmSync(short.dir, { recursive: true, force: true });
    rmSync(long.dir, { recursive: true, force: true });
  }
  // Backtest: fold the 10-minute recording and quote the schedule every second (6 sizes x 3
  // strategies), after one warm-up pass over its first minute so the JIT has seen both loops.
  // The recording is read from a JSON Lines file, so the fold figure includes reading and parsing.
  const recording = join(mkdtempSync(join(tmpdir(), 'bench-backtest-')), 'recording.jsonl');
  writeFileSync(recording, `${tenMinRecords.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const backtest = (to: number): ReturnType<typeof runBacktest> =>
    runBacktest({
      fold: new InstantFold([fileSource(recording, () => undefined)]),
      schedule: SCHEDULE,
      from: START,
      to,
      config: SERVER_DEFAULTS.routing,
      onRow: () => undefined,
      clock: () => performance.now(),
    });
  await backtest(START + 60_000);
  const t = await backtest(START + 10 * 60_000 - 1);
  rmSync(join(recording, '..'), { recursive: true, force: true });
  rows.push({
    scenario: 'replay',
    metric: 'backtest quotes/s',
    value: t.quotes / (t.solveMs / 1000),
    unit: 'quotes/s',
  });
  rows.push({
    scenario: 'replay',
    metric: 'backtest fold records/s',
    value: t.recordsFolded / (t.foldMs / 1000),
    unit: 'records/s',
  });
  rows.push({
    scenario: 'replay',
    metric: 'backtest overall quotes/s',
    value: t.quotes / ((t.solveMs + t.foldMs) / 1000),
    unit: 'quotes/s',
  });
  return rows;
}
