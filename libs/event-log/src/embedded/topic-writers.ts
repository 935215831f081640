import type { TopicName } from '@app/events';
import { SNAPSHOT_TOPICS } from '../event-log';
import { LogError, fileError } from '../log-error';
import type { HealthRegistry } from '../log-health';
import type { FrameEncoder } from './frame';
import type { LogFiles } from './log-files';
import { scanMarks } from './mark-scan';
import { PartitionWriter } from './partition-writer';
import { finishRetention } from './retention-state';
import { listSegments } from './segment-files';
import { SnapshotIndexWriter } from './snapshot-index';
import { acquireTopicLock } from './topic-files';

/** The writers of one topic held by the process that owns its lock. */
export interface Writers {
  readonly partitions: PartitionWriter[];
  /** Per partition; null for topics outside SNAPSHOT_TOPICS. */
  readonly marks: (SnapshotIndexWriter | null)[];
  readonly release: () => void;
}

export interface TopicWritersOptions {
  readonly topic: TopicName;
  readonly topicDir: string;
  readonly partitionDir: (partition: number) => string;
  readonly partitions: number;
  readonly segmentBytes: number;
  readonly indexIntervalBytes: number;
  readonly encoder: FrameEncoder;
  readonly files: LogFiles;
  readonly registry: HealthRegistry;
}

/**
 * Take a topic's lock and open (recovering) every partition writer and, for snapshot topics, its
 * marks file; the lock is released again when any of it fails.
 */
export function openTopicWriters(o: TopicWritersOptions): Writers {
  const { topic } = o;
  const release = acquireTopicLock(o.topicDir);
  try {
    const partitions = Array.from(
      { length: o.partitions },
      (_, p) =>
        new PartitionWriter(o.partitionDir(p), {
          segmentBytes: o.segmentBytes,
          indexIntervalBytes: o.indexIntervalBytes,
          encoder: o.encoder,
          files: o.files,
          health: o.registry,
          topic,
          partition: p,
        }),
    );
    const indexed = SNAPSHOT_TOPICS.includes(topic);
    const marks = partitions.map((pw, p) => {
      finishRetention(pw.dir, `${topic}/${p}`, o.registry);
      pw.open();
      if (!indexed) return null;
      const m = new SnapshotIndexWriter(pw.dir, o.files, o.registry, `${topic}/${p}`);
      const hasEntries = pw.nextOffset > (listSegments(pw.dir)[0] ?? 0);
      m.open(pw.nextOffset, hasEntries, () => scanMarks(pw.dir, topic, p, o.registry));
      return m;
    });
    return { partitions, marks, release };
  } catch (e) {
    release();
    throw e instanceof LogError ? e : fileError(e, `opening ${topic} for writing`);
  }
}
