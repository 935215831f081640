import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'bin/route-service.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'generate-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** `route-service replay generate <args>` as a user runs it (the built apps). */
function generate(args: readonly string[]): { code: number | null; err: string } {
  const r = spawnSync(process.execPath, [BIN, 'replay', 'generate', ...args], {
    cwd: tmp,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, err: r.stderr };
}

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('replay generate: the demo data, made again from its seed', () => {
  it('--seed 1 writes the committed replay-data byte for byte, and says how many records and bytes', () => {
    const { code, err } = generate(['--out', 'demo', '--seed', '1']);
    expect(code).toBe(0);
    const file = join(tmp, 'demo', 'synthetic-60-venues.jsonl');
    expect(sha256(file)).toBe(sha256(join(ROOT, 'replay-data', 'synthetic-60-venues.jsonl')));
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
    const mb = (statSync(file).size / 1e6).toFixed(2);
    expect(err).toContain(`wrote ${lines} records (${mb} MB) to ${file}`);
    expect(err).toContain('seed 1, synthetic data');
  });

  it('the same flags give the same bytes; another seed gives another market; the venues flag names the file', () => {
    const flags = ['--duration-s', '5', '--venues', '3'];
    expect(generate(['--out', 'a', '--seed', '7', ...flags]).code).toBe(0);
    expect(generate(['--out', 'b', '--seed', '7', ...flags]).code).toBe(0);
    expect(generate(['--out', 'c', '--seed', '8', ...flags]).code).toBe(0);
    const at = (dir: string): string => join(tmp, dir, 'synthetic-3-venues.jsonl');
    expect(sha256(at('a'))).toBe(sha256(at('b')));
    expect(sha256(at('a'))).not.toBe(sha256(at('c')));
    // Every line is one record of the event format, on the three venues asked for.
    const records = readFileSync(at('a'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { v: number; exchangeId: string });
    expect(records.length).toBeGreaterThan(0);
    expect(new Set(records.map((r) => r.v))).toEqual(new Set([1]));
    expect([...new Set(records.map((r) => r.exchangeId))].sort()).toEqual(['sim00', 'sim01', 'sim02']);
  });
});
