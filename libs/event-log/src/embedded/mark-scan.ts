import type { TopicName } from '@app/events';
import type { HealthRegistry } from '../log-health';
import { FLAG_SNAPSHOT } from './frame';
import { PartitionReader } from './partition-reader';
import { listSegments } from './segment-files';
import {
  KIND_FIRST,
  KIND_SNAPSHOT,
  readSnapshotMarks,
  snapshotIndexFile,
  type SnapshotMark,
} from './snapshot-index';

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

/**
 * A partition's snapshot marks as a reader needs them: from snapshots.idx, or found by scanning
 * the segments (said once as a note) when the file is missing or damaged and the partition holds
 * entries (`end` is its high-water mark).
 */
export function partitionMarks(
  dir: string,
  topic: TopicName,
  partition: number,
  end: () => number,
  health: HealthRegistry,
): SnapshotMark[] {
  const read = readSnapshotMarks(dir);
  if (read.state === 'ok' || end() <= (listSegments(dir)[0] ?? 0)) return read.marks;
  health.note(
    `${snapshotIndexFile(dir)} is ${read.state === 'missing' ? 'missing' : `damaged at byte ${read.bytes}`}: rebuild starts of ${topic}/${partition} found by scanning its segments (its writer rebuilds the file when it next opens the topic)`,
  );
  return scanMarks(dir, topic, partition, health);
}
