import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { refLeaf, refPath, refProof, refRoot, someLeaves, SparseTree, type H } from '../test/reference';
import { CompactRange } from './compact-range';
import { EMPTY_ROOT, leafHash, nodeHash } from './hash';
import { assemble, consistencyPlan, inclusionPlan, planNodes, rootNodes, mergeNodes } from './proof-plan';
import { chainInclusion, verifyConsistency, verifyInclusion } from './verify';

const hex = (h: Uint8Array): string => Buffer.from(h).toString('hex');

// Printed by libs/transparency/test/mth.sh (sha256sum and xxd, no code of ours); the Go interop
// test also checks this library against transparency-dev/merkle's own RFC 6962 constants.
const EIGHT_LEAVES = [
  '',
  '00',
  '10',
  '2021',
  '3031',
  '40414243',
  '5051525354555657',
  '606162636465666768696a6b6c6d6e6f',
];
const ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];

/** Proof hashes for a plan over an array of leaf hashes, through the plan's own node lookups. */
function fromLeaves(leaves: readonly H[]) {
  const node = (id: { level: number; index: number }): H =>
    refRoot(leaves.slice(id.index * 2 ** id.level, (id.index + 1) * 2 ** id.level));
  return { node, prove: (plan: ReturnType<typeof inclusionPlan>) => assemble(plan, node) };
}

/** Every way tampering with a valid inclusion input should be caught. */
function inclusionTampers(index: number, size: number, leaf: H, path: H[], root: H) {
  const flip = (h: H, bit: number): H => {
    const c = Buffer.from(h);
    const at = Math.floor(bit / 8);
    c[at] = c[at]! ^ (1 << (bit % 8));
    return c;
  };
  const out: [string, () => boolean][] = [
    ['other leaf', () => verifyInclusion(index, size, flip(leaf, 0), path, root).ok],
    ['other root', () => verifyInclusion(index, size, leaf, path, flip(root, 255)).ok],
    ['path + 1', () => verifyInclusion(index, size, leaf, [...path, leaf], root).ok],
    ['path with a hash before', () => verifyInclusion(index, size, leaf, [root, ...path], root).ok],
  ];
  path.forEach((_, i) =>
    out.push([
      `bit of path[${i}]`,
      () =>
        verifyInclusion(
          index,
          size,
          leaf,
          path.map((p, j) => (j === i ? flip(p, i) : p)),
          root,
        ).ok,
    ]),
  );
  if (path.length > 0)
    out.push(['path - 1', () => verifyInclusion(index, size, leaf, path.slice(0, -1), root).ok]);
  // Not the index or size: for some pairs (the last leaf of 3 and the middle one) one path fits
  // both, which is why a checkpoint signs the size and a receipt the leaf index.
  return out;
}

describe('RFC 6962 hashes', () => {
  it('match values computed from the definition with sha256sum', () => {
    expect(hex(EMPTY_ROOT)).toBe(ROOTS[0]);
    expect(hex(leafHash(Buffer.from('L123456')))).toBe(
      '395aa064aa4c29f7010acfe3f25db9485bbd4b91897b6ad7ad547639252b4d56',
    );
    expect(hex(nodeHash(Buffer.from('N123'), Buffer.from('N456')))).toBe(
      'aa217fe888e47007fa15edab33c2b492a722cb106c64667fc2b044444de66bbb',
    );
    const range = new CompactRange();
    expect(hex(range.root())).toBe(ROOTS[0]);
    EIGHT_LEAVES.forEach((data, i) => {
      range.append(leafHash(Buffer.from(data, 'hex')));
      expect(hex(range.root()), `size ${i + 1}`).toBe(ROOTS[i + 1]);
    });
  });
});

describe('proofs against the RFC 6962 recursive definitions', () => {
  it('inclusion paths equal PATH(m, D[n]), verify, and every tamper is caught', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.nat(), fc.nat(), (size, i, seed) => {
        const leaves = someLeaves(size, seed);
        const index = i % size;
        const path = fromLeaves(leaves).prove(inclusionPlan(index, size));
        expect(path.map(hex)).toEqual(refPath(index, leaves).map(hex));
        const root = refRoot(leaves);
        expect(verifyInclusion(index, size, leaves[index]!, path, root)).toEqual({ ok: true });
        for (const [what, passes] of inclusionTampers(index, size, leaves[index]!, path, root))
          expect(passes(), what).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it('consistency paths equal PROOF(m, D[n]), verify, and every tamper is caught', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 200 }), fc.nat(), fc.nat(), (size2, m, seed) => {
        const leaves = someLeaves(size2, seed);
        const size1 = 1 + (m % (size2 - 1)); // 1 <= size1 < size2
        const path = fromLeaves(leaves).prove(consistencyPlan(size1, size2));
        expect(path.map(hex)).toEqual(refProof(size1, leaves).map(hex));
        const root1 = refRoot(leaves.slice(0, size1));
        const root2 = refRoot(leaves);
        expect(verifyConsistency(size1, size2, root1, root2, path)).toEqual({ ok: true });
        const flipped = (i: number) => path.map((p, j) => (j === i ? nodeHash(p, p) : p));
        const bad: [string, () => boolean][] = [
          ['other old root', () => verifyConsistency(size1, size2, root2, root2, path).ok],
          ['other new root', () => verifyConsistency(size1, size2, root1, root1, path).ok],
          ['path - 1', () => verifyConsistency(size1, size2, root1, root2, path.slice(0, -1)).ok],
          ['path + 1', () => verifyConsistency(size1, size2, root1, root2, [...path, root1]).ok],
          ['hash before', () => verifyConsistency(size1, size2, root1, root2, [root1, ...path]).ok],
          ['swapped', () => verifyConsistency(size1, size2, root2, root1, path).ok],
          ...path.map((_, i): [string, () => boolean] => [
            `path[${i}]`,
            () => verifyConsistency(size1, size2, root1, root2, flipped(i)).ok,
          ]),
        ];
        for (const [what, passes] of bad) expect(passes(), what).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it('a shorter proof of a smaller tree does not pass for a larger size signed with its root', () => {
    // RFC 9162's final "sn is 0" checks: without them a log could sign (size n, root of n' < n).
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 130 }), fc.nat(), fc.nat(), (n, a, b) => {
        const leaves = someLeaves(n);
        const small = 2 + (a % (n - 2)); // 2 <= small < n
        const m = 1 + (b % (small - 1)); // 1 <= m < small
        const head = leaves.slice(0, small);
        const lying = refRoot(head);
        // Where the two sizes give paths of one length and shape, nothing can tell them apart.
        if (refProof(m, head).length !== refProof(m, leaves).length)
          expect(verifyConsistency(m, n, refRoot(leaves.slice(0, m)), lying, refProof(m, head)).ok).toBe(
            false,
          );
        if (refPath(m, head).length !== refPath(m, leaves).length)
          expect(verifyInclusion(m, n, leaves[m]!, refPath(m, head), lying).ok).toBe(false);
        // One hash too many is refused for its length (steps 4a and 6a), before any root is compared.
        const root1 = refRoot(leaves.slice(0, m));
        const longer = [...refProof(m, leaves), root1];
        expect(verifyConsistency(m, n, root1, refRoot(leaves), longer)).toEqual({
          ok: false,
          failure: 'bad_proof_length',
        });
        const longPath = [...refPath(m, leaves), root1];
        expect(verifyInclusion(m, n, leaves[m]!, longPath, refRoot(leaves))).toEqual({
          ok: false,
          failure: 'bad_proof_length',
        });
      }),
      { numRuns: 300 },
    );
  });

  it('the compact range gives MTH after every append, and restarts from rootNodes(size)', () => {
    const leaves = someLeaves(200);
    const range = new CompactRange();
    leaves.forEach((leaf, i) => {
      range.append(leaf);
      expect(hex(range.root())).toBe(hex(refRoot(leaves.slice(0, i + 1))));
    });
    const node = fromLeaves(leaves).node;
    const again = new CompactRange(137, rootNodes(137).map(node));
    for (const leaf of leaves.slice(137)) again.append(leaf);
    expect(hex(again.root())).toBe(hex(range.root()));
    expect(hex(mergeNodes(rootNodes(200).map(node)))).toBe(hex(range.root()));
  });
});

describe('edge cases a verifier must refuse', () => {
  const [a, b] = someLeaves(2);
  it('consistency: from size 0, sizes out of order, equal sizes with a path or other roots', () => {
    expect(verifyConsistency(0, 5, EMPTY_ROOT, a!, [])).toEqual({ ok: false, failure: 'empty_tree' });
    expect(verifyConsistency(0, 0, EMPTY_ROOT, EMPTY_ROOT, [])).toEqual({ ok: false, failure: 'empty_tree' });
    expect(verifyConsistency(6, 5, a!, b!, [a!])).toEqual({ ok: false, failure: 'sizes_out_of_order' });
    expect(verifyConsistency(5, 5, a!, a!, [])).toEqual({ ok: true });
    expect(verifyConsistency(5, 5, a!, b!, [])).toEqual({ ok: false, failure: 'root_mismatch' });
    expect(verifyConsistency(5, 5, a!, a!, [a!])).toEqual({ ok: false, failure: 'bad_proof_length' });
    expect(verifyConsistency(1, 2, a!, b!, [])).toEqual({ ok: false, failure: 'bad_proof_length' });
    expect(verifyConsistency(1, 2, a!, b!, [a!.subarray(1)])).toEqual({
      ok: false,
      failure: 'bad_hash_length',
    });
    expect(verifyConsistency(2 ** 53, 2 ** 53, a!, a!, [])).toEqual({ ok: false, failure: 'bad_size' });
  });

  it('inclusion: index at or past the size, a one-leaf tree, short hashes, unsafe sizes', () => {
    expect(verifyInclusion(0, 1, a!, [], a!)).toEqual({ ok: true });
    expect(verifyInclusion(1, 1, a!, [], a!)).toEqual({ ok: false, failure: 'index_out_of_range' });
    expect(verifyInclusion(0, 0, a!, [], a!)).toEqual({ ok: false, failure: 'index_out_of_range' });
    expect(verifyInclusion(0, 1, a!, [b!], a!)).toEqual({ ok: false, failure: 'bad_proof_length' });
    expect(verifyInclusion(0, 2, a!, [b!.subarray(0, 31)], a!)).toEqual({
      ok: false,
      failure: 'bad_hash_length',
    });
    expect(verifyInclusion(-1, 2, a!, [b!], a!)).toEqual({ ok: false, failure: 'bad_size' });
    expect(verifyInclusion(0, 2 ** 53, a!, [b!], a!)).toEqual({ ok: false, failure: 'bad_size' });
    expect(() => inclusionPlan(0, 2 ** 53)).toThrow(RangeError);
    expect(() => consistencyPlan(3, 2)).toThrow(RangeError);
  });
});

describe('64-bit sizes (past 2^32, up to 2^53 - 1)', () => {
  const cases: [number, number][] = [
    [2 ** 32 + 5, 2 ** 33 + 7],
    [2 ** 32 - 1, 2 ** 32 + 1],
    [2 ** 40 + 12345, 2 ** 41 - 3],
    [2 ** 52 + 1, 2 ** 53 - 1],
    [2 ** 53 - 2, 2 ** 53 - 1],
  ];
  it.each(cases)(
    'leaf %d of a tree of %d leaves is proven, and not at the index 2^32 below',
    (index, size) => {
      const tree = new SparseTree(size, [index, index - 2 ** 32, size - 1]);
      const node = (id: { level: number; index: number }) => tree.node(id)!;
      const root = mergeNodes(rootNodes(size).map(node));
      const path = assemble(inclusionPlan(index, size), node);
      expect(path.length).toBeGreaterThanOrEqual(32);
      expect(verifyInclusion(index, size, tree.leaf(index), path, root)).toEqual({ ok: true });
      // A truncating shift would treat index and index - 2^32 alike; the other leaf is special too.
      expect(verifyInclusion(index - 2 ** 32, size, tree.leaf(index), path, root).ok).toBe(false);
      expect(chainInclusion(index, size, tree.leaf(index), path)).toEqual(root);
    },
  );

  it.each(cases)('the tree of %d leaves is consistent with that of %d', (size1, size2) => {
    const tree = new SparseTree(size2, [size1 - 1, size1, size2 - 1, 2 ** 31]);
    const node = (id: { level: number; index: number }) => tree.node(id)!;
    const root1 = mergeNodes(rootNodes(size1).map(node));
    const root2 = mergeNodes(rootNodes(size2).map(node));
    const plan = consistencyPlan(size1, size2);
    const path = assemble(plan, node);
    expect(planNodes(plan).every((id) => tree.node(id) !== null)).toBe(true);
    expect(verifyConsistency(size1, size2, root1, root2, path)).toEqual({ ok: true });
    expect(verifyConsistency(size1 - 2 ** 31, size2, root1, root2, path).ok).toBe(false);
  });

  it('leaf hashes of the reference and the library agree', () => {
    expect(hex(refLeaf(Buffer.from('x')))).toBe(hex(leafHash(Buffer.from('x'))));
  });
});
