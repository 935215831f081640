import { asError } from '@app/retry';
import { EventEmitter } from 'node:events';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TOPICS, topicName, type TopicName } from '@app/events';
import {
  EventLog,
  SNAPSHOT_TOPICS,
  type AppendEntry,
  type FollowOptions,
  type LogEntry,
  type LogPosition,
} from '../event-log';
import { LogError } from '../log-error';
import { HealthRegistry, type LogHealth } from '../log-health';
import { partitionFor } from '../partitioner';
import { checkEntries } from '../record-limits';
import { FrameEncoder } from './frame';
import { nodeFiles, type LogFiles } from './log-files';
import { partitionMarks } from './mark-scan';
import { PartitionReader } from './partition-reader';
import { rebuildStart, type SnapshotMark } from './snapshot-index';
import { appendPartition } from './append-partition';
import { partitionCount } from './topic-files';
import { DEFAULT_PARTITIONS } from '../topic-partitions';
import type { EmbeddedLogOptions, FsyncPolicy } from './embedded-options';
import { followPartitions } from './follow-partitions';
import type { RetentionResult } from './retention';
import { readRetainedFrom } from './retention-file';
import { RetentionRunner } from './retention-pass';
import { openTopicWriters, type Writers } from './topic-writers';

/**
 * The embedded on-disk event log: `<dataDir>/<prefix.topic>/<partition>/` segment files, one
 * writer process per topic (lock file), any number of reader processes following the tail.
 */
export class EmbeddedLog extends EventLog {
  private readonly root: string;
  private readonly prefix: string;
  private readonly counts = new Map<TopicName, number>();
  private readonly writers = new Map<TopicName, Writers>();
  private readonly readers = new Map<string, PartitionReader>();
  private readonly appended = new EventEmitter();
  private readonly fsync: FsyncPolicy;
  /** One scratch buffer for every partition writer: appends are synchronous. */
  private readonly encoder = new FrameEncoder();
  private readonly timer: NodeJS.Timeout | null;
  private readonly retention: RetentionRunner;
  private readonly files: LogFiles;
  private readonly registry: HealthRegistry;
  private closed = false;

  constructor(private readonly options: EmbeddedLogOptions) {
    super();
    this.root = resolve(options.dataDir);
    if (options.readOnly === true && !(existsSync(this.root) && statSync(this.root).isDirectory()))
      throw new LogError('not_found', `no event log directory at ${this.root}`);
    this.prefix = options.topicPrefix ?? '';
    this.fsync = options.fsync ?? 'interval';
    this.appended.setMaxListeners(0);
    this.files = options.files ?? nodeFiles;
    this.registry = new HealthRegistry(options.onProblem);
    const every = options.fsyncIntervalMs ?? 200;
    this.timer =
      this.fsync === 'interval' && options.readOnly !== true
        ? setInterval(() => this.syncAll(), every)
        : null;
    this.timer?.unref();
    this.retention = new RetentionRunner(options.readOnly === true ? undefined : options.retention, {
      writers: this.writers,
      files: this.files,
      registry: this.registry,
      indexIntervalBytes: options.indexIntervalBytes ?? 4096,
      changed: (topic, p) => {
        this.readers.get(`${topic}/${p}`)?.close();
        this.readers.delete(`${topic}/${p}`);
      },
    });
  }

  /** One retention pass over the topics this process writes, judged at `now` (tests compress time). */
  applyRetention(now: number): RetentionResult[] {
    this.open();
    return this.retention.run(now);
  }

  override retainedFrom(topic: TopicName): Promise<number[]> {
    return this.sync(() =>
      Array.from({ length: this.count(topic) }, (_, p) => readRetainedFrom(this.partitionDir(topic, p))),
    );
  }

  /** A synchronous step as a promise (its error a rejection), on an open log. */
  private sync<T>(step: () => T): Promise<T> {
    try {
      this.open();
      return Promise.resolve(step());
    } catch (e) {
      return Promise.reject(asError(e));
    }
  }

  partitions(topic: TopicName): Promise<number> {
    return Promise.resolve(this.count(topic));
  }

  append(topic: TopicName, entries: readonly AppendEntry[]): Promise<void> {
    try {
      this.appendSync(topic, entries);
      return Promise.resolve();
    } catch (e) {
      return Promise.reject(asError(e));
    }
  }

  /**
   * Synchronous append: one write per touched partition, marks first (see snapshot-index.ts).
   * A failure throws a LogError listing in `appended` the entries that are in the log anyway (the
   * partitions written before, and the whole frames of the one that failed), so a caller retries
   * exactly the rest; nothing else of the batch is left behind.
   */
  appendSync(topic: TopicName, entries: readonly AppendEntry[]): void {
    this.open();
    if (this.options.readOnly === true)
      throw new LogError('bad_argument', `the event log at ${this.root} is open read-only`);
    if (entries.length === 0) return;
    // Validate everything before writing anything, so a bad entry leaves no marks or frames.
    checkEntries(topic, entries);
    const w = this.writersFor(topic);
    const n = w.partitions.length;
    const groups: number[][] = Array.from({ length: n }, () => []);
    for (let i = 0; i < entries.length; i++) groups[partitionFor(entries[i]!.key, n)]!.push(i);
    const appended: number[] = [];
    try {
      for (let p = 0; p < n; p++)
        if (groups[p]!.length > 0)
          appendPartition(w, p, entries, groups[p]!, appended, this.fsync === 'always');
    } finally {
      if (appended.length > 0) this.appended.emit(topic);
    }
  }

  read(
    topic: TopicName,
    partition: number,
    fromOffset: number,
    maxEntries = Number.MAX_SAFE_INTEGER,
  ): Promise<LogEntry[]> {
    return this.sync(() => {
      const reader = this.reader(topic, partition);
      return reader.next(reader.seek(fromOffset), maxEntries);
    });
  }

  follow(from: readonly LogPosition[], options: FollowOptions): AsyncIterable<LogEntry[]> {
    this.open();
    return followPartitions(
      {
        partitionDir: (t, p) => this.partitionDir(t, p),
        checkPartition: (t, p) => this.checkPartition(t, p),
        registry: this.registry,
        appended: this.appended,
        closed: () => this.closed,
        readOnly: this.options.readOnly === true,
        pollIntervalMs: this.options.pollIntervalMs ?? 50,
      },
      from,
      options,
    );
  }

  highWatermarks(topic: TopicName): Promise<number[]> {
    return this.sync(() => Array.from({ length: this.count(topic) }, (_, p) => this.reader(topic, p).end()));
  }

  rebuildStarts(topic: TopicName, upTo: readonly number[]): Promise<number[]> {
    return this.sync(() => {
      const n = this.count(topic);
      if (upTo.length !== n)
        throw new LogError('bad_argument', `rebuildStarts(${topic}) needs ${n} offsets, got ${upTo.length}`);
      if (!SNAPSHOT_TOPICS.includes(topic)) return upTo.map(() => 0);
      return upTo.map((end, p) => rebuildStart(this.marksOf(topic, p), end));
    });
  }

  override health(): LogHealth {
    return this.registry.snapshot();
  }

  /** A partition's snapshot marks; found by scanning its segments when snapshots.idx is missing or damaged. */
  private marksOf(topic: TopicName, p: number): SnapshotMark[] {
    return partitionMarks(
      this.partitionDir(topic, p),
      topic,
      p,
      () => this.reader(topic, p).end(),
      this.registry,
    );
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    if (this.timer !== null) clearInterval(this.timer);
    this.retention.stop();
    for (const w of this.writers.values()) {
      for (const p of w.partitions) p.close();
      for (const m of w.marks) m?.close();
      w.release();
    }
    this.writers.clear();
    for (const r of this.readers.values()) r.close();
    this.readers.clear();
    for (const t of TOPICS) this.appended.emit(t);
    return Promise.resolve();
  }

  /**
   * The 'interval' policy's tick: start a background fdatasync of every partition and mark file
   * written since the last tick (a synchronous one here stalled the event loop for milliseconds).
   */
  override async durable(): Promise<void> {
    this.open();
    if (this.fsync === 'always') return;
    const parts = [...this.writers.values()].flatMap((w) => w.partitions);
    await Promise.all(parts.map((p) => p.durable()));
  }

  syncAll(): void {
    for (const w of this.writers.values()) {
      for (const p of w.partitions) p.syncInBackground();
      for (const m of w.marks) m?.syncInBackground();
    }
  }

  /** Bytes of torn tail cut per partition when this process opened the topic for writing. */
  repairedBytes(topic: TopicName): number[] {
    this.open();
    return this.writersFor(topic).partitions.map((p) => p.repairedBytes);
  }

  private open(): void {
    if (this.closed) throw new LogError('closed', 'the event log is closed');
  }

  private topicDir(topic: TopicName): string {
    return join(this.root, topicName(this.prefix, topic));
  }

  private partitionDir(topic: TopicName, partition: number): string {
    return join(this.topicDir(topic), String(partition));
  }

  private count(topic: TopicName): number {
    let n = this.counts.get(topic);
    if (n === undefined) {
      const wanted = this.options.partitions?.[topic] ?? DEFAULT_PARTITIONS[topic];
      n = partitionCount(this.topicDir(topic), topic, wanted, this.options.readOnly === true);
      this.counts.set(topic, n);
    }
    return n;
  }

  private checkPartition(topic: TopicName, partition: number): void {
    const n = this.count(topic);
    if (!Number.isInteger(partition) || partition < 0 || partition >= n)
      throw new LogError('bad_argument', `${topic} has partitions 0..${n - 1}, not ${partition}`);
  }

  private reader(topic: TopicName, partition: number): PartitionReader {
    this.checkPartition(topic, partition);
    const k = `${topic}/${partition}`;
    let r = this.readers.get(k);
    if (r === undefined) {
      r = new PartitionReader(this.partitionDir(topic, partition), topic, partition, this.registry);
      this.readers.set(k, r);
    }
    return r;
  }

  private writersFor(topic: TopicName): Writers {
    let w = this.writers.get(topic);
    if (w !== undefined) return w;
    w = openTopicWriters({
      topic,
      topicDir: this.topicDir(topic),
      partitionDir: (p) => this.partitionDir(topic, p),
      partitions: this.count(topic),
      segmentBytes: this.options.segmentBytes ?? 256 * 1024 * 1024,
      indexIntervalBytes: this.options.indexIntervalBytes ?? 4096,
      encoder: this.encoder,
      files: this.files,
      registry: this.registry,
    });
    this.writers.set(topic, w);
    return w;
  }
}
