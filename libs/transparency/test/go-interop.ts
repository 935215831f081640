/**
 * Builds and runs test/go-interop (Go, against golang.org/x/mod/sumdb/note and
 * github.com/transparency-dev/merkle from the Go module proxy). The module cache and build cache
 * live under ~/.cache/route-service/go so a second run, and CI on the same machine, reuse them:
 * the first build downloads two small modules and compiles for about 30 s.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { tempDir } from '@test/support';

const CACHE = join(homedir(), '.cache', 'route-service', 'go');

/** The go command's environment: private caches, the committed go.sum, no toolchain download. */
export const GO_ENV = {
  ...process.env,
  GOPATH: CACHE,
  GOMODCACHE: join(CACHE, 'mod'),
  GOCACHE: join(CACHE, 'build'),
  GOFLAGS: '-mod=mod',
  GOTOOLCHAIN: 'local',
};

export interface Interop {
  /** Run one mode with a JSON request: its exit status and JSON answer. */
  run(mode: string, request: object): { status: number | null; out: Record<string, unknown> };
  /** A file of a module the program was built against, e.g. ('golang.org/x/mod', 'sumdb/note/note_test.go'). */
  moduleFile(module: string, path: string): string;
  remove(): void;
}

export function buildInterop(): Interop {
  const dir = tempDir('go-interop');
  cpSync(join(__dirname, 'go-interop'), dir.path, { recursive: true });
  const go = (args: string[]): string => {
    try {
      return execFileSync('go', args, { cwd: dir.path, env: GO_ENV, encoding: 'utf8', timeout: 240_000 });
    } catch (e) {
      const err = e as { code?: string; stderr?: string };
      throw new Error(
        err.code === 'ENOENT' ? 'the go command is not installed' : `go ${args.join(' ')}: ${err.stderr}`,
      );
    }
  };
  go(['build', '-o', 'interop', '.']);
  const bin = join(dir.path, 'interop');
  return {
    run(mode, request) {
      const r = spawnSync(bin, [mode], { input: JSON.stringify(request), encoding: 'utf8', timeout: 60_000 });
      if (r.status === 2 || r.stdout === '') throw new Error(`interop ${mode}: ${r.stderr}`);
      return { status: r.status, out: JSON.parse(r.stdout) as Record<string, unknown> };
    },
    moduleFile(module, path) {
      const { Dir } = JSON.parse(go(['list', '-m', '-json', module])) as { Dir: string };
      return readFileSync(join(Dir, path), 'utf8');
    },
    remove: () => dir.remove(),
  };
}
