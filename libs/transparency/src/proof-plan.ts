import { nodeHash, type Hash } from './hash';
import { assertSize, nodeKey, rangeNodes, splitPoint, type NodeId } from './tree-math';

/**
 * Which stored hashes a proof needs, so any store (memory, a file read with pread, a database
 * queried in one batch) can serve it: fetch `nodes(plan)`, then `assemble`. Each proof element is
 * MTH of one range of leaves; a range that is not a perfect subtree (only the right border of a
 * tree) is listed as its compact form and rehashed.
 */
export interface ProofPlan {
  /** One entry per proof element, in proof order: the perfect subtrees it is merged from. */
  readonly elements: readonly (readonly NodeId[])[];
}

/** RFC 9162 section 2.1.3.1 PATH(index, D[size]): the audit path of one leaf. */
export function inclusionPlan(index: number, size: number): ProofPlan {
  assertSize(size, 'tree size');
  assertSize(index, 'leaf index');
  if (index >= size) throw new RangeError(`leaf index ${index} is not below tree size ${size}`);
  const ranges: [number, number][] = [];
  let lo = 0;
  let hi = size;
  while (hi - lo > 1) {
    const k = splitPoint(hi - lo);
    if (index < lo + k) {
      ranges.push([lo + k, hi]);
      hi = lo + k;
    } else {
      ranges.push([lo, lo + k]);
      lo += k;
    }
  }
  // PATH lists the deepest sibling first; the descent met them top first.
  return { elements: ranges.reverse().map(([a, b]) => rangeNodes(a, b)) };
}

/**
 * RFC 9162 section 2.1.4.1 PROOF(size1, D[size2]) = SUBPROOF(size1, D[size2], true). Empty when
 * size1 is 0 or equals size2 (nothing to prove; verifyConsistency judges those cases).
 */
export function consistencyPlan(size1: number, size2: number): ProofPlan {
  assertSize(size1, 'first size');
  assertSize(size2, 'second size');
  if (size1 > size2) throw new RangeError(`first size ${size1} is above second size ${size2}`);
  if (size1 === 0 || size1 === size2) return { elements: [] };
  const ranges: [number, number][] = [];
  let lo = 0;
  let hi = size2;
  let whole = true; // SUBPROOF's b: the subtree still starts at leaf 0 of the old tree.
  for (;;) {
    if (size1 === hi) {
      if (!whole) ranges.push([lo, hi]);
      break;
    }
    const k = splitPoint(hi - lo);
    if (size1 <= lo + k) {
      ranges.push([lo + k, hi]);
      hi = lo + k;
    } else {
      ranges.push([lo, lo + k]);
      lo += k;
      whole = false;
    }
  }
  return { elements: ranges.reverse().map(([a, b]) => rangeNodes(a, b)) };
}

/** The perfect subtrees whose merge is the root of the tree of `size` leaves. */
export function rootNodes(size: number): NodeId[] {
  assertSize(size, 'tree size');
  return rangeNodes(0, size);
}

/** Every distinct node a plan reads, in first-use order. */
export function planNodes(plan: ProofPlan): NodeId[] {
  const seen = new Set<string>();
  const out: NodeId[] = [];
  for (const element of plan.elements)
    for (const id of element) {
      const key = nodeKey(id);
      if (!seen.has(key)) {
        seen.add(key);
        out.push(id);
      }
    }
  return out;
}

/** The proof's hashes from the nodes it reads (`lookup` throws when a store lacks one). */
export function assemble(plan: ProofPlan, lookup: (id: NodeId) => Hash): Hash[] {
  return plan.elements.map((nodes) => mergeNodes(nodes.map(lookup)));
}

/** Merge a compact range's hashes, right to left, into the hash of the whole range. */
export function mergeNodes(hashes: readonly Hash[]): Hash {
  let at = hashes.length - 1;
  let acc = hashes[at];
  if (acc === undefined) throw new RangeError('no hashes to merge');
  while (--at >= 0) acc = nodeHash(hashes[at]!, acc);
  return acc;
}
