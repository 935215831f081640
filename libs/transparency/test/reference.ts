/**
 * A second, deliberately naive RFC 6962 implementation for the specs to compare against: MTH,
 * PATH and PROOF written as the RFC's recursive definitions over an array of leaf hashes, sharing
 * nothing with src/ but the two hash functions.
 */
import { createHash } from 'node:crypto';

export type H = Buffer;

export const refLeaf = (data: Uint8Array): H =>
  createHash('sha256')
    .update(Buffer.from([0]))
    .update(data)
    .digest();
export const refNode = (l: H, r: H): H =>
  createHash('sha256')
    .update(Buffer.from([1]))
    .update(l)
    .update(r)
    .digest();

const split = (n: number): number => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};

/** RFC 6962 2.1: MTH(D[n]) from leaf hashes. */
export function refRoot(leaves: readonly H[]): H {
  if (leaves.length === 0) return createHash('sha256').digest();
  if (leaves.length === 1) return leaves[0]!;
  const k = split(leaves.length);
  return refNode(refRoot(leaves.slice(0, k)), refRoot(leaves.slice(k)));
}

/** RFC 6962 2.1.1: PATH(m, D[n]). */
export function refPath(m: number, leaves: readonly H[]): H[] {
  if (leaves.length <= 1) return [];
  const k = split(leaves.length);
  return m < k
    ? [...refPath(m, leaves.slice(0, k)), refRoot(leaves.slice(k))]
    : [...refPath(m - k, leaves.slice(k)), refRoot(leaves.slice(0, k))];
}

/** RFC 6962 2.1.2: PROOF(m, D[n]) = SUBPROOF(m, D[n], true). */
export function refProof(m: number, leaves: readonly H[]): H[] {
  const sub = (m: number, d: readonly H[], b: boolean): H[] => {
    if (m === d.length) return b ? [] : [refRoot(d)];
    const k = split(d.length);
    return m <= k
      ? [...sub(m, d.slice(0, k), b), refRoot(d.slice(k))]
      : [...sub(m - k, d.slice(k), false), refRoot(d.slice(0, k))];
  };
  return m === 0 || m === leaves.length ? [] : sub(m, leaves, true);
}

/** `count` distinct leaf hashes from a seed. */
export function someLeaves(count: number, seed = 0): H[] {
  return Array.from({ length: count }, (_, i) => refLeaf(Buffer.from(`leaf ${seed}/${i}`)));
}

/**
 * A consistent tree of any size up to 2^53 - 1 without storing it: every leaf is the same filler
 * except the few `special` ones, so a perfect subtree without a special leaf has one hash per
 * level and any node costs O(53 * specials) hashes. Lets the specs and the Go interop test prove
 * leaves past 2^32, where a 32-bit shift would go wrong.
 */
export class SparseTree {
  private readonly filler: H[] = [];
  private readonly memo = new Map<string, H>();
  private readonly special: Map<number, H>;

  constructor(
    readonly size: number,
    special: Iterable<number>,
  ) {
    this.special = new Map([...special].map((i) => [i, refLeaf(Buffer.from(`special ${i}`))]));
    this.filler.push(refLeaf(Buffer.from('filler')));
    for (let l = 1; l <= 53; l++) this.filler.push(refNode(this.filler[l - 1]!, this.filler[l - 1]!));
  }

  leaf(index: number): H {
    return this.special.get(index) ?? this.filler[0]!;
  }

  node(id: { level: number; index: number }): H | null {
    const width = 2 ** id.level;
    const begin = id.index * width;
    if (begin + width > this.size) return null;
    if (id.level === 0) return this.leaf(id.index);
    if (![...this.special.keys()].some((s) => s >= begin && s < begin + width)) return this.filler[id.level]!;
    const key = `${id.level}/${id.index}`;
    let h = this.memo.get(key);
    if (h === undefined) {
      h = refNode(
        this.node({ level: id.level - 1, index: id.index * 2 })!,
        this.node({ level: id.level - 1, index: id.index * 2 + 1 })!,
      );
      this.memo.set(key, h);
    }
    return h;
  }
}
