import { describe, expect, it } from 'vitest';
import { refPath, refProof, refRoot, someLeaves } from '../test/reference';
import type { Hash } from './hash';
import { MemoryHashColumn } from './hash-column';
import { HashTree } from './hash-tree';
import type { NodeId } from './tree-math';
import { verifyConsistency, verifyInclusion } from './verify';

const hex = (hs: readonly Uint8Array[]): string[] => hs.map((h) => Buffer.from(h).toString('hex'));

/** A tree over in-memory columns that outlive it, as files would a process. */
function store(stride: number) {
  const columns = new Map<number, MemoryHashColumn>();
  const column = (level: number) => {
    let c = columns.get(level);
    if (c === undefined) columns.set(level, (c = new MemoryHashColumn()));
    return c;
  };
  const pinned: [NodeId, Hash][] = [];
  const open = () => new HashTree({ stride, column, pinned });
  return { open, columns, pinned };
}

function value<T>(r: { ok: true; value: T } | { ok: false; missing: NodeId }): T {
  if (!r.ok) throw new Error(`missing node ${r.missing.level}/${r.missing.index}`);
  return r.value;
}

describe('HashTree', () => {
  it.each([1, 3, 4])('stride %d: roots and proofs at every size equal the definitions', (stride) => {
    const leaves = someLeaves(70);
    const tree = store(stride).open();
    for (const leaf of leaves) tree.append(leaf);
    expect(hex([tree.root()])).toEqual(hex([refRoot(leaves)]));
    for (let n = 1; n <= 70; n += 3) {
      expect(hex([value(tree.rootAt(n))])).toEqual(hex([refRoot(leaves.slice(0, n))]));
      for (let i = 0; i < n; i += 5)
        expect(hex(value(tree.inclusion(i, n)))).toEqual(hex(refPath(i, leaves.slice(0, n))));
      for (let m = 1; m <= n; m += 4)
        expect(hex(value(tree.consistency(m, n)))).toEqual(hex(refProof(m, leaves.slice(0, n))));
    }
  });

  it('stores the leaves and every 4th level: 1/15 over the leaves', () => {
    const s = store(4);
    const tree = s.open();
    for (const leaf of someLeaves(4096)) tree.append(leaf);
    const held = [...s.columns.values()].reduce((n, c) => n + c.end, 0);
    expect(held).toBe(4096 + 256 + 16 + 1);
  });

  it('reopens from its columns with the same root and size', () => {
    const s = store(4);
    const leaves = someLeaves(300);
    const tree = s.open();
    for (const leaf of leaves.slice(0, 123)) tree.append(leaf);
    const again = s.open();
    expect(again.size).toBe(123);
    for (const leaf of leaves.slice(123)) again.append(leaf);
    expect(hex([again.root()])).toEqual(hex([refRoot(leaves)]));
  });

  it('retention drops old leaves but keeps every later proof and every kept checkpoint provable', () => {
    const s = store(4);
    const leaves = someLeaves(1000);
    const tree = s.open();
    for (const leaf of leaves.slice(0, 700)) tree.append(leaf);
    const checkpoints = [5, 37, 300, 511, 513, 640, 690];
    s.pinned.push(...tree.retain(512, checkpoints));
    expect(tree.firstLeaf).toBe(512);
    expect(s.pinned.length).toBeGreaterThan(0);
    expect(s.pinned.length).toBeLessThanOrEqual(checkpoints.length * 2 * 4);
    expect(s.columns.get(0)!.start).toBe(512);
    // A restart sees the same tree: pins and columns are all it has.
    const reopened = s.open();
    for (const leaf of leaves.slice(700)) reopened.append(leaf);
    for (const n of [700, 701, 850, 1000]) {
      const head = leaves.slice(0, n);
      const root = value(reopened.rootAt(n));
      expect(hex([root])).toEqual(hex([refRoot(head)]));
      for (const m of checkpoints) {
        const path = value(reopened.consistency(m, n));
        expect(hex(path), `${m} -> ${n}`).toEqual(hex(refProof(m, head)));
        expect(verifyConsistency(m, n, refRoot(leaves.slice(0, m)), root, path)).toEqual({ ok: true });
      }
      for (const i of [512, 513, 600, 699, n - 1]) {
        const path = value(reopened.inclusion(i, n));
        expect(verifyInclusion(i, n, leaves[i]!, path, root)).toEqual({ ok: true });
      }
    }
    for (const m of checkpoints)
      expect(hex([value(reopened.rootAt(m))])).toEqual(hex([refRoot(leaves.slice(0, m))]));
    // Dropped leaves and sizes no checkpoint kept are gone, and say so.
    expect(reopened.inclusion(3, 900).ok).toBe(false);
    expect(reopened.rootAt(200).ok).toBe(false);
    expect(() => reopened.retain(520, [])).toThrow(RangeError);
  });
});
