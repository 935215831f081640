/**
 * Clients the bench compares against but the project does not depend on, installed on demand
 * outside package.json and the lock file: @platformatic/kafka needs Node >= 22.19 through its
 * @platformatic/* dependencies, so as a dev dependency it broke `npm ci` on Node 20 (EBADENGINE).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

/** Where optional bench clients live: under node_modules, so `npm ci` and `git clean` drop them. */
const CACHE = resolve(__dirname, '..', '..', 'node_modules', '.cache', 'route-bench');

/**
 * Load `name@version`, installing it first into its own directory with npm (no lock, no save).
 * Throws with npm's output when the install fails (offline, or a registry without it).
 */
export function requireOptional<T>(name: string, version: string): T {
  const dir = join(CACHE, `${name.replace('/', '+')}@${version}`);
  if (!existsSync(join(dir, 'node_modules', ...name.split('/'), 'package.json'))) {
    mkdirSync(dir, { recursive: true });
    console.error(`bench: installing ${name}@${version} into ${dir} (not a project dependency)`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(
      npm,
      [
        'install',
        '--prefix',
        dir,
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        `${name}@${version}`,
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    if (r.status !== 0) throw new Error(`npm install ${name}@${version} failed:\n${r.stderr}${r.stdout}`);
  }
  // The package is ESM; Node 20.19+ loads ESM through require (no top-level await in it).
  return createRequire(join(dir, 'package.json'))(name) as T;
}
