import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { waitFor } from '@test/support';

const ROOT = resolve(__dirname, '../../..');
export const START_MAIN = join(ROOT, 'dist/apps/api/src/start.js');

/** One parsed console line of a service process (LOG_FORMAT auto on a pipe: JSON). */
export interface LogLine {
  readonly level: string;
  readonly time: string;
  readonly message: string;
  readonly component?: string;
  readonly [field: string]: unknown;
}

/** The built `npm start` entry running as a child process, as a user runs it. */
export interface ServiceProcess {
  readonly child: ChildProcess;
  /** http://127.0.0.1:<port> once it printed its listening line. */
  readonly url: string;
  /** Every stdout line so far, parsed (a line that is not JSON fails the parse, and the test). */
  lines(): LogLine[];
  stderr(): string;
  /** Resolves with the first line (seen or still to come) that `match` accepts. */
  waitForLine(what: string, match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** SIGTERM, then resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Spawn start.js with `args` and `env` (added to this process's) in `cwd`; resolves once it listens. */
export async function startService(
  args: readonly string[],
  env: Record<string, string | undefined>,
  cwd = ROOT,
): Promise<ServiceProcess> {
  if (!existsSync(START_MAIN)) throw new Error(`${START_MAIN} is missing: run npm run build (npm test does)`);
  const child = spawn(process.execPath, [START_MAIN, ...args], {
    cwd,
    env: { ...process.env, LOG_FORMAT: undefined, LOG_LEVEL: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  const lines = (): LogLine[] =>
    out
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as LogLine);
  let dead = false;
  void exited.then(() => (dead = true));
  const waitForLine = async (
    what: string,
    match: (l: LogLine) => boolean,
    timeoutMs = 30_000,
  ): Promise<LogLine> => {
    let found: LogLine | undefined;
    await waitFor(
      what,
      () => {
        if (dead) throw new Error(`the service exited before ${what}: ${err}`);
        found = lines().find(match);
        return found !== undefined;
      },
      timeoutMs,
    );
    return found!;
  };
  const listening = await waitForLine('the listening line', (l) => l.message === 'listening');
  return {
    child,
    url: `http://127.0.0.1:${listening.port as number}`,
    lines,
    stderr: () => err,
    waitForLine,
    stop: async () => {
      if (!dead) child.kill('SIGTERM');
      return exited;
    },
  };
}
