import type { TopicName } from '@app/events';
import { EventLog, type AppendEntry, type LogEntry, type LogPosition } from '@app/event-log';

/**
 * A read-only copy of a log's entries held in memory, offsets and bytes unchanged. The Kafka
 * journal test replays hundreds of requestIds against it after checking a few directly on Kafka,
 * where every read costs a consumer group join.
 */
export class MirrorLog extends EventLog {
  private constructor(private readonly topics: Map<TopicName, LogEntry[][]>) {
    super();
  }

  /** Copy every partition of `topics` as it stands now. */
  static async of(log: EventLog, topics: readonly TopicName[]): Promise<MirrorLog> {
    const copy = new Map<TopicName, LogEntry[][]>();
    for (const topic of topics) {
      const n = await log.partitions(topic);
      copy.set(topic, await Promise.all(Array.from({ length: n }, (_, p) => log.read(topic, p, 0))));
    }
    return new MirrorLog(copy);
  }

  partitions(topic: TopicName): Promise<number> {
    return Promise.resolve(this.parts(topic).length);
  }

  read(topic: TopicName, partition: number, fromOffset: number, maxEntries = Infinity): Promise<LogEntry[]> {
    const entries = this.parts(topic)[partition] ?? [];
    const start = entries.findIndex((e) => e.offset >= fromOffset);
    return Promise.resolve(
      start < 0 ? [] : entries.slice(start, start + Math.min(maxEntries, entries.length)),
    );
  }

  highWatermarks(topic: TopicName): Promise<number[]> {
    return Promise.resolve(this.parts(topic).map((p) => (p.length === 0 ? 0 : p[p.length - 1]!.offset + 1)));
  }

  rebuildStarts(topic: TopicName, upTo: readonly number[]): Promise<number[]> {
    // No index: a rebuild that asks for one scans from the first entry, which is always correct.
    return Promise.resolve(upTo.map(() => 0));
  }

  append(_topic: TopicName, _entries: readonly AppendEntry[]): Promise<void> {
    return Promise.reject(new Error('MirrorLog is read-only'));
  }

  follow(_from: readonly LogPosition[]): AsyncIterable<LogEntry[]> {
    return {
      [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('MirrorLog cannot follow')) }),
    };
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private parts(topic: TopicName): LogEntry[][] {
    const p = this.topics.get(topic);
    if (p === undefined) throw new Error(`MirrorLog holds no ${topic}`);
    return p;
  }
}
