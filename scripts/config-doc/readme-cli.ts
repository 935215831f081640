import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { README_PATH, withConfigTables } from './readme-tables';

/**
 * `npm run docs:config`: write the README's flag and environment tables from libs/config's table.
 * With --check, write nothing and exit 1 when the README differs (test/docs/config-tables.int.spec.ts
 * does the same in the test run).
 */
async function main(): Promise<void> {
  const root = resolve(__dirname, '../../..');
  const path = resolve(root, README_PATH);
  const now = readFileSync(path, 'utf8');
  const next = await withConfigTables(now, root);
  if (process.argv.includes('--check')) {
    if (next === now) return;
    process.stderr.write(
      `${README_PATH}: the configuration tables differ from libs/config; run npm run docs:config\n`,
    );
    process.exit(1);
  }
  if (next !== now) writeFileSync(path, next);
  process.stdout.write(next === now ? `${README_PATH} is up to date\n` : `wrote ${README_PATH}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
