import { closeSync, fdatasyncSync, fstatSync, ftruncateSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { BackgroundSync } from './background-sync';
import { LogError } from '../log-error';
import type { AppendEntry } from '../event-log';
import { FLAG_SNAPSHOT, decodeFrame, type FrameEncoder } from './frame';
import { INDEX_ENTRY, indexFile, listSegments, readFully, readIndex, segmentFile } from './segment-files';

export interface WriterOptions {
  /** Roll to a new segment once the active one reaches this size. */
  readonly segmentBytes: number;
  /** Write an offset-index entry at most every this many log bytes. */
  readonly indexIntervalBytes: number;
  /** Scratch encoder shared by the writers of one log (appends are synchronous). */
  readonly encoder: FrameEncoder;
}

/**
 * The single writer of one topic-partition (the topic lock guarantees one per data directory).
 * On open it repairs the tail: the active segment is scanned from its last index entry and cut at
 * the first frame that is incomplete or fails its checksum, so a crash mid-append never leaves
 * garbage that a reader could replay.
 */
export class PartitionWriter {
  private base = 0;
  private size = 0;
  private logFd = -1;
  private idxFd = -1;
  private sinceIndex = 0;
  private dirty = false;
  private readonly background = new BackgroundSync();
  nextOffset = 0;
  /** Bytes cut from the tail when the partition was opened (0 after a clean shutdown). */
  repairedBytes = 0;

  constructor(
    readonly dir: string,
    private readonly options: WriterOptions,
  ) {}

  open(): void {
    mkdirSync(this.dir, { recursive: true });
    const segments = listSegments(this.dir);
    this.openSegment(segments[segments.length - 1] ?? 0);
    this.recover();
  }

  /** Append `entries[indices[0]]`, `entries[indices[1]]`, ... in one write; returns the first offset. */
  append(entries: readonly AppendEntry[], indices: readonly number[]): number {
    if (this.logFd < 0) throw new LogError('closed', `partition ${this.dir} is closed`);
    this.background.check(this.dir);
    const first = this.nextOffset;
    const enc = this.options.encoder;
    enc.reset();
    for (let j = 0; j < indices.length; j++) {
      const e = entries[indices[j]!]!;
      enc.add(first + j, e.snapshot === true ? FLAG_SNAPSHOT : 0, e.key, e.value);
    }
    const buf = enc.bytes();
    if (this.size > 0 && this.size + buf.length > this.options.segmentBytes) {
      // The timer only syncs the active segment: make the one being closed durable now.
      this.sync();
      this.closeFds();
      this.openSegment(first);
    }
    if (this.sinceIndex >= this.options.indexIntervalBytes) this.writeIndex(first, this.size);
    let written = 0;
    while (written < buf.length)
      written += writeSync(this.logFd, buf, written, buf.length - written, this.size + written);
    this.size += buf.length;
    this.sinceIndex += buf.length;
    this.nextOffset += indices.length;
    this.dirty = true;
    return first;
  }

  /** fdatasync the active segment now if anything was written since the last completed sync. */
  sync(): void {
    if (this.logFd < 0 || (!this.dirty && !this.background.pending(this.logFd))) return;
    fdatasyncSync(this.logFd);
    this.dirty = false;
  }

  /**
   * The 'interval' policy's tick: fdatasync the active segment on libuv's thread pool if anything
   * was written since the last sync, so appends (and a feed in the same process) are not stalled
   * for the length of a disk flush.
   */
  syncInBackground(): void {
    if (!this.dirty || this.logFd < 0 || this.background.pending(this.logFd)) return;
    this.dirty = false;
    this.background.start(this.logFd);
  }

  close(): void {
    if (this.logFd < 0) return;
    this.sync();
    this.closeFds();
  }

  private openSegment(base: number): void {
    this.base = base;
    this.logFd = openSync(segmentFile(this.dir, base), 'a+');
    this.idxFd = openSync(indexFile(this.dir, base), 'a+');
    this.size = fstatSync(this.logFd).size;
    this.sinceIndex = 0;
  }

  private closeFds(): void {
    this.background.close(this.logFd);
    closeSync(this.idxFd);
    this.logFd = -1;
    this.idxFd = -1;
  }

  private writeIndex(offset: number, position: number): void {
    const e = Buffer.allocUnsafe(INDEX_ENTRY);
    e.writeUInt32LE(offset - this.base, 0);
    e.writeUInt32LE(position, 4);
    writeSync(this.idxFd, e);
    this.sinceIndex = 0;
  }

  private recover(): void {
    const index = readIndex(this.dir, this.base, this.size);
    ftruncateSync(this.idxFd, index.length * INDEX_ENTRY);
    const last = index[index.length - 1] ?? { offset: this.base, position: 0 };
    let offset = last.offset;
    let position = last.position;
    let buf = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const n = readFully(this.logFd, buf, position);
      let pos = 0;
      let bad = false;
      while (pos < n) {
        const f = decodeFrame(buf, pos, n, offset);
        if (f === 'partial' || f === 'invalid') {
          bad = f === 'invalid' || n < buf.length;
          break;
        }
        pos += f.size;
        offset++;
      }
      position += pos;
      if (bad || n < buf.length) break;
      if (pos === 0) buf = Buffer.allocUnsafe(buf.length * 2);
    }
    if (position < this.size) {
      this.repairedBytes = this.size - position;
      ftruncateSync(this.logFd, position);
      fdatasyncSync(this.logFd);
      this.size = position;
    }
    this.nextOffset = offset;
    this.sinceIndex = position - last.position;
  }
}
