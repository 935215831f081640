import { BookCache } from '@app/books';
import { RECORD_TOPICS, type EventRecord, type TopicName } from '@app/events';
import type { EventLog } from '@app/log';
import { decodeEntry, type OnSkipped } from './fold';
import { RecordingReader, replayFiles, type SkippedLine } from './replay-files';
import { timeIndexOf, type PartitionTimes } from './time-index';

/** An ordered source of records (one log partition, or a recording), read in its order. */
export interface RecordSource {
  /**
   * Up to `max` next records; null once the source is exhausted; [] when the source knows that no
   * record at or before `until` lies ahead (a log partition's time index says so; a recording is
   * in receivedAt order). Records after `until` may come back too: the fold holds them back.
   */
  take(max: number, until: number): Promise<EventRecord[] | null>;
}

/** One fold key's records from its latest snapshot at or before the fold's instant, in log order. */
interface Chain {
  recs: EventRecord[];
  /** Records of `recs` already gone through the cache (applied, or held back as too late). */
  done: number;
  /** Least receivedAt among the records held back within recs[0..done) (Infinity: none). */
  heldMin: number;
  /** The instant recs[0..done) went through at: records after it there were held back. */
  at: number;
}

/** Least receivedAt after t among `recs` (Infinity: none). */
function heldMin(recs: readonly EventRecord[], t: number): number {
  let m = Infinity;
  for (const r of recs) if (r.receivedAt > t && r.receivedAt < m) m = r.receivedAt;
  return m;
}

/** The fold key of a record: a book, a market, a venue. */
function keyOf(r: EventRecord): string {
  return r.type === 'venue' ? `v|${r.exchangeId}` : `${r.type}|${r.exchangeId}|${r.symbol}`;
}

/** A record after which nothing older of its key matters (a venue record may omit fields). */
const isBase = (r: EventRecord): boolean => (r.type === 'book' ? r.snapshot : r.type === 'market');

/**
 * The books at successive instants t1 <= t2 <= ...: the definition every reader of past books
 * shares (asOf rebuilds, replays, backtests), a per-book cut: at t, each book is the fold in log
 * order of its records with receivedAt <= t (events.md sequence rules: a delta held back leaves
 * the book out of sync until its next snapshot), markets and venues likewise. receivedAt need not
 * grow along a source: a record too late for t is held back, and when a later instant admits it
 * behind records already applied, its book is folded again from its latest snapshot.
 * rebuildBooks with asOf computes the same state for one instant by random access, which
 * feed/instant-fold.int.spec.ts checks.
 */
export class InstantFold {
  readonly cache = new BookCache();
  private readonly heads: { source: RecordSource; done: boolean }[];
  private readonly chains = new Map<string, Chain>();
  /** Keys with records held back or not yet gone through. */
  private readonly open = new Set<string>();
  private applied = 0;
  private newest = -Infinity;
  private oldest = Infinity;

  constructor(
    sources: readonly RecordSource[],
    private readonly chunk = 4096,
  ) {
    this.heads = sources.map((source) => ({ source, done: false }));
  }

  /** Records at or before the latest instant folded so far (each counted once). */
  get folded(): number {
    return this.applied;
  }

  /** receivedAt range of the records folded so far (null before any). */
  get span(): { readonly first: number; readonly last: number } | null {
    return this.applied === 0 ? null : { first: this.oldest, last: this.newest };
  }

  /** Fold every source's records up to instant `t` (inclusive); returns how many records were new. */
  async advanceTo(t: number): Promise<number> {
    const before = this.applied;
    for (const head of this.heads) {
      while (!head.done) {
        const records = await head.source.take(this.chunk, t);
        if (records === null) head.done = true;
        if (records === null || records.length === 0) break;
        const touched = new Set<Chain>();
        for (const r of records) {
          const key = keyOf(r);
          let chain = this.chains.get(key);
          if (chain === undefined)
            this.chains.set(key, (chain = { recs: [], done: 0, heldMin: Infinity, at: -Infinity }));
          chain.recs.push(r);
          touched.add(chain);
          this.open.add(key);
        }
        // Settled chunk by chunk, so a long stretch up to t is folded as it is read, not buffered.
        for (const chain of touched) this.settle(chain, t);
      }
    }
    // Keys whose held-back records this instant admits.
    for (const key of [...this.open]) {
      const chain = this.chains.get(key)!;
      if (this.settle(chain, t)) this.open.delete(key);
    }
    return this.applied - before;
  }

  /** Bring one key to instant t; true when nothing of it is left held back. */
  private settle(chain: Chain, t: number): boolean {
    // A held-back record now admitted lies behind records already applied: fold again from the base.
    if (chain.heldMin <= t) return this.refold(chain, t);
    // Otherwise only the new records: everything held stays held (still after t).
    let held = chain.heldMin;
    let base = -1;
    for (let i = chain.done; i < chain.recs.length; i++) {
      const r = chain.recs[i]!;
      if (r.receivedAt > t) {
        if (r.receivedAt < held) held = r.receivedAt;
        continue;
      }
      this.cache.apply(r);
      this.count(r);
      if (isBase(r)) base = i;
    }
    chain.done = chain.recs.length;
    if (base > 0) {
      chain.recs = chain.recs.slice(base);
      chain.done -= base;
      // Held records behind the new base no longer matter (it replaces whatever they would do).
      if (held !== Infinity) held = heldMin(chain.recs, t);
    }
    chain.heldMin = held;
    chain.at = t;
    return held === Infinity;
  }

  private refold(chain: Chain, t: number): boolean {
    let base = -1;
    for (let i = chain.recs.length - 1; i >= 0; i--)
      if (isBase(chain.recs[i]!) && chain.recs[i]!.receivedAt <= t) {
        base = i;
        break;
      }
    const from = Math.max(base, 0);
    // Count each record once: new ones, and held ones now admitted (those behind the base change
    // nothing, the snapshot replaces them, but they are folded all the same).
    const fresh = (r: EventRecord, i: number): boolean => i >= chain.done || r.receivedAt > chain.at;
    for (let i = 0; i < from; i++) {
      const r = chain.recs[i]!;
      if (r.receivedAt <= t && fresh(r, i)) this.count(r);
    }
    for (let i = from; i < chain.recs.length; i++) {
      const r = chain.recs[i]!;
      if (r.receivedAt > t) continue;
      this.cache.apply(r);
      if (fresh(r, i)) this.count(r);
    }
    chain.done = chain.recs.length;
    if (base > 0) {
      chain.recs = chain.recs.slice(base);
      chain.done -= base;
    }
    chain.heldMin = heldMin(chain.recs, t);
    chain.at = t;
    return chain.heldMin === Infinity;
  }

  private count(r: EventRecord): void {
    this.applied++;
    if (r.receivedAt > this.newest) this.newest = r.receivedAt;
    if (r.receivedAt < this.oldest) this.oldest = r.receivedAt;
  }
}

/**
 * One source per partition of the venues and books topics, from offset 0 up to `upTo` (default:
 * the high-water marks now). Bad entries are skipped and named, as every fold does.
 */
export async function logSources(
  log: EventLog,
  onSkipped: OnSkipped,
  upTo?: Partial<Record<TopicName, readonly number[]>>,
): Promise<RecordSource[]> {
  const out: RecordSource[] = [];
  for (const topic of RECORD_TOPICS) {
    const ends = upTo?.[topic] ?? (await log.highWatermarks(topic));
    ends.forEach((end, partition) => out.push(partitionSource(log, topic, partition, end, onSkipped)));
  }
  return out;
}

function partitionSource(
  log: EventLog,
  topic: TopicName,
  partition: number,
  end: number,
  onSkipped: OnSkipped,
): RecordSource {
  let next = 0;
  let times: PartitionTimes | null = null;
  return {
    async take(max: number, until: number): Promise<EventRecord[] | null> {
      times ??= await timeIndexOf(log).partition(topic, partition, end);
      for (;;) {
        if (next >= end) return null;
        // Past the last block holding a record at or before `until`, every record is later.
        const limit = Math.min(end, times.readableEnd(until));
        if (next >= limit) return [];
        const entries = await log.read(topic, partition, next, Math.min(max, limit - next));
        if (entries.length === 0) return null;
        const records: EventRecord[] = [];
        for (const entry of entries) {
          if (entry.offset >= end) break;
          const decoded = decodeEntry(entry);
          if (decoded.ok) records.push(decoded.record);
          else onSkipped(decoded.skipped);
        }
        // A range retention removed is passed over (the read starts later than asked).
        next = entries[entries.length - 1]!.offset + 1;
        if (records.length > 0) return records;
      }
    },
  };
}

/**
 * A recording (a JSON Lines file, or every *.jsonl of a directory, merged by receivedAt: the
 * --replay contract) as one source, taken in receivedAt order. Unreadable lines are skipped and named.
 */
export function fileSource(path: string, onSkipped: (line: SkippedLine) => void): RecordSource {
  const reader = new RecordingReader(replayFiles(path), onSkipped);
  let buffer: EventRecord[] = [];
  let at = 0;
  let exhausted = false;
  return {
    take(max: number, until: number): Promise<EventRecord[] | null> {
      if (at === buffer.length && !exhausted) {
        buffer = reader.take(max);
        at = 0;
        if (buffer.length === 0) {
          exhausted = true;
          reader.close();
        }
      }
      if (at === buffer.length) return Promise.resolve(null);
      const out: EventRecord[] = [];
      while (at < buffer.length && out.length < max && buffer[at]!.receivedAt <= until)
        out.push(buffer[at++]!);
      return Promise.resolve(out);
    },
  };
}
