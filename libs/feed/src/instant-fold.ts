import { BookCache } from '@app/books';
import { RECORD_TOPICS, type EventRecord, type TopicName } from '@app/events';
import type { EventLog, LogEntry } from '@app/log';
import { decodeEntry, readRange, type OnSkipped } from './fold';
import { RecordingReader, replayFiles, type SkippedLine } from './replay-files';

/** An ordered source of records (one log partition, or a recording): the next few in its order. */
export interface RecordSource {
  /** Up to `max` next records; [] once the source is exhausted. */
  take(max: number): Promise<EventRecord[]>;
}

/**
 * The books at successive instants t1 <= t2 <= ...: the definition every reader of past books
 * shares (asOf rebuilds, replays, backtests). Each source is folded in its own order up to, but
 * not including, its first record with receivedAt > t; the rest waits for a later instant. The
 * log's sources are its partitions (a book lives in one partition, so a per-partition cut is a
 * per-book cut); positionsAt + rebuildBooks compute the same state for one instant by random
 * access, which feed/instant-fold.spec.ts checks.
 */
export class InstantFold {
  readonly cache = new BookCache();
  private readonly heads: { source: RecordSource; buffer: EventRecord[]; at: number; done: boolean }[];
  private applied = 0;
  private newest = -Infinity;
  private oldest = Infinity;

  constructor(
    sources: readonly RecordSource[],
    private readonly chunk = 4096,
  ) {
    this.heads = sources.map((source) => ({ source, buffer: [], at: 0, done: false }));
  }

  /** Records applied so far. */
  get folded(): number {
    return this.applied;
  }

  /** receivedAt range of the records applied so far (null before any). */
  get span(): { readonly first: number; readonly last: number } | null {
    return this.applied === 0 ? null : { first: this.oldest, last: this.newest };
  }

  /** Apply every source's records up to instant `t` (inclusive); returns how many were applied. */
  async advanceTo(t: number): Promise<number> {
    const before = this.applied;
    for (const head of this.heads) {
      for (;;) {
        if (head.at === head.buffer.length) {
          if (head.done) break;
          head.buffer = await head.source.take(this.chunk);
          head.at = 0;
          if (head.buffer.length === 0) {
            head.done = true;
            break;
          }
        }
        const record = head.buffer[head.at]!;
        if (record.receivedAt > t) break;
        this.cache.apply(record);
        head.at++;
        this.applied++;
        if (record.receivedAt > this.newest) this.newest = record.receivedAt;
        if (record.receivedAt < this.oldest) this.oldest = record.receivedAt;
      }
    }
    return this.applied - before;
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
  let chunks: AsyncGenerator<LogEntry[]> | null = null;
  return {
    async take(max: number): Promise<EventRecord[]> {
      chunks ??= readRange(log, topic, partition, 0, end, max);
      for (;;) {
        const next = await chunks.next();
        if (next.done === true) return [];
        const records: EventRecord[] = [];
        for (const entry of next.value) {
          const decoded = decodeEntry(entry);
          if (decoded.ok) records.push(decoded.record);
          else onSkipped(decoded.skipped);
        }
        if (records.length > 0) return records;
      }
    },
  };
}

/**
 * A recording (a JSON Lines file, or every *.jsonl of a directory, merged by receivedAt: the
 * --replay contract) as one source. Unreadable lines are skipped and named.
 */
export function fileSource(path: string, onSkipped: (line: SkippedLine) => void): RecordSource {
  const reader = new RecordingReader(replayFiles(path), onSkipped);
  return {
    take(max: number): Promise<EventRecord[]> {
      const records = reader.take(max);
      if (records.length === 0) reader.close();
      return Promise.resolve(records);
    },
  };
}
