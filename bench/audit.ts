/**
 * `npm run bench -- audit [--baseline=<dir>]` (Kafka: KAFKA_BROKERS or a jar broker of the bench's
 * own, bench/kafka-broker.ts): `replay quote <id>` from
 * Kafka as an auditor types it, on journals of 10k, 100k and 1M records. A real API on Kafka
 * journals 40 quotes under known requestIds; filler entries (one real record's bytes under fresh
 * ids) then grow the quotes topic, the API publishes its requestId index to the shared index
 * topics, and the real CLI is spawned in an empty directory with KAFKA_BROKERS and TOPIC_PREFIX
 * alone, timed from spawn to exit: through the shared index, with `--scan` (the fallback: the id's
 * whole journal partition), and with the built checkout named by --baseline (the revision before).
 * Every run must print the bytes the client received and exit 0.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { findQuotes, SharedJournalIndex, sharedIndexTopics } from '@app/audit';
import { KafkaLog } from '@app/event-log';
import { quantile, type BenchRow } from './bench-row';
import { benchKafka } from './kafka-broker';
import { startLongevityHost, type LongevityHost } from './longevity-host';
import { prng } from './market-gen';
import { spawnHeld } from './processes';

const ROOT = resolve(__dirname, '..', '..');
const SIZES = [10_000, 100_000, 1_000_000];
const IDS = 40;

type Row = (metric: string, value: number, unit: string) => void;

interface Variant {
  readonly name: string;
  /** A checkout with bin/route-service.mjs and a built dist/ (this one by default). */
  readonly root: string;
  readonly args: readonly string[];
  /** Timed runs per journal size (after one untimed run), by size. */
  readonly runs: (size: number) => number;
}

export async function benchAudit(baseline: string | null): Promise<BenchRow[]> {
  const kafka = await benchKafka('audit');
  try {
    return await auditOn(kafka.brokers, baseline);
  } finally {
    await kafka.close();
  }
}

async function auditOn(brokers: string, baseline: string | null): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const row: Row = (metric, value, unit) => {
    rows.push({ scenario: 'audit', metric, value, unit });
  };
  const topicPrefix = `bench-audit-${Date.now().toString(36)}`;
  const host = await startLongevityHost({
    journalResponses: false,
    venues: 20,
    levels: 200,
    kafka: { brokers: brokers.split(','), topicPrefix },
  });
  const slow = (n: number): number => (n >= 1_000_000 ? 1 : 3);
  const variants: Variant[] = [
    { name: 'shared index', root: ROOT, args: [], runs: () => 5 },
    { name: 'scan (--scan)', root: ROOT, args: ['--scan'], runs: slow },
    ...(baseline === null ? [] : [{ name: 'baseline', root: resolve(baseline), args: [], runs: slow }]),
  ];
  try {
    const served = await serveQuotes(host);
    const ids = [...served.keys()];
    const template = await firstRecord(host);
    const rand = prng(5);
    let total = ids.length;
    for (const size of SIZES) {
      while (total < size) {
        const n = Math.min(5000, size - total);
        const batch = Array.from({ length: n }, (_, k) => ({
          key: `fill-${(total + k).toString(36)}-${Math.floor(rand() * 1e9).toString(36)}`,
          value: template,
        }));
        await host.log.append('quotes', batch);
        total += n;
      }
      const t0 = performance.now();
      await host.server.indexJournal();
      row(`journal ${size}: index catch-up after growing the journal`, performance.now() - t0, 'ms');
      await lookups(row, size, ids, brokers, topicPrefix);
      let pick = 0;
      for (const v of variants) {
        const times: number[] = [];
        const read: number[] = [];
        for (let i = 0; i <= v.runs(size); i++) {
          const id = ids[pick++ % ids.length]!;
          const { ms, out, err } = await cliQuote(v, id, brokers, topicPrefix);
          if (out !== `${served.get(id)}\n`)
            throw new Error(`${v.name}: replay of ${id} printed other bytes`);
          if (i > 0) times.push(ms);
          const m = / (\d+) unindexed entries read/.exec(err);
          if (m !== null) read.push(Number(m[1]));
        }
        row(`journal ${size}: replay quote, ${v.name}, median`, quantile(times, 0.5), 'ms');
        row(`journal ${size}: replay quote, ${v.name}, max`, Math.max(...times), 'ms');
        if (read.length > 0)
          row(
            `journal ${size}: replay quote, ${v.name}, unindexed entries read`,
            quantile(read, 0.5),
            'entries',
          );
      }
    }
  } finally {
    await host.close();
    await deleteTopics(brokers, topicPrefix);
  }
  return rows;
}

/**
 * The look-up alone, from a fresh client (as an auditor's process has): the first through the
 * shared index (it reads the run heads too), the next ones, and the partition scan.
 */
async function lookups(
  row: Row,
  size: number,
  ids: readonly string[],
  brokers: string,
  topicPrefix: string,
): Promise<void> {
  const log = new KafkaLog({ brokers: brokers.split(','), topicPrefix, clientId: 'bench-auditor' });
  try {
    const index = new SharedJournalIndex(log, sharedIndexTopics(log)!);
    await log.partitions('quotes');
    const times: number[] = [];
    let runs = 0;
    for (const id of ids.slice(0, 11)) {
      const t = performance.now();
      const got = await index.entries(id);
      times.push(performance.now() - t);
      if (got.entries.length !== 1) throw new Error(`${id}: ${got.entries.length} records via the index`);
      runs = Math.max(runs, got.runs);
    }
    row(`journal ${size}: look-up via shared index, first in a process`, times[0]!, 'ms');
    row(`journal ${size}: look-up via shared index, next ones p50`, quantile(times.slice(1), 0.5), 'ms');
    row(`journal ${size}: look-up via shared index, runs searched`, runs, 'runs');
    const t = performance.now();
    if ((await findQuotes(log, ids[0]!)).length !== 1) throw new Error(`${ids[0]}: not found by scanning`);
    row(`journal ${size}: look-up by scanning the partition`, performance.now() - t, 'ms');
  } finally {
    await log.close();
  }
}

/** The bench's topics go (a 1M journal is about 0.7 GB on the broker). */
async function deleteTopics(brokers: string, topicPrefix: string): Promise<void> {
  const admin = new Kafka({ brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(`${topicPrefix}.`));
    await admin.deleteTopics({ topics });
  } finally {
    await admin.disconnect();
  }
}

/** 40 quotes under known requestIds; their bodies as the client received them. */
async function serveQuotes(host: LongevityHost): Promise<Map<string, string>> {
  const served = new Map<string, string>();
  for (let i = 0; i < IDS; i++) {
    const id = `bench-audit-${i}-${host.now.toString(36)}`;
    const res = await fetch(`${host.server.url}/route?from=USDT&to=BTC&amountIn=${1000 + i * 100}`, {
      headers: { 'x-request-id': id },
    });
    if (res.status !== 200) throw new Error(`quote ${id}: HTTP ${res.status}`);
    served.set(id, await res.text());
  }
  await host.server.journal.flush();
  return served;
}

async function firstRecord(host: LongevityHost): Promise<string> {
  const ends = await host.log.highWatermarks('quotes');
  const [entry] = await host.log.read(
    'quotes',
    ends.findIndex((h) => h > 0),
    0,
    1,
  );
  if (entry === undefined) throw new Error('nothing journalled');
  return entry.value;
}

/** Wall ms from spawn to exit of `replay quote <id>` in an empty directory with only the brokers. */
function cliQuote(
  v: Variant,
  id: string,
  brokers: string,
  topicPrefix: string,
): Promise<{ ms: number; out: string; err: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'bench-auditor-'));
  const t0 = performance.now();
  const child = spawnHeld(
    'replay quote',
    process.execPath,
    [join(v.root, 'bin/route-service.mjs'), 'replay', 'quote', id, ...v.args],
    {
      cwd,
      env: { PATH: process.env.PATH, KAFKA_BROKERS: brokers, TOPIC_PREFIX: topicPrefix },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((res, rej) =>
    child.once('exit', (code) => {
      const ms = performance.now() - t0;
      rmSync(cwd, { recursive: true, force: true });
      if (code === 0) res({ ms, out, err });
      else rej(new Error(`${v.name}: replay quote ${id} exited ${code}: ${err.slice(-2000)}`));
    }),
  );
}
