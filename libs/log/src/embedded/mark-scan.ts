import type { TopicName } from '@app/events';
import type { HealthRegistry } from '../log-health';
import { FLAG_SNAPSHOT } from './frame';
import { PartitionReader } from './partition-reader';
import { KIND_FIRST, KIND_SNAPSHOT, type SnapshotMark } from './snapshot-index';

/**
 * The marks a partition's snapshots.idx should hold, found by reading every entry of its segments
 * (the first entry of each key, and every snapshot entry): how a missing or damaged index is
 * rebuilt. Costs one pass over the partition without parsing values.
 */
export function scanMarks(
  dir: string,
  topic: TopicName,
  partition: number,
  health: HealthRegistry,
): SnapshotMark[] {
  const reader = new PartitionReader(dir, topic, partition, health);
  try {
    const marks: SnapshotMark[] = [];
    const seen = new Set<string>();
    const cursor = reader.seek(0);
    for (;;) {
      const flags: number[] = [];
      const batch = reader.next(cursor, 10_000, flags);
      if (batch.length === 0) return marks;
      for (let i = 0; i < batch.length; i++) {
        const e = batch[i]!;
        const snapshot = (flags[i]! & FLAG_SNAPSHOT) !== 0;
        if (!snapshot && seen.has(e.key)) continue;
        seen.add(e.key);
        marks.push({ key: e.key, offset: e.offset, kind: snapshot ? KIND_SNAPSHOT : KIND_FIRST });
      }
    }
  } finally {
    reader.close();
  }
}
