import { fstatSync, mkdirSync } from 'node:fs';
import type { AppendEntry } from '../event-log';
import { LogError, fileError } from '../log-error';
import type { HealthRegistry } from '../log-health';
import { BackgroundSync } from './background-sync';
import { FLAG_SNAPSHOT, wholeFrames, type FrameEncoder } from './frame';
import { OPEN_RW, type LogFiles } from './log-files';
import { frameAt } from './segment-chain';
import { scanSegment, type ScanEnd } from './segment-scan';
import { INDEX_ENTRY, indexFile, listSegments, readIndex, segmentFile } from './segment-files';
import { checkChain } from './writer-chain';

export interface WriterOptions {
  /** Roll to a new segment once the active one reaches this size. */
  readonly segmentBytes: number;
  /** Write an offset-index entry at most every this many log bytes. */
  readonly indexIntervalBytes: number;
  /** Scratch encoder shared by the writers of one log (appends are synchronous). */
  readonly encoder: FrameEncoder;
  readonly files: LogFiles;
  readonly health: HealthRegistry;
  readonly topic: string;
  readonly partition: number;
}

/** An append that failed after `frames` whole frames of its batch had reached the file. */
export class PartialWrite extends Error {
  constructor(
    readonly frames: number,
    readonly error: LogError,
  ) {
    super(error.message);
  }
}

/**
 * The single writer of one topic-partition (the topic lock guarantees one per data directory).
 * Writes are positional at the end it tracks itself (no O_APPEND), so a write that failed half way
 * is cut back to its last whole frame and the next append overwrites exactly those bytes. On open
 * it checks the segment chain and repairs the tail: only an incomplete or damaged last frame that
 * nothing valid follows is cut; damage with valid frames after it is reported and kept.
 */
export class PartitionWriter {
  private base = 0;
  private size = 0;
  private logFd = -1;
  private idxFd = -1;
  private idxSize = 0;
  private sinceIndex = 0;
  private dirty = false;
  /** A failed write may have left bytes past `size` that could not be cut yet. */
  private tailDirty = false;
  private readonly background: BackgroundSync;
  nextOffset = 0;
  /** Bytes cut from the tail when the partition was opened (0 after a clean shutdown). */
  repairedBytes = 0;

  constructor(
    readonly dir: string,
    private readonly options: WriterOptions,
  ) {
    this.background = new BackgroundSync(options.files);
  }

  /** Base offset of the segment being appended to (retention never removes it). */
  get activeBase(): number {
    return this.base;
  }

  private get where(): string {
    return `${this.options.topic}/${this.options.partition}`;
  }

  open(): void {
    mkdirSync(this.dir, { recursive: true });
    const o = this.options;
    this.openSegment(checkChain(this.dir, listSegments(this.dir), o.topic, o.partition, o.health));
    this.recover();
  }

  /** Append `entries[indices[0]]`, ... in one write; throws PartialWrite when it failed. */
  append(entries: readonly AppendEntry[], indices: readonly number[]): void {
    if (this.logFd < 0) throw new LogError('closed', `partition ${this.dir} is closed`);
    try {
      this.background.check(segmentFile(this.dir, this.base));
      this.repairTail();
    } catch (e) {
      throw new PartialWrite(0, fileError(e, `repair of ${segmentFile(this.dir, this.base)}`));
    }
    const first = this.nextOffset;
    const enc = this.options.encoder;
    enc.reset();
    for (let j = 0; j < indices.length; j++) {
      const e = entries[indices[j]!]!;
      enc.add(first + j, e.snapshot === true ? FLAG_SNAPSHOT : 0, e.key, e.value);
    }
    const buf = enc.bytes();
    try {
      if (this.size > 0 && this.size + buf.length > this.options.segmentBytes) this.roll(first);
      if (this.sinceIndex >= this.options.indexIntervalBytes) this.writeIndex(first, this.size);
    } catch (e) {
      throw new PartialWrite(0, fileError(e, `roll or index write of ${this.dir}`));
    }
    this.writeFrames(buf, indices.length);
  }

  /** fdatasync the active segment now if anything was written since the last completed sync. */
  sync(): void {
    if (this.logFd < 0 || (!this.dirty && !this.background.pending(this.logFd))) return;
    try {
      this.options.files.fdatasyncSync(this.logFd);
    } catch (e) {
      throw fileError(e, `fdatasync of ${segmentFile(this.dir, this.base)}`);
    }
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

  /**
   * Resolves once everything written before the call is on disk: waits for a sync already
   * running, then syncs on the thread pool what was written since (a rolled segment was synced
   * when it rolled). Rejects when a sync failed.
   */
  async durable(): Promise<void> {
    const fd = this.logFd;
    if (fd < 0) return;
    await this.background.done(fd);
    if (this.dirty && this.logFd === fd) {
      this.dirty = false;
      this.background.start(fd);
      await this.background.done(fd);
    }
    const failed = this.background.failed;
    if (failed !== null) throw fileError(failed, `fdatasync of ${this.where}`);
  }

  close(): void {
    if (this.logFd < 0) return;
    try {
      this.sync();
    } catch (e) {
      this.options.health.problem(`closing ${this.where}: ${(e as Error).message}`);
    }
    this.closeFds();
  }

  private writeFrames(buf: Buffer, count: number): void {
    const files = this.options.files;
    let written = 0;
    try {
      while (written < buf.length) {
        const n = files.writeSync(this.logFd, buf, written, buf.length - written, this.size + written);
        if (n <= 0) throw new Error(`write(2) wrote nothing at byte ${this.size + written}`);
        written += n;
      }
    } catch (e) {
      // Whole frames stay: a reader may already have read them. The partial frame is cut back.
      const whole = wholeFrames(buf, written);
      this.size += whole.end;
      this.sinceIndex += whole.end;
      this.nextOffset += whole.frames;
      if (whole.end > 0) this.dirty = true;
      if (written > whole.end) this.cutTail();
      throw new PartialWrite(whole.frames, fileError(e, `write of ${segmentFile(this.dir, this.base)}`));
    }
    this.size += buf.length;
    this.sinceIndex += buf.length;
    this.nextOffset += count;
    this.dirty = true;
  }

  private cutTail(): void {
    try {
      this.options.files.ftruncateSync(this.logFd, this.size);
      this.tailDirty = false;
    } catch {
      this.tailDirty = true; // cut before the next write (the positional write overwrites it anyway)
    }
  }

  private repairTail(): void {
    if (!this.tailDirty) return;
    this.options.files.ftruncateSync(this.logFd, this.size);
    this.tailDirty = false;
  }

  /** Start a new segment at `first`; the old one is synced first and stays active if this fails. */
  private roll(first: number): void {
    this.sync();
    const files = this.options.files;
    const logFd = files.openSync(segmentFile(this.dir, first), OPEN_RW);
    let idxFd: number;
    try {
      idxFd = files.openSync(indexFile(this.dir, first), OPEN_RW);
    } catch (e) {
      files.closeSync(logFd);
      throw e;
    }
    this.closeFds();
    this.logFd = logFd;
    this.idxFd = idxFd;
    this.base = first;
    this.size = 0;
    this.idxSize = 0;
    this.sinceIndex = 0;
  }

  private openSegment(base: number): void {
    const files = this.options.files;
    this.base = base;
    this.logFd = files.openSync(segmentFile(this.dir, base), OPEN_RW);
    this.idxFd = files.openSync(indexFile(this.dir, base), OPEN_RW);
    this.size = fstatSync(this.logFd).size;
    this.idxSize = fstatSync(this.idxFd).size;
  }

  private closeFds(): void {
    this.background.close(this.logFd);
    this.options.files.closeSync(this.idxFd);
    this.logFd = -1;
    this.idxFd = -1;
  }

  private writeIndex(offset: number, position: number): void {
    const e = Buffer.allocUnsafe(INDEX_ENTRY);
    e.writeUInt32LE(offset - this.base, 0);
    e.writeUInt32LE(position, 4);
    const files = this.options.files;
    try {
      let w = 0;
      while (w < INDEX_ENTRY) w += files.writeSync(this.idxFd, e, w, INDEX_ENTRY - w, this.idxSize + w);
    } catch (err) {
      try {
        files.ftruncateSync(this.idxFd, this.idxSize);
      } catch {
        // A torn entry is ignored by readIndex and overwritten by the next one.
      }
      throw err;
    }
    this.idxSize += INDEX_ENTRY;
    this.sinceIndex = 0;
  }

  /**
   * Verify the index from its end (entries that do not point at their frame are dropped), scan
   * the active segment from the last good entry, re-creating index entries as it goes, and cut
   * only a torn tail. Damage in the middle is reported and kept: readers skip exactly it.
   */
  private recover(): void {
    const { files, health, topic, partition } = this.options;
    const where = this.where;
    const seg = segmentFile(this.dir, this.base);
    const index = readIndex(this.dir, this.base, this.size);
    let keep = index.length;
    while (keep > 0 && !frameAt(this.logFd, index[keep - 1]!.position, index[keep - 1]!.offset)) keep--;
    if (keep < index.length)
      health.note(
        `${indexFile(this.dir, this.base)}: ${index.length - keep} entr${index.length - keep === 1 ? 'y' : 'ies'} from entry ${keep} on point at no frame of their offset; dropped and re-created from the segment`,
      );
    if (keep * INDEX_ENTRY !== this.idxSize) {
      files.ftruncateSync(this.idxFd, keep * INDEX_ENTRY);
      this.idxSize = keep * INDEX_ENTRY;
    }
    const start: ScanEnd = index[keep - 1] ?? { offset: this.base, position: 0 };
    let indexed = start.position;
    const end = scanSegment(
      this.logFd,
      this.size,
      start,
      (from, to, position, bytes) =>
        health.damaged({
          topic,
          partition,
          fromOffset: from,
          toOffset: to,
          file: seg,
          position,
          bytes,
          reason: 'found by the writer on open: frame fails its checks, valid frames follow (kept)',
        }),
      (offset, position) => {
        if (position - indexed < this.options.indexIntervalBytes) return;
        this.writeIndex(offset, position);
        indexed = position;
      },
    );
    if (end.position < this.size) {
      this.repairedBytes = this.size - end.position;
      health.note(
        `${where}: cut a torn tail of ${this.repairedBytes} bytes at byte ${end.position} of ${seg} (offset ${end.offset} on): an incomplete or damaged last frame that nothing valid follows`,
      );
      files.ftruncateSync(this.logFd, end.position);
      files.fdatasyncSync(this.logFd);
      this.size = end.position;
    }
    this.nextOffset = end.offset;
    this.sinceIndex = end.position - indexed;
  }
}
