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
    return { reader, cursor: reader.seek(p.offset) };
  });
  let wake: (() => void) | null = null;
  let dirty = true;
  const poke = (): void => {
    dirty = true;
    wake?.();
  };
  const topics = new Set(from.map((p) => p.topic));
  for (const t of topics) ctx.appended.on(t, poke);
  signal.addEventListener('abort', poke);
  const watchers = watchDirs(
    from.map((p) => ctx.partitionDir(p.topic, p.partition)),
    poke,
    !ctx.readOnly,
  );
  try {
    while (!signal.aborted && !ctx.closed()) {
      dirty = false;
      let got = false;
      for (const s of subs) {
        const batch = s.reader.next(s.cursor, maxBatch);
        if (batch.length === 0) continue;
        got = true;
        yield batch;
        if (signal.aborted || ctx.closed()) return;
      }
      if (got || dirty) continue;
      await new Promise<void>((res) => {
        const t = setTimeout(res, ctx.pollIntervalMs);
        wake = () => {
          clearTimeout(t);
          res();
        };
      });
      wake = null;
    }
  } finally {
    for (const t of topics) ctx.appended.off(t, poke);
    signal.removeEventListener('abort', poke);
    for (const w of watchers) w.close();
    for (const s of subs) s.reader.close();
  }
}
