import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './fleet-process';

/**
 * The fleet's auditor (failover.fleet.spec.ts): another process, another directory, nothing but
 * the brokers (KAFKA_BROKERS and TOPIC_PREFIX of the fleet's `env`).
 */
export type Audit = { code: number | null; out: string; err: string; ms: number };

/**
 * The audit of `ids`, split over AUDITORS processes at once. A replay from Kafka is now mostly CPU
 * (Node's start, the book rebuild and the solve: reads go to the leaders without a consumer group),
 * so two processes, one per core, do as well as more.
 */
export async function runAuditor(
  env: Readonly<Record<string, string>>,
  ids: readonly string[],
): Promise<Audit> {
  const t0 = Date.now();
  const parts = Array.from({ length: AUDITORS }, (_, k) => ids.filter((_, i) => i % AUDITORS === k));
  const runs = await Promise.all(parts.filter((p) => p.length > 0).map((p) => auditOnce(env, p)));
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
  env: Readonly<Record<string, string>>,
  ids: readonly string[],
): Promise<{ code: number | null; out: string; err: string; ms: number }> {
  const cwd = mkdtempSync(join(tmpdir(), 'route-auditor-'));
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/route-service.mjs'), 'replay', 'quote', '-'], {
      cwd,
      env: {
        PATH: process.env.PATH,
        KAFKA_BROKERS: env.KAFKA_BROKERS,
        TOPIC_PREFIX: env.TOPIC_PREFIX,
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
