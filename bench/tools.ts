/**
 * `npm run bench -- tools`: the wall time of the commands a user types, each spawned in its own
 * process exactly as typed and timed from outside (spawn to exit, or spawn to the first 200 from
 * GET /health): `npm run replay -- quote <id>`, `npm start`, `npm run demo`, and the same entries
 * without npm (`node scripts/run.mjs dist/...`), so npm's own start-up shows as the difference.
 * Run on a built tree (the bench itself runs from dist/).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { quantile, type BenchRow } from './bench-row';
import { freePort } from './ports';
import { spawnHeld } from './processes';

const ROOT = resolve(__dirname, '..', '..');
const QUOTE_RUNS = 10;
const START_RUNS = 5;
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The environment of a user's shell: without the npm_* variables `npm run bench` adds. */
function userEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('npm_')) env[k] = v;
  return { ...env, ...extra };
}

/** Spawn `cmd args` in its own process group (so the whole tree can be stopped). */
function launch(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawnHeld(cmd, cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Stop a launched process group and wait for its leader to exit. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  // SIGKILL: only start-up is measured, and a live ingestor can take seconds to shut down.
  process.kill(-child.pid!, 'SIGKILL');
  await exited;
}

/** Wall ms from spawn to exit; throws unless the exit status is 0. */
async function timeToExit(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const t0 = performance.now();
  const child = launch(cmd, args, env);
  let err = '';
  child.stdout!.resume();
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err}`);
  return ms;
}

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolveGet, reject) => {
    const req = request(url, { timeout: 2000 }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolveGet({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.end();
  });
}

/** Wall ms from spawn to the first 200 from GET /health; the process is stopped afterwards. */
async function timeToHealth(
  cmd: string,
  args: readonly string[],
  port: number,
  dataDir: string,
): Promise<number> {
  const t0 = performance.now();
  const child = launch(cmd, args, userEnv({ DATA_DIR: dataDir }));
  let err = '';
  child.stdout!.resume();
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  try {
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`${cmd} ${args.join(' ')} exited ${child.exitCode}: ${err}`);
      if (performance.now() - t0 > 60_000) throw new Error(`${cmd} ${args.join(' ')}: no /health in 60 s`);
      const ok = await get(`http://127.0.0.1:${port}/health`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return performance.now() - t0;
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    await stop(child);
  }
}

/** Serve the demo recording into `dataDir`, ask for one quote, stop: its requestId is journalled. */
async function journalOneQuote(dataDir: string): Promise<string> {
  const port = await freePort();
  const args = [
    'scripts/run.mjs',
    'dist/apps/api/src/start.js',
    '--replay',
    'replay-data/',
    '--speed',
    'max',
  ];
  const child = launch(process.execPath, [...args, '--port', String(port)], userEnv({ DATA_DIR: dataDir }));
  child.stdout!.resume();
  child.stderr!.resume();
  try {
    const deadline = performance.now() + 120_000;
    for (;;) {
      const r = await get(`http://127.0.0.1:${port}/route?from=USDT&to=BTC&amountIn=1000`).catch(() => null);
      if (r?.status === 200) return (JSON.parse(r.body) as { requestId: string }).requestId;
      if (child.exitCode !== null || performance.now() > deadline)
        throw new Error('the demo server gave no quote');
      await new Promise((res) => setTimeout(res, 50));
    }
  } finally {
    // SIGTERM: a clean stop flushes the quote journal to the log.
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
}

function rows(metric: string, samples: readonly number[]): BenchRow[] {
  return [
    { scenario: 'tools', metric: `${metric} median`, value: quantile(samples, 0.5), unit: 'ms' },
    { scenario: 'tools', metric: `${metric} max`, value: quantile(samples, 1), unit: 'ms' },
  ];
}

export async function benchTools(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-tools-'));
  const out: BenchRow[] = [];
  try {
    const quoteDir = join(dir, 'quote');
    const id = await journalOneQuote(quoteDir);
    const env = userEnv({ DATA_DIR: quoteDir });
    const viaNpm: number[] = [];
    const viaNode: number[] = [];
    // Alternated, so a change of machine load hits both alike; one untimed run of each first.
    for (let i = 0; i <= QUOTE_RUNS; i++) {
      const a = await timeToExit(NPM, ['run', 'replay', '--', 'quote', id], env);
      const b = await timeToExit(
        process.execPath,
        ['scripts/run.mjs', 'dist/apps/replay/src/main.js', 'quote', id],
        env,
      );
      if (i === 0) continue;
      viaNpm.push(a);
      viaNode.push(b);
    }
    out.push(...rows('npm run replay -- quote <id>', viaNpm));
    out.push(...rows('node run.mjs replay quote', viaNode));

    const start: number[] = [];
    const demo: number[] = [];
    const startNode: number[] = [];
    for (let i = 0; i < START_RUNS; i++) {
      // A fresh DATA_DIR each run: `npm start` on a built tree of a new checkout.
      const p = await freePort();
      start.push(await timeToHealth(NPM, ['start', '--', '--port', String(p)], p, join(dir, `start-${i}`)));
      const q = await freePort();
      demo.push(
        await timeToHealth(NPM, ['run', 'demo', '--', '--port', String(q)], q, join(dir, `demo-${i}`)),
      );
      const r = await freePort();
      const direct = [
        '--max-semi-space-size=64',
        'scripts/run.mjs',
        'dist/apps/api/src/start.js',
        '--port',
        String(r),
      ];
      startNode.push(await timeToHealth(process.execPath, direct, r, join(dir, `node-${i}`)));
    }
    out.push(...rows('npm start: first /health', start));
    out.push(...rows('npm run demo: first /health', demo));
    out.push(...rows('node run.mjs start: /health', startNode));
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
