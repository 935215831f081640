import { TLOG } from '@app/events';
import { LogError, type AppendEntry, type EventLog } from '@app/event-log';
import {
  leafHashOfText,
  promiseLines,
  readPromise,
  signCheckpoint,
  nodeKey,
  treePrefix,
  type Hash,
  type HashTree,
  type NodeId,
  type SigningKey,
} from '@app/transparency';
import type { AppendedRecord } from '../journal-entry';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileHashColumn } from './file-hash-column';
import { readOriginTree, type KeptCheckpoint, type OriginTree } from './origin-tree';
import { RECENT_KEYS, type RecentKeys } from './recent-keys';
import { encodeTlogEntry, LEAVES_PER_ENTRY, type LeafRef, type LeafTopic } from './tlog-entry';
import { prefixParts } from './tlog-prefix';

export interface OriginLogOptions {
  readonly log: EventLog;
  /** The origin's key: its name is the origin. */
  readonly key: SigningKey;
  /** The merge delay every checkpoint promises (docs/audit.md "Merge delay"). */
  readonly mergeDelayMs: number;
  /** The clock quotes are calculated by (the checkpoint's `time`). */
  readonly now: () => number;
  /**
   * Whether the promise can be made now: false while journal records may wait unappended (appends
   * failing since the last checkpoint), so a checkpoint never promises what it may not hold.
   */
  readonly promiseKept?: () => boolean;
  /**
   * After this many leaves since the last prefix, a round writes a new one (docs/audit.md
   * "Retention"); absent: never.
   */
  readonly prefixEveryLeaves?: number;
  /** How many of the newest requestIds the proof lookup holds (default RECENT_KEYS). */
  readonly recentKeys?: number;
}

/** Checkpoint sizes per slice of a prefix: about 15 ms of hashing on the project's machine. */
const PREFIX_SLICE = 250;

/** A proof's raw parts: the leaf, the size and checkpoint it is proven under. */
export type LeafLookup =
  | { readonly state: 'proven'; readonly leafIndex: number; readonly checkpoint: KeptCheckpoint }
  | { readonly state: 'pending'; readonly leafIndex: number }
  | { readonly state: 'unknown' };

/**
 * One origin's transparency log, as its API process writes it: journal records become leaves in
 * the order the event log accepted them; checkpoint() makes the durable ones part of the signed
 * tree: it waits for the log's durability, appends the new leaves and a signed checkpoint of the
 * whole tree to the tlog topic in one append, and publishes the checkpoint once that is durable.
 * Leaves take their place in memory at once, so a failed append is retried with the same order.
 */
export class OriginLog {
  private pending: LeafRef[] = [];
  /** Leaves in the tree (and so in its order for good) whose tlog entry is not written yet. */
  private unwritten: LeafRef[] = [];
  private latestCheckpoint: KeptCheckpoint | null;
  private running: Promise<KeptCheckpoint | null> | null = null;
  /** When leaves last joined the tree (the clock of `now`); 0 before. */
  private grewAt = 0;
  /** Every checkpoint size signed, each kept provable by the next prefix. */
  private readonly sizes: number[];
  private prefixSize: number;

  private constructor(
    private readonly options: OriginLogOptions,
    private readonly tree: HashTree,
    private readonly byKey: RecentKeys,
    read: OriginTree,
    private readonly columns: readonly FileHashColumn[],
  ) {
    this.latestCheckpoint = read.checkpoints[read.checkpoints.length - 1] ?? null;
    this.sizes = read.checkpointSizes;
    this.prefixSize = read.prefixSize;
  }

  /**
   * Open the origin's log from what its tlog holds (leaves written after the last checkpoint
   * included: they are durable now). Refuses a tlog whose entries do not fit together: signing
   * on top of it would sign a fork.
   */
  static async open(options: OriginLogOptions): Promise<OriginLog> {
    const recentKeys = options.recentKeys ?? RECENT_KEYS;
    // From the newest prefix while enough leaves follow it for the proof lookup's newest keys
    // (its guarantee: recentKeys / 2); right after a prefix, from all the log holds, as before.
    const fast = await OriginLog.read(options, 'prefix', recentKeys);
    if (fast.read.firstLeaf === 0 || fast.read.tree.size - fast.read.firstLeaf >= recentKeys / 2)
      return OriginLog.opened(options, fast);
    for (const c of fast.columns) c.close();
    return OriginLog.opened(options, await OriginLog.read(options, 'all', recentKeys));
  }

  private static async read(
    options: OriginLogOptions,
    from: 'all' | 'prefix',
    recentKeys: number,
  ): Promise<{ read: OriginTree; columns: FileHashColumn[] }> {
    // The tree's hashes live in unlinked files (a cache of the tlog): disk, not memory.
    const dir = mkdtempSync(join(tmpdir(), 'route-tlog-'));
    const columns: FileHashColumn[] = [];
    const column = (level: number, first: number): FileHashColumn => {
      const c = new FileHashColumn(join(dir, `level-${level}-${columns.length}`), first);
      columns.push(c);
      return c;
    };
    try {
      return {
        read: await readOriginTree(options.log, options.key.name, { column, from, recentKeys }),
        columns,
      };
    } catch (e) {
      for (const c of columns) c.close();
      throw e;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  private static opened(
    options: OriginLogOptions,
    { read, columns }: { read: OriginTree; columns: FileHashColumn[] },
  ): OriginLog {
    if (read.problems.length > 0) {
      for (const c of columns) c.close();
      throw new Error(
        `the transparency log of ${options.key.name} does not fit together: ${read.problems.slice(0, 3).join('; ')}`,
      );
    }
    return new OriginLog(options, read.tree, read.byKey, read, columns);
  }

  /** Release the tree's files (after the last checkpoint). */
  close(): void {
    for (const c of this.columns) c.close();
  }

  get origin(): string {
    return this.options.key.name;
  }

  /** Leaves in the tree, checkpointed or not. */
  get size(): number {
    return this.tree.size;
  }

  get latest(): KeptCheckpoint | null {
    return this.latestCheckpoint;
  }

  /** Records the journal's log accepted (QuoteJournalOptions.onAppended): they wait for durability. */
  appended(topic: LeafTopic, records: readonly AppendedRecord[]): void {
    for (const r of records)
      this.pending.push({ topic, key: r.key, hash: r.leafHash ?? leafHashOfText(r.value) });
  }

  /** Where `key`'s record is in the tree, and the latest checkpoint that holds it. */
  lookup(key: string): LeafLookup {
    const leafIndex = this.byKey.get(key);
    // Unknown, or older than the newest RECENT_KEYS keys (replay verify proves it from the log).
    if (leafIndex === undefined) return { state: 'unknown' };
    const cp = this.latestCheckpoint;
    return cp !== null && leafIndex < cp.checkpoint.size
      ? { state: 'proven', leafIndex, checkpoint: cp }
      : { state: 'pending', leafIndex };
  }

  /** The tree, for proofs up to the latest checkpoint's size. */
  get hashes(): HashTree {
    return this.tree;
  }

  /** Make what is durable now part of a signed checkpoint (one run at a time; a second call joins). */
  checkpoint(): Promise<KeptCheckpoint | null> {
    this.running ??= this.run().finally(() => (this.running = null));
    return this.running;
  }

  private async run(): Promise<KeptCheckpoint | null> {
    const promise = this.options.promiseKept?.() ?? true;
    const taken = this.pending;
    this.pending = [];
    // Records the log accepted before this point survive a crash from here on.
    try {
      await this.options.log.durable();
    } catch (e) {
      // concat, not a spread: a round may carry more leaves than a call takes arguments.
      this.pending = taken.concat(this.pending);
      throw e;
    }
    for (const leaf of taken) {
      this.byKey.set(leaf.key, this.tree.size);
      this.tree.append(leaf.hash);
    }
    this.unwritten = this.unwritten.concat(taken);
    const time = this.options.now();
    if (taken.length > 0) this.grewAt = time;
    if (!this.due(time, promise)) return this.latestCheckpoint;
    const size = this.tree.size;
    const extensions = promise ? promiseLines({ time, mergeDelayMs: this.options.mergeDelayMs }) : [];
    const checkpoint = { origin: this.origin, size, root: this.tree.root(), extensions };
    const note = signCheckpoint(checkpoint, this.options.key);
    const entries = this.leafEntries(size);
    const leafEntries = entries.length;
    const prefix = await this.prefixEntries(size);
    entries.push(...prefix);
    entries.push({
      key: this.origin,
      value: encodeTlogEntry({ type: 'tlog_checkpoint', origin: this.origin, note }),
    });
    try {
      await this.options.log.append(TLOG, entries);
    } catch (e) {
      // Leaves entries the log took stay taken: readers skip a repeated one that matches.
      const took = e instanceof LogError ? (e.appended ?? []).filter((i) => i < leafEntries).length : 0;
      this.unwritten = this.unwritten.slice(took * LEAVES_PER_ENTRY);
      throw e;
    }
    this.unwritten = [];
    if (prefix.length > 0) this.prefixSize = size;
    if (this.sizes[this.sizes.length - 1] !== size) this.sizes.push(size);
    await this.options.log.durable();
    this.latestCheckpoint = { checkpoint, note };
    return this.latestCheckpoint;
  }

  /**
   * A checkpoint is due when the tree grew, when none exists, or until one signed at least the
   * merge delay after the last growth has refreshed the promise (a client whose quote was the
   * last before a quiet spell still gets a checkpoint whose promise covers it).
   */
  private due(time: number, promise: boolean): boolean {
    const last = this.latestCheckpoint;
    if (this.unwritten.length > 0 || last === null || last.checkpoint.size !== this.tree.size) return true;
    const lastTime = readPromise(last.checkpoint)?.time ?? null;
    if (!promise) return false;
    // A clock that does not move (a pinned --now) can promise nothing newer.
    return lastTime === null || (time > lastTime && lastTime < this.grewAt + this.options.mergeDelayMs);
  }

  /**
   * The prefix of the tree of `size` leaves when one is due, written before its checkpoint (which
   * then vouches for it to a reader that starts at it), its first part a snapshot entry: the one
   * a restart reads from and the embedded log's retention keeps.
   */
  private async prefixEntries(size: number): Promise<AppendEntry[]> {
    const every = this.options.prefixEveryLeaves;
    if (every === undefined || size - this.prefixSize < every) return [];
    const checkpoints = [...new Set(this.sizes.filter((m) => m > 0 && m < size))].sort((a, b) => a - b);
    const nodes = new Map<string, readonly [NodeId, Hash]>();
    for (let i = 0; i === 0 || i < checkpoints.length; i += PREFIX_SLICE) {
      const slice = treePrefix(this.tree, size, checkpoints.slice(i, i + PREFIX_SLICE));
      // A node missing here means an earlier prefix left out a size still kept: a bug, not an input.
      if (!slice.ok)
        throw new Error(`the tree lacks node ${slice.missing.level}/${slice.missing.index} for its prefix`);
      for (const n of slice.value) nodes.set(nodeKey(n[0]), n);
      // Only this round changes the tree: requests (proofs included) may run between slices.
      await new Promise((resume) => setImmediate(resume));
    }
    const sorted = [...nodes.values()].sort(([a], [b]) => a.level - b.level || a.index - b.index);
    return prefixParts(this.origin, { size, checkpoints, nodes: sorted }).map((part, i) => ({
      key: this.origin,
      value: encodeTlogEntry(part),
      ...(i === 0 ? { snapshot: true } : {}),
    }));
  }

  private leafEntries(size: number): AppendEntry[] {
    const from = size - this.unwritten.length;
    const entries: AppendEntry[] = [];
    for (let i = 0; i < this.unwritten.length; i += LEAVES_PER_ENTRY)
      entries.push({
        key: this.origin,
        value: encodeTlogEntry({
          type: 'tlog_leaves',
          origin: this.origin,
          from: from + i,
          leaves: this.unwritten.slice(i, i + LEAVES_PER_ENTRY),
        }),
      });
    return entries;
  }
}
