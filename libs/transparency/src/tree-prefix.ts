import type { Hash } from './hash';
import type { NodeSource, Proved } from './hash-tree';
import { consistencyPlan, planNodes, rootNodes } from './proof-plan';
import { nodeKey, type NodeId } from './tree-math';

/**
 * What a tree of `size` leaves keeps when every leaf below `size` is dropped (docs/audit.md
 * "Retention"): the perfect subtrees whose merge is its root (appends go on from them), and for
 * each earlier checkpoint size in `keepSizes` the nodes of its root and of its consistency proof
 * to `size`. With those, every later root, every inclusion proof of a leaf at or past `size` and
 * every consistency proof from a kept size or a later one to any later size resolve: a node of
 * such a proof below `size` is one of these, and one that spans `size` merges them with kept
 * leaves. Sorted by level, then index (the same input, the same bytes).
 */
export function treePrefix(
  source: NodeSource,
  size: number,
  keepSizes: readonly number[],
): Proved<[NodeId, Hash][]> {
  const ids = new Map<string, NodeId>();
  const add = (list: readonly NodeId[]): void => {
    for (const id of list) ids.set(nodeKey(id), id);
  };
  add(rootNodes(size));
  for (const m of keepSizes)
    if (m > 0 && m < size) {
      add(rootNodes(m));
      add(planNodes(consistencyPlan(m, size)));
    }
  const out: [NodeId, Hash][] = [];
  for (const id of [...ids.values()].sort((a, b) => a.level - b.level || a.index - b.index)) {
    const hash = source.node(id);
    if (hash === null) return { ok: false, missing: id };
    out.push([id, hash]);
  }
  return { ok: true, value: out };
}
