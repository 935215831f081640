import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { LogConfig } from '@app/config';
import type { EventLog } from '@app/event-log';
import { runReplay } from '../../../apps/replay/src/cli/program';
import { NO_PROGRESS } from '../../../apps/replay/src/cli/progress';

export interface ReplayRun {
  readonly code: number;
  readonly out: string;
  /** stderr, one entry per line. */
  readonly err: string[];
}

export interface ReplayRunOptions {
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The log the command reads, instead of opening one from its flags. */
  readonly openLog?: (config: LogConfig) => EventLog;
  /** Text piped to stdin; absent = stdin is a terminal. */
  readonly stdin?: string;
}

/** Run `replay <argv>` in this process, as the CLI would, capturing stdout and stderr. */
export async function runReplayCli(argv: readonly string[], o: ReplayRunOptions = {}): Promise<ReplayRun> {
  let out = '';
  const err: string[] = [];
  const code = await runReplay(argv, {
    env: o.env ?? { ...process.env, KAFKA_BROKERS: undefined },
    cwd: o.cwd ?? process.cwd(),
    out: (t) => (out += t),
    err: (l) => err.push(...l.split('\n')),
    progress: () => NO_PROGRESS,
    stdin: () => Promise.resolve(o.stdin ?? null),
    ...(o.openLog === undefined ? {} : { openLog: o.openLog }),
  });
  return { code, out, err };
}

/** The built CLI, as a user runs it. */
const BIN = join(resolve(__dirname, '../../..'), 'bin/route-service.mjs');

/**
 * `route-service replay <args>` in a process of its own in `cwd`, as an auditor runs it: no
 * KAFKA_BROKERS or DATA_DIR of the test's environment.
 */
export function spawnReplay(
  cwd: string,
  args: readonly string[],
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, 'replay', ...args], {
      cwd,
      env: { ...process.env, KAFKA_BROKERS: undefined, DATA_DIR: undefined },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => done({ code, out, err }));
  });
}
