import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { closeAgents, get } from './client';
import { SESSION_MS, startFleet, type Fleet } from './fleet';
import { ROOT } from './fleet-process';
import type { Answered } from './load';
import { TopicWatch } from './topic-watch';

/**
 * The fleet spec's shared state, bounds and helpers (moved out of fleet.fleet.spec.ts to keep it
 * under 400 lines). `fleet`, `books` and `quotes` are live bindings: set by startShared(), read by
 * the spec's steps in order.
 */
export const QUOTE = '/route?from=NKN&to=USDT&amountIn=100';
export const STREAM_QUERY = 'from=NKN&to=USDT&amountIn=100';
/** The cap the replicas share in this test (STREAM_MAX_PER_IP). */
export const STREAM_CAP = 3;
/**
 * After a broker is killed: how long writers may wait (and the API may answer 5xx) while the
 * cluster fences the dead broker (broker.session.timeout.ms, 4 s here, 9 s by default) and moves
 * its partitions' leadership, and the clients find the new leaders (docs/operations-fleet.md).
 */
export const FAILOVER_WINDOW_MS = 15_000;
/** The takeover bound docs/operations-fleet.md states: session + a heartbeat + the 1 s handover + the venue start (here < 4 s). */
export const TAKEOVER_MS = SESSION_MS * 1.2 + 1_000 + 4_000;
/** Loaded machine: timing bounds get this much margin on top of what is stated. */
export const MARGIN_MS = 10_000;
/** How long an independent reader may take to read a topic to its end (a bound on the test, not a claim). */
export const READ_BACK_MS = 90_000;

export let fleet: Fleet;
export let books: TopicWatch;
export let quotes: TopicWatch;
/** Every load answer of every step, for the audit. */
export const answered: Answered[] = [];

/** The fleet and the two topic watches every step shares. */
export async function startShared(): Promise<void> {
  fleet = await startFleet(8, { STREAM_MAX_PER_IP: String(STREAM_CAP) });
  const prefix = fleet.env.TOPIC_PREFIX!;
  [books, quotes] = await Promise.all([
    new TopicWatch(fleet.env.KAFKA_BROKERS!, `${prefix}.books`).start(),
    new TopicWatch(fleet.env.KAFKA_BROKERS!, `${prefix}.quotes`).start(),
  ]);
}

export async function stopShared(): Promise<void> {
  closeAgents();
  await books?.stop();
  await quotes?.stop();
  await fleet?.stop();
}

/** The venues each live ingestor owns now (its latest 'venues assigned' line). */
export function owners(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of fleet.ingestors) {
    if (!p.alive()) continue;
    const last = p
      .lines()
      .filter((l) => l.message === 'venues assigned')
      .at(-1);
    out.set(p.name, (last?.venues as string[] | undefined) ?? []);
  }
  return out;
}

/** Fail-open lines the replicas have logged so far (a Redis call slower than 250 ms, say on a loaded machine). */
export const failOpens = (): number =>
  fleet.apis.reduce(
    (n, p) => n + p.lines().filter((l) => String(l.message).includes('Redis is not answering')).length,
    0,
  );

/**
 * `count` requests from one address at once through the load balancer; again (a fresh address) if
 * the burst straddled a window or, with `shared`, if a replica failed open meanwhile: the exactness
 * claimed is that of the shared limit while Redis answers in time.
 */
export async function burst(from: () => string, count: number, shared = false) {
  for (let attempt = 0; ; attempt++) {
    const address = from();
    const before = failOpens();
    const t0 = performance.now();
    const out = await Promise.all(
      Array.from({ length: count }, () => get(fleet.haproxy.url, '/health', address)),
    );
    const clean = performance.now() - t0 < 700 && (!shared || failOpens() === before);
    if (clean || attempt >= 5) return out;
  }
}
/** `n` client addresses of their own (127.2.k.x) for a load. */
let nextLoad = 0;
export const loadAddresses = (n: number): string[] => {
  nextLoad++;
  return Array.from({ length: n }, (_, i) => `127.2.${nextLoad}.${i + 1}`);
};

/** The high watermark of each partition of `topic` now, asked of the cluster. */
export async function endsOf(topic: string): Promise<number[]> {
  // Asked again while a restarted broker's partitions elect their leaders (LEADER_NOT_AVAILABLE).
  for (let attempt = 0; ; attempt++) {
    const admin = new Kafka({
      brokers: fleet.env.KAFKA_BROKERS!.split(','),
      logLevel: logLevel.NOTHING,
    }).admin();
    try {
      await admin.connect();
      const out: number[] = [];
      for (const o of await admin.fetchTopicOffsets(topic)) out[o.partition] = Number(o.high);
      return out;
    } catch (e) {
      if (attempt >= 60) throw e;
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }
}

/** Records in `topic` now (the sum of its partitions' high watermarks). */
export const endOf = async (topic: string): Promise<number> =>
  (await endsOf(topic)).reduce((n, h) => n + h, 0);

export async function leaderOf(topic: string, partition: number): Promise<number> {
  const admin = new Kafka({
    brokers: fleet.env.KAFKA_BROKERS!.split(','),
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  try {
    const meta = await admin.fetchTopicMetadata({ topics: [topic] });
    return meta.topics[0]!.partitions.find((p) => p.partitionId === partition)!.leader;
  } finally {
    await admin.disconnect();
  }
}

let nextAddress = 0;
/**
 * A fresh client address for each burst (127.1.x.y), so no window carries over. Clients use their
 * own loopback addresses, which HAProxy passes on.
 */
export const address = (): string => `127.1.${Math.floor(nextAddress / 250)}.${1 + (nextAddress++ % 250)}`;

/** A book record that opens a publisher's run: a snapshot of sequence 1 (a venue (re)started). */
export function isFresh(value: string): boolean {
  const r = JSON.parse(value) as { snapshot?: boolean; sequence?: number };
  return r.snapshot === true && r.sequence === 1;
}

type Audit = { code: number | null; out: string; err: string; ms: number };

/**
 * The audit of `ids`, split over AUDITORS processes at once. A replay from Kafka is now mostly CPU
 * (Node's start, the book rebuild and the solve: reads go to the leaders without a consumer group),
 * so two processes, one per core, do as well as more.
 */
export async function runAuditor(ids: readonly string[]): Promise<Audit> {
  const t0 = Date.now();
  const parts = Array.from({ length: AUDITORS }, (_, k) => ids.filter((_, i) => i % AUDITORS === k));
  const runs = await Promise.all(parts.filter((p) => p.length > 0).map((p) => auditOnce(p)));
  return {
    code: runs.reduce<number | null>((worst, r) => (r.code !== 0 ? r.code : worst), 0),
    out: runs.map((r) => r.out).join(''),
    err: runs.map((r) => r.err).join(''),
    ms: Date.now() - t0,
  };
}

const AUDITORS = 2;

/** `route-service replay quote -` with the ids on stdin, in an empty directory, with only the brokers. */
function auditOnce(
  ids: readonly string[],
): Promise<{ code: number | null; out: string; err: string; ms: number }> {
  const cwd = mkdtempSync(join(tmpdir(), 'route-auditor-'));
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/route-service.mjs'), 'replay', 'quote', '-'], {
      cwd,
      env: {
        PATH: process.env.PATH,
        KAFKA_BROKERS: fleet.env.KAFKA_BROKERS,
        TOPIC_PREFIX: fleet.env.TOPIC_PREFIX,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => resolve({ code, out, err, ms: Date.now() - t0 }));
    child.stdin.end(ids.join('\n') + '\n');
  });
}
