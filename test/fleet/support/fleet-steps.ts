import { Kafka, logLevel } from 'kafkajs';
import { expect } from 'vitest';
import { waitFor } from '@test/support';
import { get } from './client';
import { FLEET_VENUES, SESSION_MS, startFleet, type Fleet } from './fleet';

/**
 * What the fleet's spec files share (shared-limits.fleet.spec.ts, failover.fleet.spec.ts): the
 * fleet they each start, the request they load it with, the bounds they hold it to, and the
 * helpers that read its state. Clients use their own loopback addresses (127.x.y.z), which HAProxy passes on.
 */
export const QUOTE = '/route?from=NKN&to=USDT&amountIn=100';
export const STREAM_QUERY = 'from=NKN&to=USDT&amountIn=100';
/** The cap the replicas share in these tests (STREAM_MAX_PER_IP). */
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

/**
 * Issue 20's fleet: 3 KRaft brokers (every topic 3 replicas, 2 in sync), Redis, 2 API replicas
 * behind HAProxy, 2 ingestors of one group over two synthetic binance-protocol venues. Each spec
 * file starts its own on its own ports (`slot`, test/kafka/broker.ts); the fleet project runs the
 * files one after the other (vitest.config.ts).
 */
export const startTestFleet = (slot: number): Promise<Fleet> =>
  startFleet(slot, { STREAM_MAX_PER_IP: String(STREAM_CAP) });

let nextAddress = 0;
/** A fresh client address for each burst (127.1.x.y), so no window carries over. */
export const address = (): string => `127.1.${Math.floor(nextAddress / 250)}.${1 + (nextAddress++ % 250)}`;

/** `n` client addresses of their own (127.2.k.x) for a load. */
let nextLoad = 0;
export const loadAddresses = (n: number): string[] => {
  nextLoad++;
  return Array.from({ length: n }, (_, i) => `127.2.${nextLoad}.${i + 1}`);
};

/** A book record that opens a publisher's run: a snapshot of sequence 1 (a venue (re)started). */
export function isFresh(value: string): boolean {
  const r = JSON.parse(value) as { snapshot?: boolean; sequence?: number };
  return r.snapshot === true && r.sequence === 1;
}

/** The helpers that read the fleet a spec file started (`current()`, set in its beforeAll). */
export function fleetSteps(current: () => Fleet) {
  /** The venues each live ingestor owns now (its latest 'venues assigned' line). */
  function owners(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const p of current().ingestors) {
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
  const failOpens = (): number =>
    current().apis.reduce(
      (n, p) => n + p.lines().filter((l) => String(l.message).includes('Redis is not answering')).length,
      0,
    );

  /**
   * `count` requests from one address at once through the load balancer; again (a fresh address) if
   * the burst straddled a window or, with `shared`, if a replica failed open meanwhile: the exactness
   * claimed is that of the shared limit while Redis answers in time.
   */
  async function burst(from: () => string, count: number, shared = false) {
    for (let attempt = 0; ; attempt++) {
      const address = from();
      const before = failOpens();
      const t0 = performance.now();
      const out = await Promise.all(
        Array.from({ length: count }, () => get(current().haproxy.url, '/health', address)),
      );
      const clean = performance.now() - t0 < 700 && (!shared || failOpens() === before);
      if (clean || attempt >= 5) return out;
    }
  }

  const admin = () =>
    new Kafka({
      brokers: current().env.KAFKA_BROKERS!.split(','),
      logLevel: logLevel.NOTHING,
    }).admin();

  /** The high watermark of each partition of `topic` now, asked of the cluster. */
  async function endsOf(topic: string): Promise<number[]> {
    // Asked again while a restarted broker's partitions elect their leaders (LEADER_NOT_AVAILABLE).
    for (let attempt = 0; ; attempt++) {
      const a = admin();
      try {
        await a.connect();
        const out: number[] = [];
        for (const o of await a.fetchTopicOffsets(topic)) out[o.partition] = Number(o.high);
        return out;
      } catch (e) {
        if (attempt >= 60) throw e;
        await new Promise((r) => setTimeout(r, 500));
      } finally {
        await a.disconnect().catch(() => undefined);
      }
    }
  }

  /** Records in `topic` now (the sum of its partitions' high watermarks). */
  const endOf = async (topic: string): Promise<number> => (await endsOf(topic)).reduce((n, h) => n + h, 0);

  async function leaderOf(topic: string, partition: number): Promise<number> {
    const a = admin();
    await a.connect();
    try {
      const meta = await a.fetchTopicMetadata({ topics: [topic] });
      return meta.topics[0]!.partitions.find((p) => p.partitionId === partition)!.leader;
    } finally {
      await a.disconnect();
    }
  }

  /** Each file's first step: each venue owned by exactly one live ingestor, quotes through the balancer. */
  async function started(): Promise<void> {
    await waitFor(
      'one venue per ingestor',
      () => {
        const all = [...owners().values()];
        return all.length === 2 && all.every((v) => v.length === 1) && new Set(all.flat()).size === 2;
      },
      60_000,
    );
    expect([...owners().values()].flat().sort()).toEqual([...FLEET_VENUES].sort());
    const from = address();
    await waitFor(
      'a quote over both venues',
      async () => {
        const r = await get(current().haproxy.url, QUOTE, from);
        await new Promise((res) => setTimeout(res, 250));
        return r.status === 200 && FLEET_VENUES.every((v) => r.body.includes(`"exchangeId":"${v}"`));
      },
      60_000,
    );
  }

  return { owners, failOpens, burst, endsOf, endOf, leaderOf, started };
}
