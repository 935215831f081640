import { describe, expect, it } from 'vitest';
import { refPath, refProof, refRoot, someLeaves } from '../test/reference';
import { MemoryHashColumn } from './hash-column';
import { HashTree, type Proved } from './hash-tree';
import { treePrefix } from './tree-prefix';

const hex = (hs: readonly Uint8Array[]): string[] => hs.map((h) => Buffer.from(h).toString('hex'));

function value<T>(r: Proved<T>): T {
  if (!r.ok) throw new Error(`missing node ${r.missing.level}/${r.missing.index}`);
  return r.value;
}

const N = 40;
const leaves = someLeaves(N);

/** A tree of `k` leaves cut to its prefix (kept sizes `keep`), then grown to N as a restart would. */
function cut(k: number, keep: readonly number[], stride: number): HashTree {
  const full = new HashTree({ stride, column: () => new MemoryHashColumn() });
  for (const leaf of leaves.slice(0, k)) full.append(leaf);
  const pinned = value(treePrefix(full, k, keep));
  const tree = new HashTree({ stride, start: k, pinned, column: (_, first) => new MemoryHashColumn(first) });
  expect(tree.size).toBe(k);
  expect(tree.firstLeaf).toBe(k);
  for (const leaf of leaves.slice(k)) tree.append(leaf);
  return tree;
}

describe('treePrefix', () => {
  it.each([1, 4])(
    'stride %d: after the cut, every later root and proof from a kept or later size is the definition',
    (stride) => {
      for (let k = 1; k <= 36; k++) {
        // Every size below the cut kept: the hardest case (an auditor may hold any checkpoint).
        const keep = Array.from({ length: k - 1 }, (_, i) => i + 1);
        const tree = cut(k, keep, stride);
        // Sizes just past the cut, where proofs mix kept nodes and new leaves, and the largest.
        for (const n of new Set([k, k + 1, k + 2, k + 3, k + 5, N].filter((x) => x <= N))) {
          const head = leaves.slice(0, n);
          expect(hex([value(tree.rootAt(n))]), `${k}: root ${n}`).toEqual(hex([refRoot(head)]));
          for (let m = 1; m <= n; m++)
            expect(hex(value(tree.consistency(m, n))), `${k}: ${m} -> ${n}`).toEqual(hex(refProof(m, head)));
          for (let i = k; i < n; i++)
            expect(hex(value(tree.inclusion(i, n))), `${k}: leaf ${i} of ${n}`).toEqual(
              hex(refPath(i, head)),
            );
        }
        for (const m of keep)
          expect(hex([value(tree.rootAt(m))])).toEqual(hex([refRoot(leaves.slice(0, m))]));
      }
    },
  );

  it('a dropped leaf and a size no checkpoint kept are gone, and say so', () => {
    const tree = cut(21, [13], 4);
    expect(tree.inclusion(3, 30).ok).toBe(false);
    expect(tree.inclusion(17, 30).ok).toBe(false);
    expect(tree.inclusion(21, 30).ok).toBe(true);
    expect(tree.rootAt(2).ok).toBe(false);
    expect(tree.consistency(2, 30).ok).toBe(false);
    expect(hex(value(tree.consistency(13, 30)))).toEqual(hex(refProof(13, leaves.slice(0, 30))));
  });

  it('keeps a few nodes per kept size, sorted, the same for the same input', () => {
    const full = new HashTree({ column: () => new MemoryHashColumn() });
    for (const leaf of someLeaves(5000)) full.append(leaf);
    const keep = [1, 77, 1000, 1023, 1024, 3333];
    const a = value(treePrefix(full, 4321, keep));
    expect(a.length).toBeLessThanOrEqual((keep.length + 1) * 2 * 13);
    expect(a.map(([id]) => [id.level, id.index])).toEqual(
      [...a].sort(([x], [y]) => x.level - y.level || x.index - y.index).map(([id]) => [id.level, id.index]),
    );
    expect(hex(value(treePrefix(full, 4321, keep)).map(([, h]) => h))).toEqual(hex(a.map(([, h]) => h)));
  });
});
