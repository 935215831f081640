/**
 * Resume lookups of unknown streams (issue 28): what a hostile client costs the others when every
 * subscribe names a random streamId to resume. Such a resume is not known to the process, so it is
 * looked up in the stream ledger (the first lookup reads the newest RESUME_SCAN_ENTRIES of each
 * partition, later ones what was appended since), only to end unknown_stream. The bench server (60 venues x 1,000 levels, the default HTTP limits, in a
 * process of its own) has every ledger partition filled past that bound; an attacker process holds
 * SOCKETS routestream.v2 sockets (10 an address) subscribing once a second each (the sustained
 * rate a socket is allowed) and unsubscribing when answered. Three phases, interleaved over
 * ROUNDS rounds: no attacker, the attacker's subscribes without a resume (their solves), and with
 * a random resume each (the solves and the lookups). Per phase: GET /route from autocannon in its
 * own process (4 connections, 5 s), the server's event-loop delay and CPU, and the attacker's
 * subscribes answered per second and their subscribe-to-subscribed time.
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { RESUME_SCAN_ENTRIES } from '../apps/api/src/stream/v2/stream-ledger';
import { ROUTE } from './api-rest';
import type { BenchRow } from './bench-row';
import { ask, clientProcess, lineFrom, nextMessage } from './child-io';
import type { LoopReport } from './hostile-server';
import { forkHeld, spawnHeld } from './processes';

const SOCKETS = 200;
const SECONDS = 5;
const ROUNDS = 2;
/** Ledger records a partition: past the scan bound, so every unknown lookup reads the whole bound. */
const LEDGER_PER_PARTITION = RESUME_SCAN_ENTRIES + 4096;

type Phase = 'none' | 'plain' | 'resume';
const PHASES: readonly Phase[] = ['none', 'plain', 'resume'];
const LABEL: Record<Phase, string> = {
  none: 'no attacker',
  plain: `${SOCKETS} sockets subscribing 1/s, no resume`,
  resume: `${SOCKETS} sockets subscribing 1/s, each resuming a random streamId`,
};

interface AttackReport {
  readonly sent: number;
  readonly answered: number;
  readonly errors: number;
  readonly codes: Record<string, number>;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly ms: number;
}

export async function benchResumeScan(): Promise<BenchRow[]> {
  const server = forkHeld('bench server', join(__dirname, 'hostile-server.js'), ['default'], {
    execArgv: ['--max-semi-space-size=64'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const rows: BenchRow[] = [];
  try {
    const { url } = await nextMessage<{ url: string }>(server);
    const port = Number(new URL(url).port);
    const { partitions } = await ask<{ partitions: number }>(server, { ledger: LEDGER_PER_PARTITION });
    const row = (phase: Phase, round: number, metric: string, value: number, unit: string): void => {
      rows.push({
        scenario: 'resume-scan',
        metric: `${LABEL[phase]} (round ${round}): ${metric}`,
        value,
        unit,
      });
    };
    rows.push({
      scenario: 'resume-scan',
      metric: `stream ledger records a partition (${partitions} partitions; a process first reads the newest ${RESUME_SCAN_ENTRIES} of each)`,
      value: LEDGER_PER_PARTITION,
      unit: 'records',
    });
    for (let round = 1; round <= ROUNDS; round++)
      for (const phase of PHASES) {
        const attacker = phase === 'none' ? null : await startAttacker(port, phase);
        try {
          // Let the sockets' first subscribes spread over the second before measuring.
          await new Promise((r) => setTimeout(r, 1500));
          attacker?.stdin!.write('reset\n');
          await ask(server, 'reset');
          const cpuFrom = (await ask<{ cpuMicros: number }>(server, 'cpu')).cpuMicros;
          const wallFrom = performance.now();
          const rest = await clientProcess(url + ROUTE, SECONDS);
          const cores =
            ((await ask<{ cpuMicros: number }>(server, 'cpu')).cpuMicros - cpuFrom) /
            1000 /
            (performance.now() - wallFrom);
          const loop = await ask<LoopReport>(server, 'report');
          if (rest.failed > 0) throw new Error(`resume-scan: ${rest.failed} GET /route requests failed`);
          row(phase, round, 'GET /route p99 (4 conns, client process)', rest.p99, 'ms');
          row(phase, round, 'GET /route p50', rest.p50, 'ms');
          row(phase, round, 'GET /route max', rest.max, 'ms');
          row(phase, round, 'GET /route quotes/s', rest.rps, 'req/s');
          row(phase, round, 'server event-loop delay p99', loop.p99Ms, 'ms');
          row(phase, round, 'server event-loop delay max', loop.maxMs, 'ms');
          row(phase, round, 'server CPU', cores, 'cores');
          if (attacker !== null) {
            const report = lineFrom(attacker, (l) => l.includes('"sent"'));
            attacker.stdin!.write('report\n');
            const a = JSON.parse(await report) as AttackReport;
            row(phase, round, 'attacker subscribes answered', (a.answered * 1000) / a.ms, '/s');
            const codes = Object.entries(a.codes).map(([code, n]) => `${code} ${n}`);
            row(phase, round, `attacker errors (${codes.join(', ') || 'none'})`, a.errors, 'errors');
            row(phase, round, 'subscribe to subscribed p50', a.p50Ms, 'ms');
            row(phase, round, 'subscribe to subscribed p99', a.p99Ms, 'ms');
          }
        } finally {
          attacker?.kill('SIGKILL');
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
    return rows;
  } finally {
    const exited = new Promise((r) => server.once('exit', r));
    server.send('stop');
    await exited;
  }
}

async function startAttacker(port: number, mode: 'plain' | 'resume'): Promise<ChildProcess> {
  const attacker = spawnHeld(
    'resume attacker',
    process.execPath,
    [join(__dirname, 'resume-scan-attacker.js'), String(port), String(SOCKETS), mode],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  await lineFrom(attacker, (l) => l.includes('"ready"'));
  return attacker;
}
