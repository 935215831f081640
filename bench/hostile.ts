/**
 * `npm run bench -- hostile` (issue 9): the real server in a process of its own, attacked from the
 * bench process and from an attacker process.
 * 1. Each attack of the set (bench/hostile-attacks.ts), 20 times one after another: the longest
 *    event-loop stall the server's own histogram saw while it answered them.
 * 2. GET /route p99 of a well-behaved client (autocannon in its own process, 4 connections, 4 s),
 *    alone and while 1,000 stalled sockets and the largest allowed stream messages are in play, in
 *    three alternating rounds (medians reported); the server's RSS read from /proc/<pid>/status.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROUTE } from './api-rest';
import type { ClientFigures } from './api-client';
import { ask, clientProcess, lineFrom, nextMessage } from './child-io';
import { quantile, type BenchRow } from './bench-row';
import { ATTACKS, BASELINES, type Attack } from './hostile-attacks';
import type { LoopReport } from './hostile-server';
import { forkHeld, spawnHeld } from './processes';

const REPEATS = 20;
const STALLED = 1000;
/** 1,000 stalled sockets over 20 addresses: 50 each, inside the default per-IP budget of 64. */
const STALL_ADDRESSES = 20;
const STREAM_CLIENTS = 20;
const SECONDS = 4;
const ROUNDS = 3;

export async function benchHostile(): Promise<BenchRow[]> {
  const server = forkHeld('bench server', join(__dirname, 'hostile-server.js'), [], {
    execArgv: ['--max-semi-space-size=64'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  try {
    const { url } = await nextMessage<{ url: string }>(server);
    const port = Number(new URL(url).port);
    const rss = (): number => rssKiB(server.pid!);
    const rows: BenchRow[] = [];
    const row = (metric: string, value: number, unit: string): void => {
      rows.push({ scenario: 'hostile', metric, value, unit });
    };

    // 1. The longest stall any single request of the attack set causes.
    const rssBeforeAttacks = rss();
    let worst = { name: '', ms: 0 };
    for (const attack of [...BASELINES, ...ATTACKS]) {
      const stall = await stallOf(server, port, attack);
      row(
        `stall: ${attack.name} (median, worst of ${REPEATS})`,
        stall.median,
        `ms (worst ${stall.worst.toFixed(1)})`,
      );
      if (!attack.name.startsWith('baseline') && stall.median > worst.ms)
        worst = { name: attack.name, ms: stall.median };
    }
    row(`longest event-loop stall of one attack request (${worst.name})`, worst.ms, 'ms');
    row('server RSS growth over the attack set', (rss() - rssBeforeAttacks) / 1024, 'MiB');

    // 2. A well-behaved client's /route without and with 1,000 stalled sockets and stream messages,
    // in alternating rounds, so a burst of load from elsewhere on the machine hits both alike.
    const rssBeforeStalls = rss();
    let maxRss = rssBeforeStalls;
    const sampler = setInterval(() => (maxRss = Math.max(maxRss, rss())), 100);
    const alone: ClientFigures[] = [];
    const attacked: ClientFigures[] = [];
    const held: number[] = [];
    const heldKiB: number[] = [];
    let messages = 0;
    try {
      for (let round = 0; round < ROUNDS; round++) {
        alone.push(await clientProcess(url + ROUTE, SECONDS));
        const under = await underAttack(port, rss, () => clientProcess(url + ROUTE, SECONDS));
        attacked.push(under.result);
        held.push(under.open);
        heldKiB.push(under.heldKiB);
        messages += under.messages;
      }
    } finally {
      clearInterval(sampler);
    }
    const median = (pick: (f: ClientFigures) => number, of: ClientFigures[]): number =>
      quantile(of.map(pick), 0.5);
    const rounds = `median of ${ROUNDS} rounds of ${SECONDS} s`;
    row(
      `GET /route p99 alone (4 conns, client process; ${rounds})`,
      median((f) => f.p99, alone),
      'ms',
    );
    row(
      `GET /route p99 with 1,000 stalled sockets + 1 KiB stream messages (${rounds})`,
      median((f) => f.p99, attacked),
      'ms',
    );
    row(
      'GET /route p50 with the stalled sockets',
      median((f) => f.p50, attacked),
      'ms',
    );
    row(
      'GET /route max with the stalled sockets (worst round)',
      Math.max(...attacked.map((f) => f.max)),
      'ms',
    );
    row(
      'GET /route quotes/s alone',
      median((f) => f.rps, alone),
      'req/s',
    );
    row(
      'GET /route quotes/s with the stalled sockets',
      median((f) => f.rps, attacked),
      'req/s',
    );
    row('stalled sockets held open (fewest at the end of a round)', Math.min(...held), 'sockets');
    row('stream messages sent (each refused with 1008)', messages, 'messages');
    row(
      'server RSS growth from holding the stalled sockets (largest of the rounds)',
      Math.max(...heldKiB) / 1024,
      'MiB',
    );
    row(
      'server RSS growth over the whole phase, client load included',
      (maxRss - rssBeforeStalls) / 1024,
      'MiB',
    );
    const failed = [...alone, ...attacked].reduce((n, f) => n + f.failed, 0);
    if (failed > 0) throw new Error(`hostile bench: ${failed} well-behaved requests failed`);
    return rows;
  } finally {
    const exited = new Promise((r) => server.once('exit', r));
    server.send('stop');
    await exited;
  }
}

/** Run `measure` while the attacker process holds its stalled sockets and sends stream messages. */
async function underAttack<T>(
  port: number,
  rss: () => number,
  measure: () => Promise<T>,
): Promise<{ result: T; open: number; messages: number; heldKiB: number }> {
  const before = rss();
  const attacker = spawnHeld(
    'attacker',
    process.execPath,
    [
      join(__dirname, 'hostile-attacker.js'),
      String(port),
      String(STALLED),
      String(STALL_ADDRESSES),
      String(STREAM_CLIENTS),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    await lineFrom(attacker, (l) => l.includes('"ready":true'));
    // What holding the sockets costs, before the well-behaved client's load moves the heap.
    await new Promise((r) => setTimeout(r, 500));
    const heldKiB = rss() - before;
    const result = await measure();
    const counts = lineFrom(attacker, (l) => l.includes('"open"'));
    attacker.kill('SIGTERM');
    const { open, messages } = JSON.parse(await counts) as { open: number; messages: number };
    return { result, open, messages, heldKiB };
  } finally {
    attacker.kill('SIGKILL');
  }
}

/**
 * The stall one request of `attack` causes: per request, the server's histogram is reset, the
 * request sent and answered, and the longest event-loop delay read; the median over REPEATS
 * requests, so a preemption by another process on the shared machine does not count as the
 * request's own (the worst single reading is returned too).
 */
async function stallOf(
  server: ChildProcess,
  port: number,
  attack: Attack,
): Promise<{ median: number; worst: number }> {
  const readings: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    await ask(server, 'reset');
    await attack.run(port);
    readings.push((await ask<LoopReport>(server, 'report')).maxMs);
  }
  return { median: quantile(readings, 0.5), worst: Math.max(...readings) };
}

function rssKiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
}
