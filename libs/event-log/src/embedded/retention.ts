import { existsSync, renameSync, statSync, unlinkSync } from 'node:fs';
import type { TopicName } from '@app/events';
import { SNAPSHOT_TOPICS } from '../event-log';
import { fileError } from '../log-error';
import type { HealthRegistry } from '../log-health';
import { FLAG_GAP, FrameEncoder } from './frame';
import { OPEN_RW, type LogFiles } from './log-files';
import { PartitionReader } from './partition-reader';
import { COMPACT_SUFFIX, fsyncDir, readRetainedFrom, writeRetainedFrom } from './retention-file';
import { INDEX_ENTRY, indexFile, listSegments, segmentFile } from './segment-files';
import {
  KIND_SNAPSHOT,
  encodeMarks,
  readSnapshotMarks,
  snapshotIndexFile,
  type SnapshotMark,
} from './snapshot-index';

/** How much of a topic-partition the embedded log keeps (null: no bound of that kind). */
export interface RetentionPolicy {
  /** Remove sealed segments whose newest entry is older than this (by the entries' own clock). */
  readonly maxAgeMs: number | null;
  /** Remove the oldest sealed segments while the partition's files exceed this many bytes. */
  readonly maxBytes: number | null;
}

/**
 * Topics retention applies to; `venues` is small and folded from its start, so it is kept whole.
 * The tlog's entries carry no time: only the byte bound removes them, and its compaction keeps each
 * origin's newest prefix and all after it (an origin without one whole).
 */
export const RETENTION_TOPICS: readonly TopicName[] = ['books', 'quotes', 'stream', 'stream-ledger', 'tlog'];

/** What one pass did to one partition. */
export interface RetentionResult {
  readonly topic: TopicName;
  readonly partition: number;
  /** The new horizon: every entry from this offset on is kept. */
  readonly retainedFrom: number;
  readonly segmentsRemoved: number;
  /** Entries below the horizon kept in the compacted segment (latest snapshots and what follows). */
  readonly keptEntries: number;
  readonly bytesBefore: number;
  readonly bytesAfter: number;
}

export interface RetainArgs {
  readonly dir: string;
  readonly topic: TopicName;
  readonly partition: number;
  /** Base of the segment the writer appends to: never removed. */
  readonly activeBase: number;
  readonly policy: RetentionPolicy;
  readonly now: number;
  readonly files: LogFiles;
  readonly health: HealthRegistry;
  readonly indexIntervalBytes: number;
}

/** The clock of an entry (receivedAt of events, calculatedAt of quote records), or null. */
export function entryTime(value: string): number | null {
  try {
    const r = JSON.parse(value) as { receivedAt?: unknown; calculatedAt?: unknown };
    const t = r.receivedAt ?? r.calculatedAt;
    return typeof t === 'number' && Number.isFinite(t) ? t : null;
  } catch {
    return null;
  }
}

/** Bytes of a partition's files: segments, their indexes and the snapshot index. */
export function partitionBytes(dir: string): number {
  let total = existsSync(snapshotIndexFile(dir)) ? statSync(snapshotIndexFile(dir)).size : 0;
  for (const b of listSegments(dir)) total += segmentBytes(dir, b);
  return total;
}

function segmentBytes(dir: string, base: number): number {
  const idx = indexFile(dir, base);
  return statSync(segmentFile(dir, base)).size + (existsSync(idx) ? statSync(idx).size : 0);
}

/**
 * One retention pass over one partition (run by its writer, between appends). The expired prefix
 * of sealed segments is replaced by one compacted segment at the log's first offset that keeps,
 * at their own offsets, each book's latest snapshot below the new horizon and every entry of that
 * book after it (gap frames stand for the rest), so every position from the horizon on rebuilds
 * exactly as before. Crash-safe: the horizon is recorded first, the compacted files are renamed
 * into place whole, and only then are the covered segments unlinked (retention-state.ts finishes
 * an interrupted pass). Returns null when nothing is due.
 *
 * As steps: it yields after every batch of entries the compaction reads, so the writer's timer
 * can spread a pass over event-loop turns (appends, and a feed or the API in the same process,
 * run in between); `run` drives it to its end at once. Only the compaction reads the sealed
 * segments below the horizon, which nothing but retention changes; the commit (the snapshot index
 * re-read and rewritten with the marks appended meanwhile, the files replaced) happens in the
 * last step, in one turn. `abort` is asked before the commit: a closed log commits nothing.
 */
export function* retainSteps(
  a: RetainArgs,
  abort: () => boolean = () => false,
): Generator<void, RetentionResult | null, void> {
  const { dir, policy } = a;
  const bases = listSegments(dir);
  const retained = readRetainedFrom(dir);
  const sealed = bases.filter((b) => b >= retained && b < a.activeBase);
  if (bases.length < 2 || sealed.length === 0) return null;
  const bytesBefore = partitionBytes(dir);
  let excess = policy.maxBytes === null ? -Infinity : bytesBefore - policy.maxBytes;
  const reader = new PartitionReader(dir, a.topic, a.partition, a.health);
  let cut = -1;
  try {
    for (let i = 0; i < sealed.length; i++) {
      const next = sealed[i + 1] ?? a.activeBase;
      const last = policy.maxAgeMs === null ? [] : reader.next(reader.seek(next - 1), 1);
      const at = last[0] === undefined ? null : entryTime(last[0].value);
      const old = policy.maxAgeMs !== null && at !== null && at < a.now - policy.maxAgeMs;
      if (!old && excess <= 0) break;
      excess -= segmentBytes(dir, sealed[i]!);
      cut = i;
    }
  } finally {
    reader.close();
  }
  if (cut < 0) return null;
  const horizon = sealed[cut + 1] ?? a.activeBase;
  const snapshots = SNAPSHOT_TOPICS.includes(a.topic);
  const marks = snapshots ? readSnapshotMarks(dir) : null;
  if (marks !== null && marks.state !== 'ok') {
    a.health.note(`${a.topic}/${a.partition}: retention skipped until the snapshot index is rebuilt`);
    return null;
  }
  const keepFrom = keptStarts(marks?.marks ?? [], horizon);
  const first = bases[0]!;
  const compacted = yield* compact(a, first, horizon, keepFrom);
  if (abort()) return null;
  // The writer appended marks while the compaction read (all at or above the horizon): re-read.
  const latest = marks === null ? null : readSnapshotMarks(dir);
  if (latest !== null && latest.state !== 'ok') {
    a.health.note(`${a.topic}/${a.partition}: retention skipped until the snapshot index is rebuilt`);
    return null;
  }
  replaceSegments(a, bases, first, horizon, compacted);
  if (latest !== null) {
    const kept: SnapshotMark[] = [...keepFrom.values()].sort((x, y) => x.offset - y.offset);
    a.files.replaceFileSync(
      snapshotIndexFile(dir),
      encodeMarks([...kept, ...latest.marks.filter((m) => m.offset >= horizon)]),
    );
  }
  return {
    topic: a.topic,
    partition: a.partition,
    retainedFrom: horizon,
    segmentsRemoved: bases.filter((b) => b > first && b < horizon).length,
    keptEntries: compacted.entries,
    bytesBefore,
    bytesAfter: partitionBytes(dir),
  };
}

/** Per key with a mark below the horizon: its latest snapshot below it, else its first entry. */
function keptStarts(marks: readonly SnapshotMark[], horizon: number): Map<string, SnapshotMark> {
  const out = new Map<string, SnapshotMark>();
  for (const m of marks) {
    if (m.offset >= horizon) continue;
    const cur = out.get(m.key);
    if (cur === undefined || (m.kind === KIND_SNAPSHOT && m.offset > cur.offset)) out.set(m.key, m);
  }
  return out;
}

interface Compacted {
  readonly log: Buffer;
  readonly index: Buffer;
  readonly entries: number;
}

/** The compacted segment [first, horizon): kept entries at their offsets, gap frames between; yields per batch read. */
function* compact(
  a: RetainArgs,
  first: number,
  horizon: number,
  keepFrom: Map<string, SnapshotMark>,
): Generator<void, Compacted, void> {
  const enc = new FrameEncoder(1 << 16);
  const index: number[] = [];
  let indexedAt = 0;
  let expected = first;
  let entries = 0;
  const add = (offset: number, flags: number, key: string, value: string): void => {
    const pos = enc.bytes().length;
    if (pos - indexedAt >= a.indexIntervalBytes) {
      index.push(offset - first, pos);
      indexedAt = pos;
    }
    enc.add(offset, flags, key, value);
  };
  let from = horizon;
  for (const m of keepFrom.values()) from = Math.min(from, m.offset);
  const reader = new PartitionReader(a.dir, a.topic, a.partition, a.health);
  try {
    const cursor = reader.seek(from);
    while (cursor.offset < horizon) {
      const flags: number[] = [];
      const batch = reader.next(cursor, 4096, flags);
      if (batch.length === 0) break;
      for (let i = 0; i < batch.length; i++) {
        const e = batch[i]!;
        if (e.offset >= horizon) break;
        const k = keepFrom.get(e.key);
        if (k === undefined || e.offset < k.offset) continue;
        if (e.offset > expected) add(expected, FLAG_GAP, '', String(e.offset));
        add(e.offset, flags[i]!, e.key, e.value);
        expected = e.offset + 1;
        entries++;
      }
      yield;
    }
  } finally {
    reader.close();
  }
  if (expected < horizon) add(expected, FLAG_GAP, '', String(horizon));
  const idx = Buffer.allocUnsafe(index.length * (INDEX_ENTRY / 2));
  for (let i = 0; i < index.length; i++) idx.writeUInt32LE(index[i]!, i * 4);
  return { log: Buffer.from(enc.bytes()), index: idx, entries };
}

function writeWhole(files: LogFiles, path: string, data: Buffer): void {
  const fd = files.openSync(path, OPEN_RW);
  try {
    files.ftruncateSync(fd, 0);
    let w = 0;
    while (w < data.length) w += files.writeSync(fd, data, w, data.length - w, w);
    files.fdatasyncSync(fd);
  } finally {
    files.closeSync(fd);
  }
}

/** Put the compacted segment in place of the first one and unlink those it covers (see retainSteps). */
function replaceSegments(
  a: RetainArgs,
  bases: readonly number[],
  first: number,
  horizon: number,
  c: Compacted,
): void {
  const log = segmentFile(a.dir, first);
  const idx = indexFile(a.dir, first);
  try {
    writeWhole(a.files, log + COMPACT_SUFFIX, c.log);
    writeWhole(a.files, idx + COMPACT_SUFFIX, c.index);
    writeRetainedFrom(a.files, a.dir, horizon);
    // Without its index for a moment, the first segment is still read correctly (from its start).
    if (existsSync(idx)) unlinkSync(idx);
    renameSync(log + COMPACT_SUFFIX, log);
    renameSync(idx + COMPACT_SUFFIX, idx);
    fsyncDir(a.dir);
    for (const b of bases) {
      if (b <= first || b >= horizon) continue;
      unlinkSync(segmentFile(a.dir, b));
      if (existsSync(indexFile(a.dir, b))) unlinkSync(indexFile(a.dir, b));
    }
    fsyncDir(a.dir);
  } catch (e) {
    throw fileError(e, `retention of ${a.topic}/${a.partition}`);
  }
}
