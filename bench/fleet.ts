/**
 * Fleet bench (docs/operations-fleet.md "Sizing"): GET /route through HAProxy to one and then two
 * API replicas (each its own process folding one Kafka broker, limits shared through Redis,
 * strict journal), from an autocannon client in its own process; and what the shared limiter
 * costs per request: the gate's rate-limit decision timed through Redis and in memory.
 * Needs Debian's redis-server and haproxy (as the fleet test tier) and Kafka (KAFKA_BROKERS, or
 * the jar broker of scripts/kafka: bench/kafka-broker.ts). Every process it starts is held by
 * bench/processes.ts.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SERVER_DEFAULTS } from '@app/config';
import { KafkaLog, logSink } from '@app/event-log';
import { FixedWindowLimiter } from '../apps/api/src/limits/rate-limiter';
import { RedisLimits } from '../apps/api/src/limits/redis-limits';
import type { ClientFigures } from './api-client';
import { ROUTE } from './api-rest';
import { quantile, type BenchRow } from './bench-row';
import { outputOf } from './child-io';
import { benchKafka } from './kafka-broker';
import { benchSnapshots } from './market-gen';
import { freePort } from './ports';
import { spawnHeld, stopHeld } from './processes';

const ROOT = resolve(__dirname, '..', '..');
const SECONDS = 8;
const CONNECTIONS = 16;

export async function benchFleet(): Promise<BenchRow[]> {
  const kafka = await benchKafka('fleet');
  const dir = mkdtempSync(join(tmpdir(), 'bench-fleet-'));
  const children: ChildProcess[] = [];
  try {
    const brokers = kafka.brokers;
    const prefix = `bench-fleet-${process.pid}`;
    const log = new KafkaLog({
      brokers: brokers.split(','),
      topicPrefix: prefix,
      onProblem: () => undefined,
    });
    await logSink(log).write(benchSnapshots(60, 1000, Date.now()));
    await log.close();
    const redisPort = await freePort();
    const redis = spawnHeld(
      'redis-server',
      'redis-server',
      ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    children.push(redis);
    const redisUrl = `redis://127.0.0.1:${redisPort}`;
    await pause(300);
    // A replica that meets the fresh topics before every broker knows them exits: start it again.
    const started = async (): Promise<number> =>
      replica(brokers, prefix, redisUrl, children).catch(() => replica(brokers, prefix, redisUrl, children));
    const replicas = [await started(), await started()];
    const rows: BenchRow[] = [];
    for (const n of [1, 2]) {
      const lb = await haproxy(dir, replicas.slice(0, n), children);
      const url = `http://127.0.0.1:${lb}${ROUTE}`;
      await ready(url);
      const f = await client(url);
      rows.push(
        {
          scenario: 'fleet',
          metric: `quotes/s via HAProxy, ${n} replica${n > 1 ? 's' : ''}`,
          value: f.rps,
          unit: 'req/s',
        },
        {
          scenario: 'fleet',
          metric: `p99 via HAProxy, ${n} replica${n > 1 ? 's' : ''}`,
          value: f.p99,
          unit: 'ms',
        },
      );
      if (f.failed > 0)
        rows.push({ scenario: 'fleet', metric: `non-2xx, ${n} replicas`, value: f.failed, unit: 'answers' });
    }
    rows.push(...(await limiterCost(redisUrl)));
    return rows;
  } finally {
    for (const c of children.reverse()) await stopHeld(c);
    await kafka.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The rate-limit decision of one request, in the gate's process: RedisLimits (one script call to
 * Redis on loopback) against the in-memory FixedWindowLimiter, one request in flight at a time
 * and 16 at once. What a request pays for the shared limit is the difference.
 */
async function limiterCost(url: string): Promise<BenchRow[]> {
  const shared = new RedisLimits({
    url,
    rateLimitRps: 1e9,
    streamMaxPerIp: SERVER_DEFAULTS.streamMaxPerIp,
    logger: { warn: console.error, log: () => undefined },
  });
  await shared.start();
  const memory = new FixedWindowLimiter(1e9);
  const timeOne = async (hit: () => unknown): Promise<number> => {
    const t0 = performance.now();
    await hit();
    return performance.now() - t0;
  };
  const serial = async (hit: (i: number) => unknown, n: number): Promise<number[]> => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(await timeOne(() => hit(i)));
    return out;
  };
  await serial((i) => shared.rate.hit(`10.0.${i % 200}.1`, 0), 2000);
  const redis = await serial(
    (i) => shared.rate.hit(`10.1.${Math.floor(i / 250) % 250}.${i % 250}`, 0),
    20_000,
  );
  const mem = await serial(
    (i) => memory.hit(`10.1.${Math.floor(i / 250) % 250}.${i % 250}`, performance.now()),
    20_000,
  );
  const concurrent: number[] = [];
  for (let round = 0; round < 1000; round++)
    concurrent.push(
      ...(await Promise.all(
        Array.from({ length: 16 }, (_, k) => timeOne(() => shared.rate.hit(`10.2.${round % 250}.${k}`, 0))),
      )),
    );
  await shared.close();
  const p = (xs: number[], q: number): number => quantile(xs, q);
  return [
    { scenario: 'fleet', metric: 'limit decision p50, Redis', value: p(redis, 0.5), unit: 'ms' },
    { scenario: 'fleet', metric: 'limit decision p99, Redis', value: p(redis, 0.99), unit: 'ms' },
    { scenario: 'fleet', metric: 'limit decision p99, in memory', value: p(mem, 0.99), unit: 'ms' },
    {
      scenario: 'fleet',
      metric: 'limit added p99 (Redis - memory)',
      value: p(redis, 0.99) - p(mem, 0.99),
      unit: 'ms',
    },
    {
      scenario: 'fleet',
      metric: 'limit decision p99, Redis, 16 at once',
      value: p(concurrent, 0.99),
      unit: 'ms',
    },
  ];
}

async function replica(
  brokers: string,
  prefix: string,
  redisUrl: string,
  children: ChildProcess[],
): Promise<number> {
  const child = spawnHeld(
    'fleet replica',
    process.execPath,
    ['--max-semi-space-size=64', join(ROOT, 'dist/bench/fleet-server.js'), brokers, prefix, redisUrl],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  return new Promise((res, rej) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line !== undefined) res((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => rej(new Error(`fleet-server exited ${code}`)));
  });
}

async function haproxy(dir: string, ports: readonly number[], children: ChildProcess[]): Promise<number> {
  const port = await freePort();
  const cfg = join(dir, `haproxy-${ports.length}.cfg`);
  writeFileSync(
    cfg,
    [
      'global',
      '  maxconn 4096',
      'defaults',
      '  mode http',
      '  timeout connect 1s',
      '  timeout client 60s',
      '  timeout server 60s',
      'frontend api',
      `  bind 127.0.0.1:${port}`,
      '  http-request set-header x-forwarded-for %[src]',
      '  default_backend replicas',
      'backend replicas',
      '  balance roundrobin',
      ...ports.map((p, i) => `  server r${i} 127.0.0.1:${p} check inter 500`),
      '',
    ].join('\n'),
  );
  children.push(spawnHeld('haproxy', 'haproxy', ['-db', '-f', cfg], { stdio: 'ignore' }));
  await pause(500);
  return port;
}

async function client(url: string): Promise<ClientFigures> {
  const out = await outputOf('load client', process.execPath, [
    join(ROOT, 'dist/bench/api-client.js'),
    url,
    String(CONNECTIONS),
    String(SECONDS),
  ]);
  return JSON.parse(out.trim().split('\n').at(-1)!) as ClientFigures;
}

/** Until the balancer passes a quote (its checks have marked the replicas up). */
async function ready(url: string): Promise<void> {
  let last = '';
  for (let i = 0; i < 100; i++) {
    const r = await fetch(url).catch((e: Error) => ({ status: 0, text: () => Promise.resolve(e.message) }));
    if (r.status === 200) return;
    last = `${r.status} ${(await r.text()).slice(0, 200)}`;
    await pause(200);
  }
  throw new Error(`no quote through the balancer: ${last}`);
}

function pause(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
