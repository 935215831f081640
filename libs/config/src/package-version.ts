import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The version in the project's package.json (the nearest one above this file, built or not). */
export function packageVersion(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const path = join(dir, 'package.json');
    if (existsSync(path)) {
      const v = (JSON.parse(readFileSync(path, 'utf8')) as { version?: unknown }).version;
      if (typeof v === 'string') return v;
    }
    if (dirname(dir) === dir) return 'unknown';
  }
}
