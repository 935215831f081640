import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashTree, leafHash, MemoryHashColumn } from '@app/transparency';
import { afterEach, describe, expect, it } from 'vitest';
import { FileHashColumn } from './file-hash-column';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('FileHashColumn', () => {
  it('gives a tree the same roots and proofs as memory, across its write blocks, and leaves no file behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hash-column-'));
    dirs.push(dir);
    const files: FileHashColumn[] = [];
    const onFile = new HashTree({
      column: (level) => {
        const c = new FileHashColumn(join(dir, `level-${level}`));
        files.push(c);
        return c;
      },
    });
    const inMemory = new HashTree({ column: () => new MemoryHashColumn() });
    // More than one 4,096-hash block, so reads come from the file and from the pending block.
    for (let i = 0; i < 10_000; i++) {
      const h = leafHash(Buffer.from(`leaf ${i}`));
      onFile.append(h);
      inMemory.append(h);
    }
    expect(readdirSync(dir)).toEqual([]);
    for (const size of [1, 4_096, 4_097, 9_999, 10_000])
      expect(onFile.rootAt(size)).toEqual(inMemory.rootAt(size));
    for (const index of [0, 4_095, 4_096, 8_191, 9_999])
      expect(onFile.inclusion(index, 10_000)).toEqual(inMemory.inclusion(index, 10_000));
    expect(onFile.consistency(4_097, 10_000)).toEqual(inMemory.consistency(4_097, 10_000));
    for (const c of files) c.close();
  });
});
