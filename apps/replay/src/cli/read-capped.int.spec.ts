import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCapped } from './read-capped';

const dir = mkdtempSync(join(tmpdir(), 'read-capped-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('readCapped: a file an auditor names, read only up to its bound', () => {
  it('reads a file of exactly the bound, and refuses one byte more', () => {
    const bound = 200_000; // past three 64 KiB pieces
    expect(readCapped(file('at.txt', 'k'.repeat(bound)), bound)).toBe('k'.repeat(bound));
    expect(() => readCapped(file('over.txt', 'k'.repeat(bound + 1)), bound)).toThrow(
      `larger than ${bound} bytes`,
    );
    expect(readCapped(file('empty.txt', ''), bound)).toBe('');
  });

  it('keeps a character whose bytes straddle two pieces', () => {
    const text = 'a'.repeat(64 * 1024 - 1) + 'é€' + 'z';
    expect(readCapped(file('utf8.txt', text), 1 << 20)).toBe(text);
  });

  it('stops a device that states no size and never ends (/dev/zero) at the bound', () => {
    expect(() => readCapped('/dev/zero', 256 * 1024)).toThrow('larger than 262144 bytes');
  });

  it('says why a path cannot be read', () => {
    expect(() => readCapped(join(dir, 'missing.txt'), 10)).toThrow(/ENOENT/);
  });
});
