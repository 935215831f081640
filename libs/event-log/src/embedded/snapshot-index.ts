import { existsSync, fstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileError } from '../log-error';
import type { HealthRegistry } from '../log-health';
import { BackgroundSync } from './background-sync';
import { FrameEncoder, checkFrame, decodeFrame, MIN_FRAME } from './frame';
import { OPEN_RW, type LogFiles } from './log-files';

/** Kinds of snapshot-index entries (the frame's flags byte). */
export const KIND_SNAPSHOT = 1;
/** The first entry of a key this writer saw: where a key without any snapshot must be read from. */
export const KIND_FIRST = 2;

export interface SnapshotMark {
  readonly key: string;
  readonly offset: number;
  readonly kind: number;
}

export const snapshotIndexFile = (dir: string): string => join(dir, 'snapshots.idx');

/** A partition's marks file as read: its valid marks, and whether it is whole. */
export interface MarksFile {
  readonly marks: SnapshotMark[];
  /** 'damaged': a frame fails its CRC and valid frames follow it (a torn tail alone is 'ok'). */
  readonly state: 'ok' | 'missing' | 'damaged';
  /** Where the valid marks end (a torn tail after it is cut by the writer), or the damage begins. */
  readonly bytes: number;
}

/** Every valid mark of a partition, in append order, and whether the file is missing or damaged. */
export function readSnapshotMarks(dir: string): MarksFile {
  const path = snapshotIndexFile(dir);
  if (!existsSync(path)) return { marks: [], state: 'missing', bytes: 0 };
  const buf = readFileSync(path);
  const marks: SnapshotMark[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const f = decodeFrame(buf, pos, buf.length, -1);
    if (typeof f === 'string') {
      for (let i = pos + 1; i + MIN_FRAME <= buf.length; i++)
        if (checkFrame(buf, i, buf.length, -1) > 0) return { marks, state: 'damaged', bytes: pos };
      break;
    }
    marks.push({ key: f.key, offset: f.offset, kind: f.flags });
    pos += f.size;
  }
  return { marks, state: 'ok', bytes: pos };
}

/** The marks as the bytes of a snapshots.idx file. */
export function encodeMarks(marks: readonly SnapshotMark[]): Buffer {
  const enc = new FrameEncoder(4096);
  for (const m of marks) enc.add(m.offset, m.kind, m.key, '');
  return Buffer.from(enc.bytes());
}

/** What one `mark` call wrote, so a failed entry write can take back the marks of entries not written. */
export interface MarkBatch {
  readonly start: number;
  readonly offsets: number[];
  readonly ends: number[];
  /** Keys first seen in this batch, with the offset of their first mark. */
  readonly added: Map<string, number>;
}

/**
 * Appends marks for one partition (topics folded from snapshots only). Marks are written before
 * the log entries they name, so no entry is ever in the log without its mark; marks of entries
 * that did not make it are taken back (`rollback`), and on open marks at or past the log's end are
 * cut. A missing or damaged file is rebuilt from the segments (`rebuild`), loudly.
 */
export class SnapshotIndexWriter {
  private fd = -1;
  private size = 0;
  private tailDirty = false;
  private readonly seen = new Set<string>();
  private readonly encoder = new FrameEncoder(4096);
  private readonly background: BackgroundSync;
  private dirty = false;

  constructor(
    readonly dir: string,
    private readonly files: LogFiles,
    private readonly health: HealthRegistry,
    private readonly where: string,
  ) {
    this.background = new BackgroundSync(files);
  }

  open(logEnd: number, hasEntries: boolean, rebuild: () => SnapshotMark[]): void {
    const path = snapshotIndexFile(this.dir);
    const read = readSnapshotMarks(this.dir);
    let marks = read.marks;
    let bytes = read.bytes;
    if (read.state !== 'ok' && hasEntries) {
      marks = rebuild();
      const encoded = encodeMarks(marks);
      this.files.replaceFileSync(path, encoded);
      bytes = encoded.length;
      this.health.note(
        `${path} was ${read.state === 'missing' ? 'missing' : `damaged at byte ${read.bytes}`}; rebuilt from the segments of ${this.where} (${marks.length} marks)`,
      );
    }
    this.fd = this.files.openSync(path, OPEN_RW);
    let keep = 0;
    for (const m of marks) {
      if (m.offset >= logEnd) break;
      keep++;
      this.seen.add(m.key);
    }
    if (keep < marks.length) bytes = encodeMarks(marks.slice(0, keep)).length;
    if (fstatSync(this.fd).size !== bytes) this.files.ftruncateSync(this.fd, bytes);
    this.size = bytes;
  }

  /**
   * Record the marks of `entries[indices[j]]`, about to be appended at `firstOffset + j`; returns
   * what was written (null: nothing to mark). Throws a LogError, having written nothing, on failure.
   */
  mark(
    entries: readonly { key: string; snapshot?: boolean }[],
    indices: readonly number[],
    firstOffset: number,
  ): MarkBatch | null {
    const enc = this.encoder;
    enc.reset();
    let batch: MarkBatch | null = null;
    for (let j = 0; j < indices.length; j++) {
      const e = entries[indices[j]!]!;
      const snapshot = e.snapshot === true;
      if (!snapshot && this.seen.has(e.key)) continue;
      batch ??= { start: this.size, offsets: [], ends: [], added: new Map() };
      if (!this.seen.has(e.key)) {
        this.seen.add(e.key);
        batch.added.set(e.key, firstOffset + j);
      }
      // Frames carry their own offset, so non-consecutive offsets are fine in one buffer.
      enc.add(firstOffset + j, snapshot ? KIND_SNAPSHOT : KIND_FIRST, e.key, '');
      batch.offsets.push(firstOffset + j);
      batch.ends.push(enc.bytes().length);
    }
    if (batch === null) return null;
    const bytes = enc.bytes();
    const path = snapshotIndexFile(this.dir);
    try {
      this.background.check(path);
      if (this.tailDirty) this.files.ftruncateSync(this.fd, this.size);
      this.tailDirty = false;
      let written = 0;
      while (written < bytes.length)
        written += this.files.writeSync(this.fd, bytes, written, bytes.length - written, this.size + written);
    } catch (e) {
      this.rollback(batch, firstOffset);
      this.tailDirty = true;
      throw fileError(e, `write of ${path}`);
    }
    this.size += bytes.length;
    this.dirty = true;
    return batch;
  }

  /** Take back the marks of `batch` at or past `keepBelow` (their entries did not reach the log). */
  rollback(batch: MarkBatch, keepBelow: number): void {
    let cut = batch.start;
    for (let i = 0; i < batch.offsets.length && batch.offsets[i]! < keepBelow; i++)
      cut = batch.start + batch.ends[i]!;
    for (const [key, offset] of batch.added) if (offset >= keepBelow) this.seen.delete(key);
    if (cut >= this.size) return;
    this.size = cut;
    try {
      this.files.ftruncateSync(this.fd, cut);
      this.tailDirty = false;
    } catch {
      this.tailDirty = true;
    }
  }

  /** Open the file again after retention replaced it (its marks below the horizon pruned). */
  reopen(): void {
    if (this.fd >= 0) this.background.close(this.fd);
    this.fd = this.files.openSync(snapshotIndexFile(this.dir), OPEN_RW);
    this.size = fstatSync(this.fd).size;
    this.tailDirty = false;
    this.dirty = false;
  }

  sync(): void {
    if (this.fd < 0 || (!this.dirty && !this.background.pending(this.fd))) return;
    try {
      this.files.fdatasyncSync(this.fd);
    } catch (e) {
      throw fileError(e, `fdatasync of ${snapshotIndexFile(this.dir)}`);
    }
    this.dirty = false;
  }

  /** The 'interval' policy's tick (see PartitionWriter.syncInBackground). */
  syncInBackground(): void {
    if (!this.dirty || this.fd < 0 || this.background.pending(this.fd)) return;
    this.dirty = false;
    this.background.start(this.fd);
  }

  close(): void {
    if (this.fd >= 0) this.background.close(this.fd);
    this.fd = -1;
  }
}

/**
 * Where to start reading a partition so that every key's state at `upTo` is rebuilt: the minimum
 * over keys of the key's latest snapshot before `upTo`, or its first mark when it has no snapshot.
 */
export function rebuildStart(marks: readonly SnapshotMark[], upTo: number): number {
  const perKey = new Map<string, number>();
  for (const m of marks) {
    if (m.offset >= upTo) continue;
    const current = perKey.get(m.key);
    if (m.kind === KIND_SNAPSHOT)
      perKey.set(m.key, current === undefined ? m.offset : Math.max(current, m.offset));
    else if (current === undefined) perKey.set(m.key, m.offset);
  }
  let start = upTo;
  for (const offset of perKey.values()) if (offset < start) start = offset;
  return start;
}
