import { closeSync, existsSync, fdatasyncSync, fstatSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { BackgroundSync } from './background-sync';
import { FrameEncoder, decodeFrame, encodeFrames } from './frame';
import { readFully } from './segment-files';

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

/** Every valid mark of a partition, in append order (a torn tail is ignored). */
export function readSnapshotMarks(dir: string): SnapshotMark[] {
  const path = snapshotIndexFile(dir);
  if (!existsSync(path)) return [];
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(fstatSync(fd).size);
    const n = readFully(fd, buf, 0);
    const out: SnapshotMark[] = [];
    let pos = 0;
    while (pos < n) {
      const f = decodeFrame(buf, pos, n, -1);
      if (typeof f === 'string') break;
      out.push({ key: f.key, offset: f.offset, kind: f.flags });
      pos += f.size;
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

/**
 * Appends marks for one partition. Marks are written before the log entries they name, so no
 * entry is ever in the log without its mark; on open, marks that are torn or point at or past the
 * log's end (their entries never made it) are cut. Readers ignore marks at or past their `upTo`.
 */
export class SnapshotIndexWriter {
  private fd = -1;
  private readonly seen = new Set<string>();
  private readonly encoder = new FrameEncoder(4096);
  private readonly background = new BackgroundSync();
  private dirty = false;

  constructor(readonly dir: string) {}

  open(logEnd: number): void {
    const marks = readSnapshotMarks(this.dir);
    this.fd = openSync(snapshotIndexFile(this.dir), 'a+');
    let keep = 0;
    let bytes = 0;
    for (const m of marks) {
      if (m.offset >= logEnd) break;
      keep++;
      bytes += encodeFrames([{ key: m.key, value: '', flags: m.kind }], m.offset).length;
      this.seen.add(m.key);
    }
    if (keep < marks.length || fstatSync(this.fd).size !== bytes) ftruncateSync(this.fd, bytes);
  }

  /**
   * Record the marks of `entries[indices[j]]`, about to be appended at `firstOffset + j`; true when
   * any was written.
   */
  mark(
    entries: readonly { key: string; snapshot?: boolean }[],
    indices: readonly number[],
    firstOffset: number,
  ): boolean {
    const enc = this.encoder;
    enc.reset();
    let any = false;
    for (let j = 0; j < indices.length; j++) {
      const e = entries[indices[j]!]!;
      const snapshot = e.snapshot === true;
      if (!snapshot && this.seen.has(e.key)) continue;
      this.seen.add(e.key);
      // Frames carry their own offset, so non-consecutive offsets are fine in one buffer.
      enc.add(firstOffset + j, snapshot ? KIND_SNAPSHOT : KIND_FIRST, e.key, '');
      any = true;
    }
    if (!any) return false;
    this.background.check(this.dir);
    const bytes = enc.bytes();
    let written = 0;
    while (written < bytes.length) written += writeSync(this.fd, bytes, written, bytes.length - written);
    this.dirty = true;
    return true;
  }

  sync(): void {
    if (this.fd < 0 || (!this.dirty && !this.background.pending(this.fd))) return;
    fdatasyncSync(this.fd);
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
