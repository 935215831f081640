import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';

const repo = resolve(__dirname, '..', '..', '..');

/** Bundle a TypeScript child script (tsconfig paths honoured) so a plain `node` can run it. */
export function bundle(entry: string): string {
  const outfile = join(mkdtempSync(join(tmpdir(), 'child-')), 'child.js');
  buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    target: 'node20',
    outfile,
    tsconfig: join(repo, 'tsconfig.json'),
    logLevel: 'error',
  });
  return outfile;
}

export interface Child {
  readonly proc: ChildProcess;
  /** Everything printed so far. */
  output(): string;
  /** Resolve once stdout contains `text`. */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<number | null>;
}

export function runChild(script: string, args: readonly string[]): Child {
  const proc = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  proc.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const exited = new Promise<number | null>((res) => proc.on('exit', (code) => res(code)));
  return {
    proc,
    output: () => out,
    exited,
    waitFor: async (text, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      const hit = (): boolean => (typeof text === 'string' ? out.includes(text) : text.test(out));
      while (!hit()) {
        if (proc.exitCode !== null && !hit())
          throw new Error(`child exited (${proc.exitCode}) before printing ${String(text)}; stderr:\n${err}`);
        if (Date.now() > deadline)
          throw new Error(`child did not print ${String(text)} in ${timeoutMs} ms; stderr:\n${err}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}
