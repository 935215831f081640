/**
 * Tree-size arithmetic on plain numbers, exact for every size up to Number.MAX_SAFE_INTEGER
 * (2^53 - 1). JavaScript's bitwise operators truncate to 32 bits, so nothing here uses them:
 * halving is Math.floor(n / 2) and bit tests are remainders, both exact on safe integers.
 */

/** A perfect subtree: leaves [index * 2^level, (index + 1) * 2^level). */
export interface NodeId {
  readonly level: number;
  readonly index: number;
}

/** The largest tree size (and leaf index + 1) this library handles. */
export const MAX_TREE_SIZE = Number.MAX_SAFE_INTEGER;

/** Throws unless `n` is an integer in [0, MAX_TREE_SIZE]: a caller's bug, not an input to judge. */
export function assertSize(n: number, what: string): void {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new RangeError(`${what} must be an integer in [0, 2^53 - 1]: ${n}`);
}

/** The largest power of two strictly below n (n >= 2): where RFC 6962 splits a tree of n leaves. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** The leaves a node covers, [begin, end). */
export function nodeRange(id: NodeId): { begin: number; end: number } {
  const width = 2 ** id.level;
  return { begin: id.index * width, end: (id.index + 1) * width };
}

/**
 * The perfect subtrees that make up the range [begin, end), left to right, largest first: the
 * range's compact form. Merged right to left with nodeHash they give MTH(D[begin:end]) when the
 * range is one RFC 6962 recursion reaches (begin a multiple of the power of two at or above its
 * length), which every proof and root here asks for.
 */
export function rangeNodes(begin: number, end: number): NodeId[] {
  const out: NodeId[] = [];
  let at = begin;
  while (at < end) {
    let level = 0;
    let width = 1;
    while (at % (width * 2) === 0 && at + width * 2 <= end) {
      width *= 2;
      level++;
    }
    out.push({ level, index: at / width });
    at += width;
  }
  return out;
}

/** A node's key for maps and sets. */
export function nodeKey(id: NodeId): string {
  return `${id.level}/${id.index}`;
}
