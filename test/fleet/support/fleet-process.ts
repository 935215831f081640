import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { waitFor } from '@test/support';

export const ROOT = resolve(__dirname, '../../..');

/** One parsed JSON console line of a service process. */
export interface Line {
  readonly level: string;
  readonly message: string;
  readonly [field: string]: unknown;
}

/** A built app (dist/) of the fleet as a child process, its JSON log lines parsed. */
export interface FleetProcess {
  readonly name: string;
  readonly child: ChildProcess;
  lines(): Line[];
  stderr(): string;
  alive(): boolean;
  waitForLine(what: string, match: (l: Line) => boolean, timeoutMs?: number): Promise<Line>;
  /** SIGKILL: no clean shutdown, as a crash or an OOM kill. */
  kill(): Promise<void>;
  /** SIGTERM, then SIGKILL after 10 s. */
  stop(): Promise<void>;
}

/** The environment minus the settings each fleet process gets from the test. */
function inherited(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env))
    if (/^(KAFKA_|DATA_DIR|TOPIC_PREFIX|JOURNAL_|REDIS_URL|INGESTOR_|LOG_|RATE_LIMIT|STREAM_MAX)/.test(k))
      delete env[k];
  return env;
}

export function spawnApp(
  name: string,
  script: string,
  args: readonly string[],
  env: Record<string, string>,
): FleetProcess {
  const main = join(ROOT, 'dist', script);
  if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build (npm test does)`);
  const child = spawn(process.execPath, ['--max-semi-space-size=16', main, ...args], {
    cwd: ROOT,
    env: { ...inherited(), LOG_FORMAT: 'json', LOG_SUMMARY_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const alive = (): boolean => child.exitCode === null && child.signalCode === null;
  const lines = (): Line[] =>
    out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Line);
  return {
    name,
    child,
    lines,
    stderr: () => err,
    alive,
    waitForLine: async (what, match, timeoutMs = 60_000) => {
      let found: Line | undefined;
      await waitFor(
        `${name}: ${what}`,
        () => {
          found = lines().find(match);
          if (found === undefined && !alive())
            throw new Error(`${name} exited before ${what}:\n${err.slice(-3000)}`);
          return found !== undefined;
        },
        timeoutMs,
      );
      return found!;
    },
    kill: async () => {
      if (!alive()) return;
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (!alive()) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    },
  };
}
