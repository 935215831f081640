import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../../..');

/** A built app (dist/, made by `npm run build`, which `npm test` runs first) as a child process. */
export interface App {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolve once stdout or stderr matches, fail if the process exits first or time runs out. */
  waitFor(what: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  alive(): boolean;
}

/** The environment minus the log settings, so each test chooses its own log. */
function inherited(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of ['KAFKA_BROKERS', 'DATA_DIR', 'TOPIC_PREFIX', 'JOURNAL_STRICT']) delete env[k];
  return env;
}

export function startApp(script: string, args: readonly string[], env: Record<string, string>): App {
  const main = join(ROOT, 'dist', script);
  if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build (npm test does)`);
  const child = spawn(process.execPath, [main, ...args], {
    cwd: ROOT,
    env: { ...inherited(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
    waitFor: async (what, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const m = what.exec(out) ?? what.exec(err);
        if (m !== null) return m;
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(
            `${script} exited (${child.exitCode ?? child.signalCode}) before ${String(what)}:\n${err}`,
          );
        if (Date.now() > deadline)
          throw new Error(`${script}: no ${String(what)} in ${timeoutMs} ms:\n${err.slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}
