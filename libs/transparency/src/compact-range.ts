import { EMPTY_ROOT, nodeHash, type Hash } from './hash';
import { mergeNodes, rootNodes } from './proof-plan';
import { assertSize, MAX_TREE_SIZE, type NodeId } from './tree-math';

/** Called for every perfect subtree an append completes: the new leaf, then each new parent. */
export type OnNode = (id: NodeId, hash: Hash) => void;

/**
 * The incremental tree: the hashes of the perfect subtrees that make up leaves [0, size) (one per
 * set bit of size), so an append costs O(log n) hashes at worst (amortised 2) and the root
 * O(log n), with no other storage. A store restarts it from the hashes of rootNodes(size).
 */
export class CompactRange {
  private readonly byLevel: (Hash | undefined)[] = [];
  private count: number;

  /** `hashes`: those of rootNodes(size), in that order (left to right). */
  constructor(size = 0, hashes: readonly Hash[] = []) {
    assertSize(size, 'tree size');
    const ids = rootNodes(size);
    if (ids.length !== hashes.length)
      throw new RangeError(`a tree of ${size} leaves has ${ids.length} roots`);
    ids.forEach((id, i) => (this.byLevel[id.level] = hashes[i]));
    this.count = size;
  }

  get size(): number {
    return this.count;
  }

  /** Append one leaf hash; `onNode` sees each subtree it completes, lowest first. */
  append(leaf: Hash, onNode?: OnNode): void {
    if (this.count >= MAX_TREE_SIZE) throw new RangeError('tree is full');
    let hash = leaf;
    let level = 0;
    let index = this.count;
    onNode?.({ level, index }, hash);
    while (index % 2 === 1) {
      hash = nodeHash(this.byLevel[level]!, hash);
      this.byLevel[level] = undefined;
      level++;
      index = (index - 1) / 2;
      onNode?.({ level, index }, hash);
    }
    this.byLevel[level] = hash;
    this.count++;
  }

  /** MTH of the whole range: the root of the tree of `size` leaves. */
  root(): Hash {
    if (this.count === 0) return EMPTY_ROOT;
    return mergeNodes(this.hashes());
  }

  /** The perfect subtree hashes, left to right (largest first), as rootNodes(size) lists them. */
  hashes(): Hash[] {
    const out: Hash[] = [];
    for (let level = this.byLevel.length - 1; level >= 0; level--) {
      const h = this.byLevel[level];
      if (h !== undefined) out.push(h);
    }
    return out;
  }
}
