import type { EventEmitter } from 'node:events';
import type { TopicName } from '@app/events';
import type { FollowOptions, LogEntry, LogPosition } from '../event-log';
import type { HealthRegistry } from '../log-health';
import { PartitionReader } from './partition-reader';
import { watchDirs } from './watch-dirs';

/** What `followPartitions` needs of the log that owns the partitions. */
export interface FollowContext {
  readonly partitionDir: (topic: TopicName, partition: number) => string;
  readonly checkPartition: (topic: TopicName, partition: number) => void;
  readonly registry: HealthRegistry;
  /** Emits a topic's name after each append in this process (wakes followers at once). */
  readonly appended: EventEmitter;
  readonly closed: () => boolean;
  readonly readOnly: boolean;
  readonly pollIntervalMs: number;
}

/**
 * The embedded log's `follow`: each call gets its own readers (their file handles and cursors are
 * not shared), woken by appends in this process, by fs.watch, or at the latest by the poll interval.
 */
export async function* followPartitions(
  ctx: FollowContext,
  from: readonly LogPosition[],
  options: FollowOptions,
): AsyncIterable<LogEntry[]> {
  const { signal } = options;
  const maxBatch = options.maxBatch ?? 10_000;
  const subs = from.map((p) => {
    const reader = new PartitionReader(
      ctx.partitionDir(p.topic, p.partition),
      p.topic,
      p.partition,
      ctx.registry,
    );
    ctx.checkPartition(p.topic, p.partition);
    return { topic: p.topic, dir: reader.dir, reader, cursor: reader.seek(p.offset) };
  });
  type Sub = (typeof subs)[number];
  // Only partitions that may hold something new are read: those a wake named (an append of their
  // topic here, a change in their directory) and those the last round got entries from. Reading
  // one at its end costs a read, two stats and a directory listing; reading all of them on every
  // append held the main thread of `npm start` for most of its time under one flooding book.
  const pending = new Set<Sub>(subs);
  let wake: (() => void) | null = null;
  const poke = (which: (s: Sub) => boolean): void => {
    for (const s of subs) if (which(s)) pending.add(s);
    wake?.();
  };
  const onAppended = (topic: TopicName): void => poke((s) => s.topic === topic);
  const onAbort = (): void => poke(() => true);
  const topics = new Set(from.map((p) => p.topic));
  const listeners = [...topics].map((t) => [t, () => onAppended(t)] as const);
  for (const [t, listener] of listeners) ctx.appended.on(t, listener);
  signal.addEventListener('abort', onAbort);
  const watchers = watchDirs(
    subs.map((s) => s.dir),
    (dir) => poke((s) => s.dir === dir),
    !ctx.readOnly,
  );
  try {
    while (!signal.aborted && !ctx.closed()) {
      const round = subs.filter((s) => pending.has(s));
      pending.clear();
      for (const s of round) {
        const batch = s.reader.next(s.cursor, maxBatch);
        if (batch.length === 0) continue;
        pending.add(s); // a full batch leaves more behind it
        yield batch;
        if (signal.aborted || ctx.closed()) return;
      }
      if (pending.size > 0) continue;
      // The poll reads every partition: a change no watch reported (no inotify here, another host).
      await new Promise<void>((res) => {
        const t = setTimeout(() => {
          for (const s of subs) pending.add(s);
          res();
        }, ctx.pollIntervalMs);
        wake = () => {
          clearTimeout(t);
          res();
        };
      });
      wake = null;
    }
  } finally {
    for (const [t, listener] of listeners) ctx.appended.off(t, listener);
    signal.removeEventListener('abort', onAbort);
    for (const w of watchers) w.close();
    for (const s of subs) s.reader.close();
  }
}
