import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, join, resolve } from 'node:path';
import { waitFor } from '@test/support';
import { afterEach, describe, expect, it } from 'vitest';

// `npm run bench` stopped in the middle of a scenario (SIGINT to the bench process alone, as `kill
// -INT <pid>` or a CI timeout sends it; a terminal's Ctrl-C also reaches the bench's children)
// leaves nothing behind: every process it started, and whatever they started, is gone, and no
// port it served still answers. Checked from outside, by the process tree under the bench seen
// in /proc before the signal and by the ports the scenario announced.
const ROOT = resolve(__dirname, '../..');
const BENCH = join(ROOT, 'dist/bench/main.js');

/** One process as /proc shows it: the start time tells it from a later process given the same pid. */
interface Proc {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly start: string;
  readonly state: string;
}

function proc(pid: number): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, state: f[0]!, ppid: Number(f[1]), pgid: Number(f[2]), start: f[19]! };
  } catch {
    return null;
  }
}

function all(): Proc[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => proc(Number(d)))
    .filter((p): p is Proc => p !== null && p.state !== 'Z');
}

/** Every live process under `root`, by parent links. */
function descendants(root: number): Proc[] {
  const procs = all();
  const out: Proc[] = [];
  const parents = [root];
  while (parents.length > 0) {
    const p = parents.pop()!;
    for (const c of procs.filter((x) => x.ppid === p)) {
      out.push(c);
      parents.push(c.pid);
    }
  }
  return out;
}

function stillRunning(p: Proc): boolean {
  const now = proc(p.pid);
  return now !== null && now.start === p.start && now.state !== 'Z';
}

function answers(port: number): Promise<boolean> {
  return new Promise((res) => {
    const s = connect({ host: '127.0.0.1', port }, () => {
      s.destroy();
      res(true);
    });
    s.on('error', () => res(false));
    s.setTimeout(2000, () => {
      s.destroy();
      res(false);
    });
  });
}

/** The bench on `scenario`, as a child of this test, with its output collected. */
function startBench(scenario: string, extra: Record<string, string> = {}) {
  expect(existsSync(BENCH), `${BENCH} (npm run build)`).toBe(true);
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  // The bench's own broker, not the tests' one.
  delete env.KAFKA_BROKERS;
  const child = spawn(process.execPath, [BENCH, scenario], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const io = { out: '', err: '' };
  child.stdout.on('data', (c: Buffer) => (io.out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (io.err += c.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  /** SIGINT, then the exit code (or a message when it does not exit within 30 s). */
  const interrupt = (): Promise<number | null | string> => {
    child.kill('SIGINT');
    return Promise.race([
      exited,
      new Promise<string>((r) => setTimeout(() => r('still running 30 s after SIGINT'), 30_000)),
    ]);
  };
  return { child, io, interrupt };
}

const onPath = (name: string): boolean =>
  (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });

describe('the bench, interrupted mid-scenario', () => {
  let bench: ChildProcess | null = null;
  afterEach(() => {
    // A failed expectation must not leave the bench itself running.
    if (bench?.exitCode === null) bench.kill('SIGKILL');
  });

  it('http: SIGINT while the load runs stops both services and the load client, and exits 130', async () => {
    const b = startBench('http', { BENCH_HTTP_SECONDS: '60', BENCH_HTTP_ROUNDS: '1' });
    bench = b.child;
    // Both services listen and the first measured cell is under load.
    await waitFor(
      'the first round',
      () => b.io.err.includes('round 1 of 1') || bench!.exitCode !== null,
      90_000,
    );
    expect(bench.exitCode, b.io.err).toBeNull();
    const ports = [...b.io.err.matchAll(/http:\/\/127\.0\.0\.1:(\d+) \(pid (\d+)/g)].map((m) => Number(m[1]));
    expect(ports).toHaveLength(2);
    for (const port of ports) expect(await answers(port), `port ${port} before the signal`).toBe(true);
    const tree = descendants(bench.pid!);
    // Two services and the load client at least (a service may have started helpers of its own).
    expect(tree.length, JSON.stringify(tree)).toBeGreaterThanOrEqual(3);

    expect(await b.interrupt(), `${b.io.out}\n${b.io.err}`).toBe(130);
    expect(b.io.err).toMatch(/SIGINT during http; stopping .*service rules/);
    // The groups the bench gave its children (not the bench's own, which is the test's).
    const groups = new Set(tree.map((p) => p.pgid).filter((g) => g !== proc(process.pid)?.pgid));
    expect(tree.filter(stillRunning), 'processes the bench started').toEqual([]);
    expect(
      all().filter((p) => groups.has(p.pgid)),
      'processes in their process groups',
    ).toEqual([]);
    for (const port of ports) expect(await answers(port), `port ${port} after the bench exited`).toBe(false);
  }, 150_000);

  // The jar broker outlives the script that starts it (scripts/kafka/kafka.mjs detaches it), so it
  // is no descendant of the bench: found by its port and its data dir. Needs what the bench's
  // `kafka` prerequisite needs; the bench skips the scenario without it too.
  it.skipIf(!onPath('java'))(
    'log-kafka: SIGINT with the jar broker up stops the broker and removes its data, and exits 130',
    async () => {
      const b = startBench('log-kafka');
      bench = b.child;
      const started = /starting a jar Kafka broker on 127\.0\.0\.1:(\d+) \(scripts\/kafka, data in (\S+)\)/;
      await waitFor('the broker line', () => started.test(b.io.err) || bench!.exitCode !== null, 30_000);
      const [, port, dir] = started.exec(b.io.err) ?? [];
      expect(port, b.io.err).toBeDefined();
      await waitFor('the broker to listen', () => answers(Number(port)), 120_000);
      expect(bench.exitCode, b.io.err).toBeNull();

      expect(await b.interrupt(), `${b.io.out}\n${b.io.err}`).toBe(130);
      expect(await answers(Number(port)), `broker port ${port} after the bench exited`).toBe(false);
      const brokers = all().filter((p) => {
        try {
          return readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').includes(dir!);
        } catch {
          return false;
        }
      });
      expect(brokers, `processes using ${dir}`).toEqual([]);
      expect(existsSync(dir!), dir).toBe(false);
    },
    180_000,
  );
});
