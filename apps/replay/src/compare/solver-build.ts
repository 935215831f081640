import { UsageError } from '@app/config';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Solve } from '@app/audit';

/** Another build's solver, loaded from its compiled files, and what to remove afterwards. */
export interface OtherSolver {
  readonly solve: Solve;
  readonly version: string;
  /** What `--solver` named and how it was resolved (a dist directory, or a ref built to one). */
  readonly label: string;
  readonly dispose: () => void;
}

const ROUTING = join('libs', 'routing', 'src', 'index.js');

/** The compiled routing lib under `dir`: a dist directory, or a checkout whose dist/ holds one. */
function routingIn(dir: string): string | null {
  for (const candidate of [join(dir, ROUTING), join(dir, 'dist', ROUTING)])
    if (existsSync(candidate)) return candidate;
  return null;
}

function load(entry: string, label: string, dispose: () => void): OtherSolver {
  // A require of its own path gives the other build its own module instances (its own SOLVER_VERSION).
  const mod = createRequire(entry)(entry) as { solve?: unknown; SOLVER_VERSION?: unknown };
  if (typeof mod.solve !== 'function') {
    dispose();
    throw new UsageError(`--solver: ${entry} exports no solve function`);
  }
  return {
    solve: mod.solve as Solve,
    version: typeof mod.SOLVER_VERSION === 'string' ? mod.SOLVER_VERSION : 'unknown',
    label,
    dispose,
  };
}

function run(cmd: string, args: string[], cwd: string, input?: Buffer): Buffer {
  const r = spawnSync(cmd, args, { cwd, input, maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'pipe'] });
  if (r.status !== 0)
    throw new UsageError(
      `--solver: ${cmd} ${args.join(' ')} failed: ${r.error?.message ?? r.stderr.toString().trim().slice(0, 2000)}`,
    );
  return r.stdout;
}

/**
 * The solver to compare with: `spec` is a directory holding a build (dist/, or a checkout with a
 * built dist/), else a git ref of the repository around `cwd`, exported with `git archive` into a
 * temporary directory and built there with its own scripts/build.mjs (this checkout's
 * node_modules linked in, so nothing is downloaded). The temporary build is removed by dispose().
 */
export function otherSolver(spec: string, cwd: string): OtherSolver {
  const dir = resolve(cwd, spec);
  if (existsSync(dir)) {
    const entry = routingIn(dir);
    if (entry === null) throw new UsageError(`--solver: no built solver (${ROUTING}) under ${dir}`);
    return load(entry, `build ${dir}`, () => undefined);
  }
  if (spec.startsWith('-') || spec.length > 200)
    throw new UsageError(`--solver: not a directory or git ref: ${spec}`);
  const top = run('git', ['rev-parse', '--show-toplevel'], cwd).toString().trim();
  const commit = run('git', ['rev-parse', '--verify', '--end-of-options', `${spec}^{commit}`], top)
    .toString()
    .trim();
  const tmp = mkdtempSync(join(tmpdir(), 'route-solver-'));
  const dispose = (): void => rmSync(tmp, { recursive: true, force: true });
  try {
    const tar = run('git', ['archive', '--format=tar', commit], top);
    run('tar', ['-x', '-C', tmp], tmp, tar);
    symlinkSync(join(top, 'node_modules'), join(tmp, 'node_modules'), 'dir');
    run(process.execPath, [join(tmp, 'scripts', 'build.mjs'), '--quiet'], tmp);
  } catch (e) {
    dispose();
    throw e;
  }
  const entry = routingIn(tmp);
  if (entry === null) {
    dispose();
    throw new UsageError(`--solver: building ${spec} (${commit}) produced no ${ROUTING}`);
  }
  return load(entry, `git ${spec} (${commit.slice(0, 12)}, built in ${tmp})`, dispose);
}
