import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EventRecord } from '@app/events';
import { logSink, openEventLog, type EventLog } from '@app/event-log';
import { T0 } from '../../support/records';
import { world } from '../../api/support/world';

const ROOT = resolve(__dirname, '../../..');
// The API process alone (it does not load ccxt, so it starts in about a second).
const MAIN = join(ROOT, 'dist/apps/api/src/main.js');

/** The built API serving the fixture world, in a process of its own (so its RSS can be read). */
export interface SpawnedServer {
  readonly port: number;
  readonly pid: number;
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** The server process's resident set size now, in KiB (/proc/<pid>/status). */
  rssKiB(): number;
  /** Open file descriptors of the server process now. */
  openFds(): number;
  /** Of those, the sockets (listening, connections, the log's own). */
  openSockets(): number;
  /** Whether the process is still running. */
  alive(): boolean;
  /** What it wrote to stderr so far. */
  stderr(): string;
  /** What it wrote to stdout so far (JSON log lines). */
  stdout(): string;
  /** Its embedded log's directory. */
  readonly dataDir: string;
  /** Append book records to its log (this process writes `books`; the server folds them). */
  writeBooks(records: readonly EventRecord[]): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The built API process (dist, built by `npm test`) folding an embedded log that holds the API
 * tests' fixture world, with the clock pinned at T0, on a dual-stack socket and a port of its own;
 * `env` sets limits for the test.
 */
export async function spawnServer(
  env: Record<string, string> = {},
  options: { readonly records?: readonly EventRecord[]; readonly args?: readonly string[] } = {},
): Promise<SpawnedServer> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build (npm test does)`);
  const dataDir = mkdtempSync(join(tmpdir(), 'hostile-'));
  const seed = openEventLog({ kafkaBrokers: null, dataDir });
  await logSink(seed).write(options.records ?? world());
  await seed.close();
  let writer: EventLog | null = null;
  const child: ChildProcess = spawn(
    process.execPath,
    [MAIN, ...(options.args ?? ['--now', String(T0)]), '--port', '0', '--host', '::'],
    {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, RATE_LIMIT_RPS: '1000000', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let err = '';
  let out = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const port = await new Promise<number>((resolvePort, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /"message":"listening","port":(\d+)/.exec(out);
      if (m !== null) resolvePort(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
  const pid = child.pid!;
  return {
    port,
    pid,
    url: `http://127.0.0.1:${port}`,
    rssKiB: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN),
    openFds: () => readdirSync(`/proc/${pid}/fd`).length,
    openSockets: () => {
      let n = 0;
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        try {
          if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) n++;
        } catch {
          // closed between the listing and the read
        }
      }
      return n;
    },
    alive: () => child.exitCode === null && child.signalCode === null,
    stderr: () => err,
    stdout: () => out,
    dataDir,
    writeBooks: async (records) => {
      writer ??= openEventLog({ kafkaBrokers: null, dataDir });
      await logSink(writer).write(records);
    },
    stop: async () => {
      await writer?.close();
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
