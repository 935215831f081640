import { sameHash, type Hash, type HashTree, type NodeId } from '@app/transparency';
import { PREFIX_ITEMS_PER_ENTRY, type TlogPrefixPart } from './tlog-entry';

/** A whole prefix: the tree of `size` leaves as kept past its dropped leaves. */
export interface TlogPrefix {
  readonly size: number;
  readonly checkpoints: readonly number[];
  readonly nodes: readonly (readonly [NodeId, Hash])[];
}

/** A prefix cut into entries of at most PREFIX_ITEMS_PER_ENTRY items, checkpoint sizes first. */
export function prefixParts(origin: string, p: TlogPrefix): TlogPrefixPart[] {
  const items = p.checkpoints.length + p.nodes.length;
  const parts = Math.max(1, Math.ceil(items / PREFIX_ITEMS_PER_ENTRY));
  const out: TlogPrefixPart[] = [];
  for (let part = 0; part < parts; part++) {
    const [a, b] = [part * PREFIX_ITEMS_PER_ENTRY, (part + 1) * PREFIX_ITEMS_PER_ENTRY];
    const n = p.checkpoints.length;
    out.push({
      type: 'tlog_prefix',
      origin,
      size: p.size,
      part,
      parts,
      checkpoints: p.checkpoints.slice(Math.min(a, n), Math.min(b, n)),
      nodes: p.nodes.slice(Math.max(a - n, 0), Math.max(b - n, 0)),
    });
  }
  return out;
}

/**
 * Gathers a prefix's parts as the tlog lists them: part 0 starts one, each next part must follow
 * it at once with the same size and count (interrupt() at any other entry). Returns the whole
 * prefix at its last part, else null. A prefix cut short (an append that failed half way, whose
 * round writes it again) or a part out of place is left unused: it changes no tree.
 */
export class PrefixReader {
  private open: Gathering | null = null;

  add(e: TlogPrefixPart): TlogPrefix | null {
    if (e.part === 0) this.open = { size: e.size, parts: e.parts, next: 0, checkpoints: [], nodes: [] };
    const o = this.open;
    if (o === null || e.part !== o.next || e.size !== o.size || e.parts !== o.parts) {
      this.open = null;
      return null;
    }
    o.checkpoints.push(...e.checkpoints);
    for (const n of e.nodes) o.nodes.push([n[0], n[1]]);
    o.next++;
    if (o.next < o.parts) return null;
    this.open = null;
    return { size: o.size, checkpoints: o.checkpoints, nodes: o.nodes };
  }

  interrupt(): void {
    this.open = null;
  }
}

interface Gathering {
  readonly size: number;
  readonly parts: number;
  next: number;
  readonly checkpoints: number[];
  readonly nodes: [NodeId, Hash][];
}

/** Why a prefix read after the leaves it covers does not fit them, or null when it does. */
export function prefixMismatch(tree: HashTree, p: TlogPrefix): string | null {
  if (p.size > tree.size)
    return `prefix of ${p.size} leaves where the tlog holds ${tree.size}: leaves missing`;
  for (const [id, hash] of p.nodes) {
    const held = tree.node(id);
    if (held === null || !sameHash(held, hash))
      return `prefix of ${p.size} leaves: node ${id.level}/${id.index} is not the tree's (leaves changed, reordered or removed)`;
  }
  return null;
}
