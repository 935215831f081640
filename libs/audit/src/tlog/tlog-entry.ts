import { JOURNAL_TOPICS, STREAM_LEDGER, type JournalTopic } from '@app/events';
import { fromBase64, HASH_BYTES, isKeyName, toBase64, type Hash, type NodeId } from '@app/transparency';

/** The journal topics whose records are leaves. */
export type LeafTopic = JournalTopic | typeof STREAM_LEDGER;
const LEAF_TOPICS: readonly string[] = [...JOURNAL_TOPICS, STREAM_LEDGER];

/** One leaf: where its record is (journal topic and key) and its RFC 6962 leaf hash. */
export interface LeafRef {
  readonly topic: LeafTopic;
  readonly key: string;
  readonly hash: Hash;
}

/**
 * An entry of the `tlog` topic (keyed by origin; docs/audit.md "The log"): the next leaves of the
 * origin's tree, from leaf `from` on, or one of its signed checkpoints.
 */
export type TlogEntry =
  | {
      readonly type: 'tlog_leaves';
      readonly origin: string;
      readonly from: number;
      readonly leaves: readonly LeafRef[];
    }
  | { readonly type: 'tlog_checkpoint'; readonly origin: string; readonly note: string }
  | TlogPrefixPart;

/**
 * One part of a prefix (docs/audit.md "Retention"): what the tree of `size` leaves keeps of the
 * leaves below `size` once the entries before the prefix are dropped. The prefix's checkpoint
 * sizes and nodes are those of its `parts` entries, written one after another, in part order.
 */
export interface TlogPrefixPart {
  readonly type: 'tlog_prefix';
  readonly origin: string;
  readonly size: number;
  readonly part: number;
  readonly parts: number;
  /** Sizes of the checkpoints signed below `size`, each kept provable. */
  readonly checkpoints: readonly number[];
  readonly nodes: readonly (readonly [NodeId, Hash])[];
}

/** Leaves per entry: about 100 bytes each, far below the log's 1 MB record limit. */
export const LEAVES_PER_ENTRY = 2000;

/** Checkpoint sizes plus nodes per prefix part: about 60 bytes a node, far below the 1 MB limit. */
export const PREFIX_ITEMS_PER_ENTRY = 8000;

export function encodeTlogEntry(e: TlogEntry): string {
  if (e.type === 'tlog_prefix')
    return JSON.stringify({
      v: 1,
      type: e.type,
      origin: e.origin,
      size: e.size,
      part: e.part,
      parts: e.parts,
      checkpoints: e.checkpoints,
      nodes: e.nodes.map(([id, h]) => [id.level, id.index, toBase64(h)]),
    });
  if (e.type === 'tlog_checkpoint')
    return JSON.stringify({ v: 1, type: e.type, origin: e.origin, note: e.note });
  return JSON.stringify({
    v: 1,
    type: e.type,
    origin: e.origin,
    from: e.from,
    leaves: e.leaves.map((l) => [l.topic, l.key, toBase64(l.hash)]),
  });
}

/** A tlog entry's text parsed, or why it is not one (every member checked). */
export function parseTlogEntry(text: string): { ok: true; entry: TlogEntry } | { ok: false; error: string } {
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch {
    return { ok: false, error: 'not JSON' };
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return { ok: false, error: 'not an object' };
  const r = o as Record<string, unknown>;
  if (r.v !== 1) return { ok: false, error: 'v is not 1' };
  if (typeof r.origin !== 'string' || !isKeyName(r.origin)) return { ok: false, error: 'bad origin' };
  const origin = r.origin;
  if (r.type === 'tlog_checkpoint') {
    if (!sameKeys(r, ['v', 'type', 'origin', 'note']) || typeof r.note !== 'string')
      return { ok: false, error: 'a checkpoint entry has v, type, origin and note' };
    return { ok: true, entry: { type: 'tlog_checkpoint', origin, note: r.note } };
  }
  if (r.type === 'tlog_prefix') return prefixOf(r, origin);
  if (r.type !== 'tlog_leaves') return { ok: false, error: 'unknown type' };
  if (!sameKeys(r, ['v', 'type', 'origin', 'from', 'leaves']))
    return { ok: false, error: 'a leaves entry has v, type, origin, from and leaves' };
  if (!Number.isSafeInteger(r.from) || (r.from as number) < 0) return { ok: false, error: 'bad from' };
  if (!Array.isArray(r.leaves) || r.leaves.length === 0) return { ok: false, error: 'bad leaves' };
  const leaves: LeafRef[] = [];
  for (const l of r.leaves as unknown[]) {
    const ref = leafOf(l);
    if (ref === null) return { ok: false, error: `bad leaf ${leaves.length}` };
    leaves.push(ref);
  }
  return { ok: true, entry: { type: 'tlog_leaves', origin, from: r.from as number, leaves } };
}

const PREFIX_KEYS = ['v', 'type', 'origin', 'size', 'part', 'parts', 'checkpoints', 'nodes'];

function prefixOf(
  r: Record<string, unknown>,
  origin: string,
): { ok: true; entry: TlogEntry } | { ok: false; error: string } {
  if (!sameKeys(r, PREFIX_KEYS)) return { ok: false, error: `a prefix entry has ${PREFIX_KEYS.join(', ')}` };
  const { size, part, parts, checkpoints, nodes } = r;
  if (!isCount(size) || !isCount(part) || !isCount(parts) || part >= parts)
    return { ok: false, error: 'bad size, part or parts' };
  if (
    !Array.isArray(checkpoints) ||
    !Array.isArray(nodes) ||
    checkpoints.length + nodes.length > PREFIX_ITEMS_PER_ENTRY
  )
    return {
      ok: false,
      error: `checkpoints and nodes are arrays of at most ${PREFIX_ITEMS_PER_ENTRY} items together`,
    };
  if (!checkpoints.every((m) => isCount(m) && m < size)) return { ok: false, error: 'bad checkpoint size' };
  const held: [NodeId, Hash][] = [];
  for (const n of nodes as unknown[]) {
    const node = nodeOf(n, size);
    if (node === null) return { ok: false, error: `bad node ${held.length}` };
    held.push(node);
  }
  return {
    ok: true,
    entry: {
      type: 'tlog_prefix',
      origin,
      size,
      part,
      parts,
      checkpoints: checkpoints as number[],
      nodes: held,
    },
  };
}

const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/** [level, index, hash] of a perfect subtree inside the prefix's `size` leaves. */
function nodeOf(n: unknown, size: number): [NodeId, Hash] | null {
  if (!Array.isArray(n) || n.length !== 3) return null;
  const [level, index, hash] = n as unknown[];
  if (!isCount(level) || level > 53 || !isCount(index) || (index + 1) * 2 ** level > size) return null;
  const bytes = typeof hash === 'string' ? fromBase64(hash, HASH_BYTES) : null;
  return bytes === null ? null : [{ level, index }, bytes];
}

function leafOf(l: unknown): LeafRef | null {
  if (!Array.isArray(l) || l.length !== 3) return null;
  const [topic, key, hash] = l as unknown[];
  if (typeof topic !== 'string' || !LEAF_TOPICS.includes(topic) || typeof key !== 'string') return null;
  const bytes = typeof hash === 'string' ? fromBase64(hash, HASH_BYTES) : null;
  return bytes === null ? null : { topic: topic as LeafTopic, key, hash: bytes };
}

function sameKeys(r: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(r);
  return own.length === keys.length && keys.every((k) => own.includes(k));
}
