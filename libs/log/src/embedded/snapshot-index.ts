import { closeSync, existsSync, fdatasyncSync, fstatSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { decodeFrame, encodeFrames } from './frame';
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

  /** Record the marks of a batch about to be appended at `firstOffset`; true when any was written. */
  mark(entries: readonly { key: string; snapshot?: boolean }[], firstOffset: number): boolean {
    const marks: { key: string; value: string; flags: number }[] = [];
    const offsets: number[] = [];
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      const first = !this.seen.has(e.key);
      if (!first && e.snapshot !== true) continue;
      this.seen.add(e.key);
      marks.push({ key: e.key, value: '', flags: e.snapshot === true ? KIND_SNAPSHOT : KIND_FIRST });
      offsets.push(firstOffset + i);
    }
    if (marks.length === 0) return false;
    // Frames carry their own offset; encode one by one since the offsets are not consecutive.
    const bufs = marks.map((m, i) => encodeFrames([m], offsets[i]!));
    writeSync(this.fd, Buffer.concat(bufs));
    return true;
  }

  sync(): void {
    if (this.fd >= 0) fdatasyncSync(this.fd);
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
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
