import { TLOG } from '@app/events';
import { partitionFor, type EventLog } from '@app/event-log';
import {
  HASH_BYTES,
  HashTree,
  isKeyName,
  MemoryHashColumn,
  nodeKey,
  openCheckpoint,
  parseCheckpointText,
  rootNodes,
  sameHash,
  type Checkpoint,
  type Hash,
  type HashColumn,
  type VerifierKey,
} from '@app/transparency';
import { RECENT_KEYS, RecentKeys } from './recent-keys';
import { parseTlogEntry, type LeafRef, type TlogEntry } from './tlog-entry';
import { prefixMismatch, PrefixReader, type TlogPrefix } from './tlog-prefix';
import { scanLeavesEntry, type PackedLeaves } from './leaves-scan';

/** One signed checkpoint as the tlog holds it. */
export interface KeptCheckpoint {
  readonly checkpoint: Checkpoint;
  /** The signed note, verbatim. */
  readonly note: string;
}

/** An origin's tree as its tlog entries build it, and what in them does not fit. */
export interface OriginTree {
  readonly tree: HashTree;
  /** Leaf firstLeaf + i's record: where it is and its hash (held only when asked for: `keepLeaves`). */
  readonly leaves: LeafRef[];
  /** The first leaf the tlog still lists: the size of the prefix it starts from, else 0. */
  readonly firstLeaf: number;
  /** The newest prefix's size (0 without one). */
  readonly prefixSize: number;
  /** The size of every checkpoint the tree keeps provable: its prefix's and each one read, in order. */
  readonly checkpointSizes: number[];
  /** Leaf index by journal key, for the newest keys (the last leaf of a key that appears twice). */
  readonly byKey: RecentKeys;
  /** Checkpoints in log order, each checked against the tree of its size. */
  readonly checkpoints: KeptCheckpoint[];
  /** Entries that do not fit the tree: a gap, an overlap, a checkpoint whose root differs, an unreadable entry. */
  readonly problems: string[];
}

/** Entries per read: a leaves entry is up to about 0.5 MB (2,000 leaves of 200-character keys). */
const CHUNK = 64;

/**
 * The tlog entries of `origin`, in log order (other origins' skipped); unreadable ones as problems.
 * From `start` on: 0 reads all the log holds (below an embedded log's retention horizon it keeps
 * each origin's newest prefix and what follows it; Kafka starts at its log start).
 */
export async function* tlogEntries(
  log: EventLog,
  origin: string,
  problems: string[],
  start = 0,
): AsyncGenerator<TlogEntry | PackedLeaves> {
  const scan = isKeyName(origin);
  const p = partitionFor(origin, await log.partitions(TLOG));
  const end = (await log.highWatermarks(TLOG))[p] ?? 0;
  for (let from = start; from < end;) {
    const batch = await log.read(TLOG, p, from, Math.min(CHUNK, end - from));
    if (batch.length === 0) break;
    for (const e of batch) {
      if (e.key !== origin) continue;
      // Leaves entries as the service writes them are scanned, anything else parsed as JSON.
      const packed = scan ? scanLeavesEntry(e.value, origin) : null;
      if (packed !== null) {
        yield packed;
        continue;
      }
      const parsed = parseTlogEntry(e.value);
      if (!parsed.ok) problems.push(`tlog@${e.offset}: ${parsed.error}`);
      else if (parsed.entry.origin !== origin) problems.push(`tlog@${e.offset}: entry of another origin`);
      else yield parsed.entry;
    }
    from = batch[batch.length - 1]!.offset + 1;
  }
}

export interface ReadTreeOptions {
  readonly keys?: readonly VerifierKey[];
  readonly keepLeaves?: boolean;
  /** How many of the newest keys `byKey` holds (default RECENT_KEYS). */
  readonly recentKeys?: number;
  /** Where the tree keeps its hashes (default: in memory). */
  readonly column?: (level: number, first: number) => HashColumn;
  /**
   * 'prefix' (the service at start): from the origin's newest prefix on, which the log indexes as
   * a snapshot entry, and from the start when it has none; 'all' (the auditor, default): all the
   * log holds, every checkpoint in it checked.
   */
  readonly from?: 'all' | 'prefix';
}

/**
 * Rebuild an origin's tree from its tlog: leaves entries must continue the tree exactly (`from`
 * equal to its size), every checkpoint must have the root of the tree at its size. A prefix read
 * first starts the tree past its dropped leaves (the signed roots after it check it); one read
 * after the leaves it covers must fit them. With `keys`, checkpoints must also open with one of
 * them (the auditor); without, their text is trusted (the service reading back what it signed).
 */
export async function readOriginTree(
  log: EventLog,
  origin: string,
  options: ReadTreeOptions = {},
): Promise<OriginTree> {
  if (options.from === 'prefix') {
    const ends = await log.highWatermarks(TLOG);
    const p = partitionFor(origin, ends.length);
    const start = (await log.rebuildStarts(TLOG, ends))[p] ?? 0;
    // Entries before the origin's first prefix from there on are covered by it: skipped.
    const fast = start > 0 ? await buildTree(log, origin, options, start) : null;
    if (fast !== null) return fast;
  }
  return (await buildTree(log, origin, options, null))!;
}

/** The tree from offset `skipTo` on (null: from the start), or null when no prefix was found there. */
async function buildTree(
  log: EventLog,
  origin: string,
  options: ReadTreeOptions,
  skipTo: number | null,
): Promise<OriginTree | null> {
  const problems: string[] = [];
  const column = options.column ?? ((_: number, first: number) => new MemoryHashColumn(first));
  let made: HashTree | null = null;
  const open = (p?: TlogPrefix): HashTree =>
    new HashTree({ column, ...(p === undefined ? {} : { start: p.size, pinned: p.nodes }) });
  const byKey = new RecentKeys(options.recentKeys ?? RECENT_KEYS);
  const leaves: LeafRef[] = [];
  const checkpoints: KeptCheckpoint[] = [];
  const sizes: number[] = [];
  let prefixSize = 0;
  const prefixes = new PrefixReader();
  for await (const entry of tlogEntries(log, origin, problems, skipTo ?? 0)) {
    if (entry.type !== 'tlog_prefix') prefixes.interrupt();
    if (entry.type === 'tlog_prefix') {
      const p = prefixes.add(entry);
      if (p === null) continue;
      prefixSize = p.size;
      if (made === null) {
        const problem = rootless(p);
        if (problem !== null) {
          problems.push(problem);
          continue;
        }
        made = open(p);
        sizes.push(...p.checkpoints);
      } else {
        const wrong = prefixMismatch(made, p);
        if (wrong !== null) problems.push(wrong);
      }
      continue;
    }
    if (made === null && skipTo !== null) continue;
    const tree = (made ??= open());
    if (entry.type === 'tlog_leaves' || entry.type === 'tlog_leaves_packed') {
      const packed = entry.type === 'tlog_leaves' ? pack(entry.from, entry.leaves) : entry;
      const problem = addLeaves(tree, packed, byKey, options.keepLeaves === true ? leaves : null);
      if (problem !== null) problems.push(problem);
      continue;
    }
    const kept = checkpointOf(entry.note, origin, options.keys);
    if (typeof kept === 'string') {
      problems.push(kept);
      continue;
    }
    const { size, root } = kept.checkpoint;
    const at = size <= tree.size ? tree.rootAt(size) : null;
    if (at === null) problems.push(`checkpoint of ${size} leaves where the tlog holds ${tree.size}`);
    else if (!at.ok || !sameHash(at.value, root))
      problems.push(
        `checkpoint of ${size} leaves: its root is not the root of the tlog's first ${size} leaves`,
      );
    else {
      checkpoints.push(kept);
      sizes.push(size);
    }
  }
  if (made === null && skipTo !== null) return null;
  // Index the keys now: the entries' texts the scanned keys were sliced from can then go.
  byKey.get('');
  const tree = made ?? open();
  return {
    tree,
    leaves,
    firstLeaf: tree.firstLeaf,
    prefixSize,
    checkpointSizes: sizes,
    byKey,
    checkpoints,
    problems,
  };
}

function checkpointOf(note: string, origin: string, keys?: readonly VerifierKey[]): KeptCheckpoint | string {
  if (keys !== undefined) {
    const opened = openCheckpoint(note, origin, keys);
    return opened.ok
      ? { checkpoint: opened.checkpoint, note }
      : `checkpoint refused: ${opened.failure} (${opened.detail})`;
  }
  const blank = note.lastIndexOf('\n\n');
  const checkpoint = blank < 0 ? null : parseCheckpointText(note.slice(0, blank + 1));
  return checkpoint === null ? 'checkpoint entry is not a signed checkpoint' : { checkpoint, note };
}

/**
 * Leaves continuing the tree exactly, or why they do not: a gap, or leaves it has already that
 * differ (a retried append may write an entry twice; only what follows the repeat is new).
 */
function addLeaves(
  tree: HashTree,
  e: PackedLeaves,
  byKey: RecentKeys,
  refs: LeafRef[] | null,
): string | null {
  if (e.from > tree.size) return `leaves from ${e.from} where the tree has ${tree.size}: leaves missing`;
  const again = Math.min(tree.size - e.from, e.keys.length);
  for (let i = 0; i < again; i++)
    if (!sameLeaf(tree, e.from + i, hashAt(e, i)))
      return `leaf ${e.from + i} written twice with different hashes`;
  for (let i = again; i < e.keys.length; i++) {
    const hash = hashAt(e, i);
    byKey.set(e.keys[i]!, tree.size);
    // A copy: the packed buffer is the entry's, and refs outlive it.
    if (refs !== null) refs.push({ topic: e.topics[i]!, key: e.keys[i]!, hash: Buffer.from(hash) });
    tree.append(hash);
  }
  return null;
}

const hashAt = (e: PackedLeaves, i: number): Hash => e.hashes.subarray(i * HASH_BYTES, (i + 1) * HASH_BYTES);

/** Why a prefix cannot start a tree (it lacks a node of its own root), or null. */
function rootless(p: TlogPrefix): string | null {
  const held = new Set(p.nodes.map(([id]) => nodeKey(id)));
  const lacking = rootNodes(p.size).find((id) => !held.has(nodeKey(id)));
  return lacking === undefined
    ? null
    : `prefix of ${p.size} leaves lacks node ${nodeKey(lacking)} of its root`;
}

/** Leaves parsed as JSON, packed as the scanner packs them. */
function pack(from: number, leaves: readonly LeafRef[]): PackedLeaves {
  return {
    type: 'tlog_leaves_packed',
    from,
    topics: leaves.map((l) => l.topic),
    keys: leaves.map((l) => l.key),
    hashes: Buffer.concat(leaves.map((l) => l.hash)),
  };
}

function sameLeaf(tree: HashTree, index: number, hash: Hash): boolean {
  const held = tree.node({ level: 0, index });
  return held !== null && sameHash(held, hash);
}
