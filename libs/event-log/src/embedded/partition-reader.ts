import type { TopicName } from '@app/events';
import type { LogEntry } from '../event-log';
import { LogError } from '../log-error';
import type { HealthRegistry } from '../log-health';
import { BODY_FIXED, FLAG_GAP, FRAME_HEADER, MAX_BODY, checkFrame, gapEnd } from './frame';
import { findNextFrame } from './frame-scan';
import { readRetainedFrom } from './retention-file';
import { SegmentChain, frameAt } from './segment-chain';
import { readFully, readIndex, segmentFile, indexFile, type IndexEntry } from './segment-files';

/** A read position inside one partition; entries below `skipUntil` are scanned but not returned. */
export interface Cursor {
  offset: number;
  segment: number;
  position: number;
  skipUntil: number;
}

const CHUNK = 1 << 20;

/**
 * Reads one topic-partition's segments, in this process or while another process writes them.
 * Only whole, checksummed frames at the expected offset are returned. A frame still being written
 * (or a torn tail left by a crash) ends the read, and the next read picks up from the same place.
 * A damaged frame with valid frames after it, or a sealed segment that ends early, is reported
 * (HealthRegistry) and skipped: the entries lost are named and counted, the rest are read.
 */
export class PartitionReader {
  private readonly chain: SegmentChain;
  private buf = Buffer.allocUnsafe(CHUNK);
  private tail: Cursor | null = null;
  /** A tail already scanned for a later valid frame, not rescanned until the file grows. */
  private deadTail = { segment: -1, position: -1, size: -1 };

  constructor(
    readonly dir: string,
    readonly topic: TopicName,
    readonly partition: number,
    private readonly health: HealthRegistry,
  ) {
    this.chain = new SegmentChain(dir, `${topic}/${partition}`, health);
  }

  /** A cursor positioned at `offset` (which may lie beyond the current end). */
  seek(offset: number): Cursor {
    if (!Number.isSafeInteger(offset) || offset < 0)
      throw new LogError('bad_argument', `offset must be a non-negative integer, got ${offset}`);
    const bases = this.chain.list();
    let segment = bases[0] ?? 0;
    for (const base of bases) if (base <= offset && this.chain.state(base) !== 'stray') segment = base;
    if (bases.length === 0 || segment > offset)
      return { offset: segment, segment, position: 0, skipUntil: offset };
    const start = this.indexFloor(segment, offset);
    return { offset: start.offset, segment, position: start.position, skipUntil: offset };
  }

  /** Up to `max` entries from the cursor, advancing it; [] at the current end. */
  next(c: Cursor, max: number, flags?: number[]): LogEntry[] {
    const out: LogEntry[] = [];
    for (;;) {
      if (!this.chain.has(c.segment)) return out;
      const buf = this.buf;
      const n = readFully(this.chain.fd(c.segment), buf, c.position);
      let pos = 0;
      let bad = false;
      while (pos < n) {
        if (out.length >= max) {
          c.position += pos;
          return out;
        }
        const bodyLen = checkFrame(buf, pos, n, c.offset);
        if (bodyLen < 0) {
          // The chunk ended inside a frame the file holds whole: read on from it.
          bad = bodyLen === -2 || n < buf.length || !this.wholeInFile(c, pos, n);
          break;
        }
        const keyAt = pos + FRAME_HEADER + BODY_FIXED;
        const valueAt = keyAt + buf.readUInt16LE(pos + FRAME_HEADER + 9);
        if ((buf[pos + FRAME_HEADER + 8]! & FLAG_GAP) !== 0) {
          // Offsets removed by retention: go on at the gap's end, returning nothing for it.
          c.offset = gapEnd(buf, valueAt, pos + FRAME_HEADER + bodyLen);
          pos += FRAME_HEADER + bodyLen;
          continue;
        }
        if (c.offset >= c.skipUntil) {
          // Decoded in place (no intermediate frame object): this loop runs once per entry read.
          out.push({
            topic: this.topic,
            partition: this.partition,
            offset: c.offset,
            key: buf.toString('utf8', keyAt, valueAt),
            value: buf.toString('utf8', valueAt, pos + FRAME_HEADER + bodyLen),
          });
          flags?.push(buf[pos + FRAME_HEADER + 8]!);
        }
        pos += FRAME_HEADER + bodyLen;
        c.offset++;
      }
      c.position += pos;
      if (!bad && n === buf.length) {
        // The chunk was full: more bytes follow. A frame bigger than the buffer needs a bigger one.
        if (pos === 0) this.buf = Buffer.allocUnsafe(this.buf.length * 2);
        continue;
      }
      if (!this.advance(c, bad)) return out;
    }
  }

  /** Next offset to be written (the high-water mark), scanning only bytes added since last time. */
  end(): number {
    if (this.tail === null) {
      const bases = this.chain.list();
      // The last segment holding frames: an empty newer one (a roll in progress) is reached by reading.
      let last: number | undefined;
      for (const base of bases) if (this.chain.state(base) === 'ok') last = base;
      if (last === undefined) return bases.length === 0 ? 0 : bases[0]!;
      const e = this.indexFloor(last, Number.MAX_SAFE_INTEGER);
      this.tail = { offset: e.offset, segment: last, position: e.position, skipUntil: 0 };
    }
    this.tail.skipUntil = Number.MAX_SAFE_INTEGER;
    this.next(this.tail, Number.MAX_SAFE_INTEGER);
    return this.tail.offset;
  }

  close(): void {
    this.chain.close();
  }

  /** Whether the frame at chunk position `pos` lies wholly within the file (so a bigger read gets it). */
  private wholeInFile(c: Cursor, pos: number, n: number): boolean {
    if (n - pos < FRAME_HEADER) return true;
    const bodyLen = this.buf.readUInt32LE(pos);
    return bodyLen <= MAX_BODY && c.position + pos + FRAME_HEADER + bodyLen <= this.chain.size(c.segment);
  }

  /**
   * At a frame that is not valid (`bad`) or at the clean end of what the segment holds: skip the
   * damage when a valid frame follows it, or move to the segment that continues the log. False
   * when there is nothing more to read now (the live tail, or a torn tail nothing follows).
   */
  private advance(c: Cursor, bad: boolean): boolean {
    const fd = this.chain.fd(c.segment);
    const size = this.chain.size(c.segment);
    if (!bad && c.position < size) return true; // the writer appended meanwhile
    const file = segmentFile(this.dir, c.segment);
    // A frame read while the writer's write(2) of it was still landing can look damaged: read it
    // again before calling it damage (a chunk read is not atomic with a concurrent write).
    if (bad && frameAt(fd, c.position, c.offset)) return true;
    if (bad) {
      const t = this.deadTail;
      if (t.segment !== c.segment || t.position !== c.position || t.size !== size) {
        const found = findNextFrame(fd, c.position + 1, size, c.offset, c.position);
        if (found !== null) {
          this.health.damaged({
            topic: this.topic,
            partition: this.partition,
            fromOffset: c.offset,
            toOffset: found.offset,
            file,
            position: c.position,
            bytes: found.position - c.position,
            reason: 'frame fails its checksum, length or offset check, valid frames follow',
          });
          c.offset = found.offset;
          c.position = found.position;
          return true;
        }
        this.deadTail = { segment: c.segment, position: c.position, size };
      }
    }
    const next = this.chain.following(c.segment, c.offset);
    if (next === null) return false;
    if (next > c.offset && c.offset < readRetainedFrom(this.dir)) {
      // Retention replaced the segments ahead while this cursor read an old one: the entries books
      // need from here to the horizon are in the new compacted first segment. Read on from it.
      this.chain.reset();
      const at = this.seek(c.offset);
      c.segment = at.segment;
      c.position = at.position;
      c.skipUntil = Math.max(c.skipUntil, c.offset);
      c.offset = at.offset;
      return true;
    }
    // Segments missing below the retention horizon were removed on purpose, not lost.
    if ((c.position < size || next > c.offset) && next > readRetainedFrom(this.dir))
      this.health.damaged({
        topic: this.topic,
        partition: this.partition,
        fromOffset: c.offset,
        toOffset: next,
        file,
        position: c.position,
        bytes: size - c.position,
        reason:
          c.position < size
            ? 'unreadable bytes at the end of a sealed segment'
            : `segment ends at offset ${c.offset} but the next one starts at ${next} (truncated or missing data)`,
      });
    c.segment = next;
    c.offset = next;
    c.position = 0;
    return true;
  }

  /**
   * The last index entry at or before `offset` that really points at a frame of its offset (a
   * shifted or garbled entry is reported and passed over), or the segment start.
   */
  private indexFloor(base: number, offset: number): IndexEntry {
    const fd = this.chain.fd(base);
    const index = readIndex(this.dir, base, this.chain.size(base));
    let lo = 0;
    let hi = index.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (index[mid]!.offset <= offset) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo - 1; i >= 0; i--) {
      const e = index[i]!;
      if (frameAt(fd, e.position, e.offset)) return e;
      this.health.note(
        `${indexFile(this.dir, base)}: entry ${i} says offset ${e.offset} is at byte ${e.position}, which holds no such frame; read from an earlier entry instead`,
      );
    }
    return { offset: base, position: 0 };
  }
}
