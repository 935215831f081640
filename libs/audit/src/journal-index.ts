import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { JournalTopic } from '@app/events';
import { partitionFor, TurnBudget, type EventLog, type LogEntry } from '@app/event-log';
import { retry, asError } from '@app/retry';
import {
  ENTRY,
  keyHash,
  listRuns,
  mergeRuns,
  removeFiles,
  searchRun,
  writeRun,
  type Run,
} from './index-runs';
import { entryBuffer, sortEntries } from './sorted-entries';

/** Where the requestId index of a data directory lives (beside the embedded log's topics). */
export const journalIndexDir = (dataDir: string): string => join(dataDir, 'journal-index');

/** The requestId indexes of both journal topics: `quotes` in journalIndexDir, `stream` in its `stream/`. */
export type JournalIndexes = Readonly<Record<JournalTopic, JournalIndex>>;

/** The indexes of a journal whose index directory is `dir` (journalIndexDir): `quotes` in it, `stream` in its `stream/`. */
export function journalIndexes(log: EventLog, dir: string): JournalIndexes {
  return {
    quotes: new JournalIndex(log, dir, 'quotes'),
    stream: new JournalIndex(log, join(dir, 'stream'), 'stream'),
  };
}

/** Entries read from the log per chunk while scanning the unindexed tail (a lookup). */
const CHUNK = 8192;
/**
 * Entries read per chunk while indexing, on the API's event loop: the embedded log reads and
 * checks a chunk synchronously (about 3 ms for 1024 journal entries, 14 ms for 8192, 2 cores).
 */
const INDEX_CHUNK = 1024;
/** Entries indexed into one run at most (16 bytes each in memory while sorting). */
const MAX_RUN = 1 << 18;
/** Journal entries hashed between two looks at the turn budget (a few hundred microseconds). */
const HASH_CHECK = 256;

/** The journal entries of one key, oldest first, and what finding them cost. */
export interface KeyEntries {
  readonly partition: number;
  readonly entries: LogEntry[];
  /** Entries of the unindexed tail whose key was compared (0 when the index is up to date). */
  readonly scanned: number;
  /** Sorted runs searched (each a binary search: O(log n) reads). */
  readonly runs: number;
}

/**
 * The requestId index of one journal topic (`quotes` or `stream`): per partition, immutable sorted runs of
 * (64-bit hash of the key, offset) covering offsets [0, end) without a gap, merged like a binary
 * counter so a partition has O(log n) runs and a lookup costs O(log² n) small reads, whatever the
 * journal's length. It is derived data: runs are written whole (temporary file, fsync, rename),
 * a crash loses at most the newest ones, and whatever the runs do not cover is read from the log
 * (the indexer covers it again on its next pass). Works over any EventLog (embedded or Kafka).
 */
export class JournalIndex {
  constructor(
    private readonly log: EventLog,
    private readonly dir: string,
    readonly topic: JournalTopic = 'quotes',
  ) {}

  /** Every entry keyed `key`, oldest first: index lookups, then the unindexed tail, each entry's key checked. */
  async entries(key: string): Promise<KeyEntries> {
    const partition = partitionFor(key, await this.log.partitions(this.topic));
    const end = (await this.log.highWatermarks(this.topic))[partition] ?? 0;
    const hash = keyHash(key);
    // The indexer may merge a run away between the listing and the search: list again, at once.
    const { chain, offsets } = await retry(() => this.search(partition, end, hash), {
      attempts: 4,
      initialMs: 0,
      maxMs: 0,
      retryIf: (e) => (e as NodeJS.ErrnoException).code === 'ENOENT',
    });
    const out: LogEntry[] = [];
    for (const offset of offsets.sort((a, b) => a - b)) {
      if (offset >= end) continue;
      const [entry] = await this.log.read(this.topic, partition, offset, 1);
      // A hash collision, or an entry gone to retention, is not this key's.
      if (entry !== undefined && entry.offset === offset && entry.key === key) out.push(entry);
    }
    const from = chain.length === 0 ? 0 : chain[chain.length - 1]!.to;
    let scanned = 0;
    for (let at = from; at < end;) {
      const chunk = await this.log.read(this.topic, partition, at, Math.min(CHUNK, end - at));
      if (chunk.length === 0) break;
      for (const e of chunk) {
        if (e.offset >= end) break;
        scanned++;
        if (e.key === key) out.push(e);
      }
      at = chunk[chunk.length - 1]!.offset + 1;
    }
    return { partition, entries: out, scanned, runs: chain.length };
  }

  /** The partition's runs and the offsets stored under `hash` in them. */
  private async search(
    partition: number,
    end: number,
    hash: Buffer,
  ): Promise<{ chain: Run[]; offsets: number[] }> {
    const { chain } = await listRuns(this.dir, partition);
    // Runs past the journal's end belong to an older topic of the same name: not this journal's.
    if (chain.length > 0 && chain[chain.length - 1]!.to > end) chain.length = 0;
    const offsets: number[] = [];
    for (const run of chain) offsets.push(...(await searchRun(run, hash)));
    return { chain, offsets };
  }

  /**
   * Index every entry appended since the last pass (the writer's side: one process per
   * directory, the one that journals). Returns how many entries were indexed. It runs on the
   * API's event loop: file I/O is asynchronous, and hashing, sorting and merging give the loop
   * back every TURN_MS.
   */
  async catchUp(): Promise<number> {
    const ends = await this.log.highWatermarks(this.topic);
    // Nothing journalled yet: no directory is made (a service that never quoted leaves none).
    if (ends.every((e) => e === 0)) return 0;
    await mkdir(this.dir, { recursive: true });
    const budget = new TurnBudget();
    let indexed = 0;
    for (const [partition, end] of ends.entries()) {
      const { chain, leftovers } = await listRuns(this.dir, partition);
      await removeFiles(leftovers);
      if (chain.length > 0 && chain[chain.length - 1]!.to > end) {
        // The topic was recreated (its end is behind the index): index it again from scratch.
        await removeFiles(chain.map((r) => r.path));
        chain.length = 0;
      }
      let at = chain.length === 0 ? 0 : chain[chain.length - 1]!.to;
      while (at < end) {
        const to = Math.min(end, at + MAX_RUN);
        const body = await this.hashes(partition, at, to, budget);
        chain.push(await writeRun(this.dir, partition, at, to, await sortEntries(body, budget)));
        indexed += body.length / ENTRY;
        at = to;
        await this.compact(partition, chain, budget);
      }
    }
    return indexed;
  }

  /** The (hash, offset) entries of the journal's offsets [at, to) of `partition`, in offset order. */
  private async hashes(partition: number, at: number, to: number, budget: TurnBudget): Promise<Buffer> {
    const body = entryBuffer(to - at);
    let n = 0;
    for (let next = at; next < to;) {
      const chunk = await this.log.read(this.topic, partition, next, Math.min(INDEX_CHUNK, to - next));
      // The API indexes in the background: let its requests run between chunks.
      await budget.next();
      if (chunk.length === 0) break;
      for (const e of chunk) {
        if (e.offset >= to) break;
        keyHash(e.key).copy(body, n * ENTRY);
        body.writeUInt32BE(Math.floor(e.offset / 2 ** 32), n * ENTRY + 8);
        body.writeUInt32BE(e.offset >>> 0, n * ENTRY + 12);
        if (++n % HASH_CHECK === 0 && budget.due()) await budget.next();
      }
      next = chunk[chunk.length - 1]!.offset + 1;
    }
    return body.subarray(0, n * ENTRY);
  }

  /** Merge the newest runs while the one before is at most twice as large: O(log n) runs remain. */
  private async compact(partition: number, chain: Run[], budget: TurnBudget): Promise<void> {
    while (chain.length >= 2) {
      const b = chain[chain.length - 1]!;
      const a = chain[chain.length - 2]!;
      if (a.count > 2 * b.count && b.count > 0) break;
      const merged = await mergeRuns(this.dir, partition, a, b, budget);
      // The merged run is in place before its inputs go: a crash here leaves leftovers, never a gap.
      await removeFiles([a.path, b.path]);
      chain.splice(chain.length - 2, 2, merged);
    }
  }
}

/** What JournalIndexer keeps up to date: a JournalIndex, or a SharedIndexPublisher (which can halt). */
export interface Indexing {
  catchUp(): Promise<number>;
  halt?(): void;
}

/**
 * Keeps a journal's indexes up to date in the background (the API, which journals): a pass every
 * `everyMs` over each index in turn, one pass at a time, and a last one at stop. An index that can
 * halt (the shared one, whose passes may be long: SharedIndexPublisher) is halted at stop instead:
 * its running pass ends at its next safe point and none follows. Failures are told, never thrown:
 * the index is an accelerator, readers scan what it does not cover.
 */
export class JournalIndexer {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private readonly indexes: readonly Indexing[];

  constructor(
    index: Indexing | readonly Indexing[],
    private readonly onError: (e: Error) => void,
    private readonly everyMs = 1000,
  ) {
    this.indexes = isList(index) ? index : [index];
  }

  start(): void {
    this.timer ??= setInterval(() => void this.pass(), this.everyMs);
    this.timer.unref();
    void this.pass();
  }

  /** One pass after any running one. */
  pass(): Promise<void> {
    this.running = this.running.then(async () => {
      for (const index of this.indexes)
        await index.catchUp().then(
          () => undefined,
          (e: unknown) => this.onError(asError(e)),
        );
    });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    const halting = this.indexes.filter((i) => i.halt !== undefined);
    for (const i of halting) i.halt!();
    // A halted index's catchUp returns at once: a last pass updates the others.
    if (halting.length < this.indexes.length) return this.pass();
    await this.running;
  }
}

function isList(index: Indexing | readonly Indexing[]): index is readonly Indexing[] {
  return Array.isArray(index);
}
