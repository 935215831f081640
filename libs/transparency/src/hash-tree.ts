import { CompactRange } from './compact-range';
import { EMPTY_ROOT, nodeHash, type Hash } from './hash';
import type { HashColumn } from './hash-column';
import {
  assemble,
  consistencyPlan,
  inclusionPlan,
  mergeNodes,
  planNodes,
  rootNodes,
  type ProofPlan,
} from './proof-plan';
import { nodeKey, nodeRange, type NodeId } from './tree-math';

/** Where a proof's hashes come from: the hash of a perfect subtree, or null when not held. */
export interface NodeSource {
  node(id: NodeId): Hash | null;
}

/** A proof or root, or the first node the store no longer holds (dropped by retention). */
export type Proved<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly missing: NodeId };

export interface HashTreeOptions {
  /** Levels stored: 0, stride, 2 * stride, ...; a node between is rehashed from up to 2^(stride-1) stored ones. */
  readonly stride?: number;
  /**
   * A column for stored level `level` (opened or created by the caller); a new one starts at
   * index `first`: 0, or past the nodes below `start`.
   */
  readonly column: (level: number, first: number) => HashColumn;
  /**
   * A tree whose leaves below `start` were dropped (a tlog prefix): its new columns start there and
   * `pinned` holds the nodes below it that its root and later proofs need (treePrefix's).
   */
  readonly start?: number;
  /** Nodes kept by earlier retain() calls (the caller persists what retain returns). */
  readonly pinned?: Iterable<readonly [NodeId, Hash]>;
}

/**
 * The log's Merkle tree over a store: leaf hashes (level 0) and every stride-th level of perfect
 * subtrees in HashColumns, plus pinned nodes retention kept. Roots at any size and proofs for any
 * pair of sizes cost O(log n) reads and at most 2^stride hashes per node; the stored levels above
 * 0 add 1/(2^stride - 1) to the leaves' space. Appends keep a CompactRange, so the current root
 * is O(log n) hashes with no reads at all.
 */
export class HashTree implements NodeSource {
  readonly stride: number;
  private readonly columns: HashColumn[] = [];
  private readonly pins = new Map<string, Hash>();
  private readonly range: CompactRange;

  constructor(private readonly options: HashTreeOptions) {
    this.stride = options.stride ?? 4;
    if (!Number.isInteger(this.stride) || this.stride < 1 || this.stride > 16)
      throw new RangeError('stride in 1..16');
    for (const [id, hash] of options.pinned ?? []) this.pins.set(nodeKey(id), hash);
    const start = options.start ?? 0;
    for (let c = 0; c * this.stride <= 53; c++)
      this.columns.push(options.column(c * this.stride, Math.floor(start / 2 ** (c * this.stride))));
    const size = this.columns[0]!.end;
    const frontier = rootNodes(size).map((id) => this.node(id));
    if (frontier.some((h) => h === null)) throw new RangeError('store lacks the nodes of its own root');
    this.range = new CompactRange(size, frontier as Hash[]);
  }

  get size(): number {
    return this.range.size;
  }

  /** The leaves still held start here. */
  get firstLeaf(): number {
    return this.columns[0]!.start;
  }

  /** Append one leaf hash (the caller hashed the record with leafHash). */
  append(leaf: Hash): void {
    this.range.append(leaf, (id, hash) => {
      if (id.level % this.stride === 0) this.columns[id.level / this.stride]!.append(hash);
    });
  }

  /** The root at the current size. */
  root(): Hash {
    return this.range.root();
  }

  node(id: NodeId): Hash | null {
    // The leaf column's count, not this.size: the constructor asks before the range exists.
    if (nodeRange(id).end > this.columns[0]!.end) return null;
    const pinned = this.pins.get(nodeKey(id));
    if (pinned !== undefined) return pinned;
    if (id.level % this.stride === 0) {
      const column = this.columns[id.level / this.stride]!;
      return id.index >= column.start && id.index < column.end ? column.get(id.index) : null;
    }
    const left = this.node({ level: id.level - 1, index: id.index * 2 });
    const right = left && this.node({ level: id.level - 1, index: id.index * 2 + 1 });
    return left && right && nodeHash(left, right);
  }

  /** The root of the tree of `size` leaves (size <= current size). */
  rootAt(size: number): Proved<Hash> {
    if (size === 0) return { ok: true, value: EMPTY_ROOT };
    const ids = rootNodes(size);
    const got = this.fetch(ids);
    return got.ok ? { ok: true, value: mergeNodes(got.value) } : got;
  }

  /** The inclusion path of leaf `index` in the tree of `size` leaves. */
  inclusion(index: number, size: number): Proved<Hash[]> {
    return this.prove(inclusionPlan(index, size), size);
  }

  /** The consistency path from the tree of `size1` leaves to that of `size2`. */
  consistency(size1: number, size2: number): Proved<Hash[]> {
    return this.prove(consistencyPlan(size1, size2), size2);
  }

  /**
   * Drop the leaves below `firstLeaf` (a multiple of 2^stride), first pinning the few low nodes
   * there that later proofs still need: the root, and the consistency path to any later size, of
   * each checkpoint size in `keepSizes`. Higher stored levels stay whole, so inclusion paths of
   * kept leaves still resolve. Returns the new pins for the caller to persist.
   */
  retain(firstLeaf: number, keepSizes: readonly number[]): [NodeId, Hash][] {
    const block = 2 ** this.stride;
    if (firstLeaf % block !== 0 || firstLeaf > this.size)
      throw new RangeError(`cannot drop to leaf ${firstLeaf}`);
    const added: [NodeId, Hash][] = [];
    for (const m of keepSizes) {
      if (m === 0 || m >= firstLeaf) continue; // its low nodes sit in kept leaves
      // Inside m's block the consistency recursion is the same for every later size.
      const blockEnd = Math.ceil(m / block) * block;
      const ids = [...rootNodes(m), ...planNodes(consistencyPlan(m, blockEnd))];
      for (const id of ids) {
        const key = nodeKey(id);
        if (id.level >= this.stride || this.pins.has(key)) continue;
        const hash = this.node(id);
        if (hash === null) throw new RangeError(`checkpoint ${m} already lacks node ${key}`);
        this.pins.set(key, hash);
        added.push([id, hash]);
      }
    }
    this.columns[0]!.dropBefore(firstLeaf);
    return added;
  }

  private prove(plan: ProofPlan, size: number): Proved<Hash[]> {
    if (size > this.size) throw new RangeError(`tree size ${size} is above the log's ${this.size}`);
    const ids = planNodes(plan);
    const got = this.fetch(ids);
    if (!got.ok) return got;
    const byKey = new Map(ids.map((id, i) => [nodeKey(id), got.value[i]!]));
    return { ok: true, value: assemble(plan, (id) => byKey.get(nodeKey(id))!) };
  }

  private fetch(ids: readonly NodeId[]): Proved<Hash[]> {
    const out: Hash[] = [];
    for (const id of ids) {
      const h = this.node(id);
      if (h === null) return { ok: false, missing: id };
      out.push(h);
    }
    return { ok: true, value: out };
  }
}
