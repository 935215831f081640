import { closeSync, fstatSync, openSync } from 'node:fs';
import type { TopicName } from '@app/events';
import type { LogEntry } from '../event-log';
import { LogError } from '../log-error';
import { BODY_FIXED, FRAME_HEADER, checkFrame } from './frame';
import { floorIndex, listSegments, readFully, readIndex, segmentFile } from './segment-files';

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
 * Only whole, checksummed frames at the expected offset are returned: a frame still being written
 * (or a torn tail left by a crash) ends the read, and the next read picks up from the same place.
 */
export class PartitionReader {
  private segments: number[] = [];
  private readonly fds = new Map<number, number>();
  private buf = Buffer.allocUnsafe(CHUNK);
  private tail: Cursor | null = null;

  constructor(
    readonly dir: string,
    readonly topic: TopicName,
    readonly partition: number,
  ) {}

  /** A cursor positioned at `offset` (which may lie beyond the current end). */
  seek(offset: number): Cursor {
    if (!Number.isSafeInteger(offset) || offset < 0)
      throw new LogError('bad_argument', `offset must be a non-negative integer, got ${offset}`);
    this.segments = listSegments(this.dir);
    let segment = 0;
    for (const base of this.segments) if (base <= offset) segment = base;
    if (this.segments.length === 0 || segment < this.segments[0]!)
      return { offset: 0, segment: 0, position: 0, skipUntil: offset };
    const size = fstatSync(this.fd(segment)).size;
    const start = floorIndex(readIndex(this.dir, segment, size), segment, offset);
    return { offset: start.offset, segment, position: start.position, skipUntil: offset };
  }

  /** Up to `max` entries from the cursor, advancing it; [] at the current end. */
  next(c: Cursor, max: number): LogEntry[] {
    const out: LogEntry[] = [];
    for (;;) {
      if (!this.hasSegment(c.segment)) return out;
      const buf = this.buf;
      const n = readFully(this.fd(c.segment), buf, c.position);
      let pos = 0;
      let stop: 'partial' | 'invalid' | 'full' | null = null;
      while (pos < n) {
        if (out.length >= max) {
          stop = 'full';
          break;
        }
        const bodyLen = checkFrame(buf, pos, n, c.offset);
        if (bodyLen < 0) {
          stop = bodyLen === -1 ? 'partial' : 'invalid';
          break;
        }
        if (c.offset >= c.skipUntil) {
          // Decoded in place (no intermediate frame object): this loop runs once per entry read.
          const keyAt = pos + FRAME_HEADER + BODY_FIXED;
          const valueAt = keyAt + buf.readUInt16LE(pos + FRAME_HEADER + 9);
          out.push({
            topic: this.topic,
            partition: this.partition,
            offset: c.offset,
            key: buf.toString('utf8', keyAt, valueAt),
            value: buf.toString('utf8', valueAt, pos + FRAME_HEADER + bodyLen),
          });
        }
        pos += FRAME_HEADER + bodyLen;
        c.offset++;
      }
      c.position += pos;
      if (stop === 'full' || stop === 'invalid') return out;
      if (n === this.buf.length) {
        // The chunk was full: more bytes follow. A frame bigger than the buffer needs a bigger one.
        if (pos === 0) this.buf = Buffer.allocUnsafe(this.buf.length * 2);
        continue;
      }
      if (stop === 'partial' || !this.rollTo(c)) return out;
    }
  }

  /** Next offset to be written (the high-water mark), scanning only bytes added since last time. */
  end(): number {
    if (this.tail === null) {
      this.segments = listSegments(this.dir);
      const last = this.segments[this.segments.length - 1];
      if (last === undefined) return 0;
      this.tail = { offset: last, segment: last, position: 0, skipUntil: 0 };
      const size = fstatSync(this.fd(last)).size;
      const index = readIndex(this.dir, last, size);
      const e = index[index.length - 1];
      if (e !== undefined)
        this.tail = { offset: e.offset, segment: last, position: e.position, skipUntil: 0 };
    }
    this.tail.skipUntil = Number.MAX_SAFE_INTEGER;
    this.next(this.tail, Number.MAX_SAFE_INTEGER);
    return this.tail.offset;
  }

  close(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }

  /** At the clean end of a segment: move to the next one when the writer has rolled. */
  private rollTo(c: Cursor): boolean {
    if (!this.segments.includes(c.offset)) this.segments = listSegments(this.dir);
    if (c.offset === c.segment || !this.segments.includes(c.offset)) return false;
    c.segment = c.offset;
    c.position = 0;
    return true;
  }

  private hasSegment(base: number): boolean {
    if (this.fds.has(base) || this.segments.includes(base)) return true;
    this.segments = listSegments(this.dir);
    return this.segments.includes(base);
  }

  private fd(base: number): number {
    let fd = this.fds.get(base);
    if (fd === undefined) {
      fd = openSync(segmentFile(this.dir, base), 'r');
      this.fds.set(base, fd);
    }
    return fd;
  }
}
