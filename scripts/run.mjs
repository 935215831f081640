#!/usr/bin/env node
/**
 * `node [node flags] scripts/run.mjs dist/<entry>.js [args...]`: runs a built entry (the bench, and
 * bin/route-service.mjs for every command). Brings dist/ up to date when a source changed
 * (scripts/build.mjs in a child process, so the service never loads the compiler), then runs the
 * built entry in this process with `args` as its argv.
 *
 * With nothing to rebuild this costs a stat per source (a few milliseconds), and it spares the
 * second Node start-up of `node scripts/build.mjs && node dist/...`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isFresh, NO_COMPILER } from './build.mjs';

const here = dirname(fileURLToPath(import.meta.url));

/** Rebuild what changed, then load the built entry `main` (an absolute path) with `args` as its argv. */
export function runBuilt(main, args) {
  if (!isFresh()) {
    const r = spawnSync(process.execPath, [resolve(here, 'build.mjs'), '--quiet'], { stdio: 'inherit' });
    // A production install (no dev dependencies) runs the dist/ it was given.
    const usable = r.status === NO_COMPILER && existsSync(main);
    if (usable) process.stderr.write(`run: running ${main} as built; it may be older than the sources\n`);
    else if (r.status !== 0) process.exit(r.status ?? 1);
  }
  process.argv = [process.argv[0], main, ...args];
  createRequire(import.meta.url)(main);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [entry, ...args] = process.argv.slice(2);
  if (entry === undefined) {
    process.stderr.write('usage: node scripts/run.mjs dist/<entry>.js [args...]\n');
    process.exit(2);
  }
  runBuilt(resolve(entry), args);
}
