import type { TopicName } from '@app/events';
import type { ProblemSink } from '../log-health';
import type { LogFiles } from './log-files';
import type { RetentionPolicy, RetentionResult } from './retention';

/** When appends reach the disk: see docs/operations-log.md "fsync policy". */
export type FsyncPolicy = 'always' | 'interval' | 'never';

export interface EmbeddedLogOptions {
  readonly dataDir: string;
  readonly topicPrefix?: string;
  /** Partition counts used when a topic is created (an existing topic keeps its own). */
  readonly partitions?: Partial<Record<TopicName, number>>;
  readonly fsync?: FsyncPolicy;
  /** With fsync 'interval': at most this long between an append and its fdatasync. */
  readonly fsyncIntervalMs?: number;
  readonly segmentBytes?: number;
  readonly indexIntervalBytes?: number;
  /** Followers re-check the files at least this often (fs.watch usually wakes them first). */
  readonly pollIntervalMs?: number;
  /** How files are written (default node:fs; tests inject a full disk through it). */
  readonly files?: LogFiles;
  /** Where damage and repairs are said when first found (default: a JSON line on stderr). */
  readonly onProblem?: ProblemSink;
  /**
   * Open for reading only (audit and export tools): dataDir must exist, nothing is ever created or
   * written under it (no topic.json, no lock, no directory), and append throws. A topic that was
   * never created reads as empty with the default partition count.
   */
  readonly readOnly?: boolean;
  /** Remove old segments of the topics this process writes (books, quotes); none when absent. */
  readonly retention?: EmbeddedRetention;
}

/** Retention settings of an embedded log (docs/operations-log.md "Retention"). */
export interface EmbeddedRetention {
  readonly policy: RetentionPolicy;
  /** How often the writer runs a pass (default 60 s). */
  readonly checkEveryMs?: number;
  /** The clock passes are judged by (default Date.now; entries' own times are compared to it). */
  readonly clock?: () => number;
  /** Told what each pass removed (a log line in the services). */
  readonly onPass?: (results: readonly RetentionResult[]) => void;
}
