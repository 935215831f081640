import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '..', '..');

/** `node scripts/config-default-places.mjs --list`: per key, the files whose code writes its default. */
function places(): Map<string, string[]> {
  const out = execFileSync(process.execPath, ['scripts/config-default-places.mjs', '--list'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const rows = new Map<string, string[]>();
  for (const line of out.split('\n')) {
    const m = /^\s*(\d+)\s{2}(\S+)\s*(.*)$/.exec(line);
    if (m === null) continue;
    const files = m[3]!.split(' ').filter(Boolean);
    expect(files.length, line).toBe(Number(m[1]));
    rows.set(m[2]!, files);
  }
  return rows;
}

describe('config defaults', () => {
  it('each key has its default written in one place, the config table', () => {
    const rows = places();
    expect(rows.size).toBeGreaterThanOrEqual(32);
    const elsewhere = [...rows].filter(
      ([, files]) => !(files.length === 1 && /^libs\/config\/src\//.test(files[0]!)),
    );
    // A second place (a library's `?? 1`, a client's own copy) drifts from the table: pass the value in.
    expect(elsewhere).toEqual([]);
  });
});
