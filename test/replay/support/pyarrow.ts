import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The independent Parquet reader of the tests: Apache Arrow's C++ reader, through pyarrow from PyPI. */
export const PYARROW_VERSION = '26.0.1';

/**
 * A Python with pyarrow: a virtualenv under ~/.cache made once (like the Kafka jars the broker
 * helper fetches), so `npm test` on a fresh machine needs only python3 and PyPI. Throws with what
 * is missing rather than skipping: the check is the point of the test.
 */
export function pyarrowPython(): string {
  const dir = join(
    process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
    'route-service',
    `pyarrow-${PYARROW_VERSION}`,
  );
  const python = join(dir, 'bin', 'python');
  const ready = (): boolean =>
    existsSync(python) && spawnSync(python, ['-c', 'import pyarrow'], { encoding: 'utf8' }).status === 0;
  if (ready()) return python;
  mkdirSync(dir, { recursive: true });
  const run = (cmd: string, args: string[]): void => {
    const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 300_000 });
    if (r.status !== 0)
      throw new Error(
        `${cmd} ${args.join(' ')} failed (python3 with venv and PyPI are needed):\n${r.stderr}${r.stdout}`,
      );
  };
  run('python3', ['-m', 'venv', dir]);
  run(python, [
    '-m',
    'pip',
    'install',
    '--quiet',
    '--disable-pip-version-check',
    `pyarrow==${PYARROW_VERSION}`,
  ]);
  if (!ready()) throw new Error(`pyarrow ${PYARROW_VERSION} did not install into ${dir}`);
  return python;
}
