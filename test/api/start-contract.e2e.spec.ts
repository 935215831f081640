import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from './support/http';
import { T0 } from '../support/records';

// The start contract (README): the built all-in-one entry run as a child process, as a user runs it.
const ROOT = resolve(__dirname, '../..');
const MAIN = join(ROOT, 'dist/apps/api/src/start.js');
const FIXTURE = join(ROOT, 'test/api/fixtures/world.jsonl');
const children: ChildProcess[] = [];
const dirs: string[] = [];

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'api-start-'));
  dirs.push(d);
  return d;
}

/** Start `npm start`'s entry with args; resolves with its base URL once it prints where it listens. */
const stdoutOf = new Map<string, () => string>();

function start(args: string[], env: Record<string, string> = {}): Promise<string> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build (npm test does)`);
  const child = spawn(process.execPath, [MAIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: tempDir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolveUrl, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /"message":"listening","port":(\d+)/.exec(out);
      if (m !== null) {
        const url = `http://127.0.0.1:${m[1]}`;
        stdoutOf.set(url, () => out);
        resolveUrl(url);
      }
    });
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

function run(args: string[], env: Record<string, string> = {}): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [MAIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: tempDir(), ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: r.status, stderr: r.stderr };
}

afterAll(async () => {
  // Wait for each server to stop (it flushes its journal and index on SIGTERM) before removing its data.
  await Promise.all(
    children.map((c) =>
      c.exitCode !== null || c.signalCode !== null
        ? Promise.resolve()
        : new Promise<void>((r) => {
            c.once('exit', () => r());
            c.kill('SIGTERM');
          }),
    ),
  );
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}, 30_000);

describe('start contract', () => {
  it('an unknown flag or invalid value exits non-zero at once, naming every bad key', () => {
    const r = run(['--replay', FIXTURE, '--sped', 'max', '--port', 'http'], {
      RATE_LIMIT_RPS: 'lots',
      STALE_BOOK_MS: '-1',
    });
    expect(r.status).toBe(2);
    for (const key of ['--sped', '--port', 'RATE_LIMIT_RPS', 'STALE_BOOK_MS'])
      expect(r.stderr).toContain(key);
  });

  it('--replay <file> --speed max --now serves the recording at the pinned instant', async () => {
    const url = await start([
      '--replay',
      FIXTURE,
      '--speed',
      'max',
      '--now',
      String(T0),
      '--port',
      '0',
      '--host',
      '::',
    ]);
    const r = await call(url, '/route?from=USDT&to=BTC&amountIn=100.1&bridges=');
    expect(r.status).toBe(200);
    expect(r.body.calculatedAt).toBe(T0);
    expect(r.body.amountOut).toBeCloseTo(1, 9);
    expect((await call(url, '/symbols')).body).toEqual({ symbols: ['BTC/USDT', 'ETH/BTC', 'XRP/USDT'] });
    expect((await call(`http://[::1]:${new URL(url).port}`, '/health')).status).toBe(403);
  });

  it('--replay <dir> merges *.jsonl by receivedAt; without --now the clock is the replayed time', async () => {
    const dir = tempDir();
    const lines = readFileSync(FIXTURE, 'utf8').trim().split('\n');
    writeFileSync(join(dir, 'a.jsonl'), `${lines.slice(0, 7).join('\n')}\n`);
    writeFileSync(join(dir, 'b.jsonl'), `${lines.slice(7).join('\n')}\n`);
    writeFileSync(join(dir, 'ignored.txt'), 'not a recording');
    const url = await start(['--replay', dir, '--speed=max', '--port=0']);
    const r = await call(url, '/route?from=USDT&to=BTC&amountIn=100.1&bridges=');
    expect(r.body.calculatedAt).toBe(T0);
    expect(r.body.amountOut).toBeCloseTo(1, 9);
  });

  it('a malformed line is skipped with a warning naming file and line; the rest is served', async () => {
    const dir = tempDir();
    copyFileSync(FIXTURE, join(dir, 'a.jsonl'));
    writeFileSync(join(dir, 'b.jsonl'), '{"v":1,"type":"book","exchangeId":"alpha"}\n');
    const url = await start(['--replay', dir, '--speed', 'max', '--now', String(T0), '--port', '0']);
    expect((await call(url, '/route?from=USDT&to=BTC&amountIn=100.1&bridges=')).status).toBe(200);
    // Every log line is a JSON line on stdout (LOG_FORMAT auto, stdout not a terminal).
    const warning = stdoutOf.get(url)!()
      .split('\n')
      .find((l) => l.includes('replay line skipped'));
    expect(JSON.parse(warning!)).toMatchObject({
      file: join(dir, 'b.jsonl'),
      line: 1,
      problem: expect.stringMatching(/^rejected record book alpha: /),
    });
  });
});
