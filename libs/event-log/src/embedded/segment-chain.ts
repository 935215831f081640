import { closeSync, fstatSync, openSync } from 'node:fs';
import type { HealthRegistry } from '../log-health';
import { FRAME_HEADER, MAX_BODY, checkFrame } from './frame';
import { findNextFrame } from './frame-scan';
import { readRetainedFrom } from './retention-file';
import { listSegments, readFully, segmentFile } from './segment-files';

/** What a segment file holds: frames of the log, nothing yet, or something that is not part of the log. */
export type SegmentState = 'ok' | 'empty' | 'stray';

/**
 * The segment files of one partition directory as a reader sees them: open handles, and which
 * files really continue the log. A file named like a segment whose first frames do not carry its
 * base offset (a stray copy, garbage) is reported once and never read.
 */
export class SegmentChain {
  bases: number[] = [];
  private readonly fds = new Map<number, number>();
  private readonly states = new Map<number, 'ok' | 'stray'>();

  constructor(
    readonly dir: string,
    private readonly where: string,
    private readonly health: HealthRegistry,
  ) {}

  list(): number[] {
    this.bases = listSegments(this.dir);
    return this.bases;
  }

  has(base: number): boolean {
    if (this.fds.has(base) || this.bases.includes(base)) return true;
    return this.list().includes(base);
  }

  fd(base: number): number {
    let fd = this.fds.get(base);
    if (fd === undefined) {
      fd = openSync(segmentFile(this.dir, base), 'r');
      this.fds.set(base, fd);
    }
    return fd;
  }

  size(base: number): number {
    return fstatSync(this.fd(base)).size;
  }

  /** 'ok' once a valid frame of offset >= base is found near its start; 'empty' while it has none yet. */
  state(base: number): SegmentState {
    const known = this.states.get(base);
    if (known !== undefined) return known;
    const fd = this.fd(base);
    const size = fstatSync(fd).size;
    const head = Buffer.allocUnsafe(Math.min(size, FRAME_HEADER));
    if (readFully(fd, head, 0) < FRAME_HEADER) return 'empty';
    const bodyLen = head.readUInt32LE(0);
    if (bodyLen <= MAX_BODY && FRAME_HEADER + bodyLen > size) return 'empty'; // first frame being written
    if (frameAt(fd, 0, base) || findNextFrame(fd, 1, size, base, 0) !== null) {
      this.states.set(base, 'ok');
      return 'ok';
    }
    this.states.set(base, 'stray');
    this.health.problem(
      `${segmentFile(this.dir, base)} is named like a segment of ${this.where} starting at offset ${base}, but holds no frame of that offset: not part of the log, ignored (move it out of ${this.dir})`,
    );
    return 'stray';
  }

  /**
   * The segment that continues the log after the segment `after` whose entries end at `offset`
   * (exclusive), or null while none does (the writer has not rolled yet, or rolled and not written).
   */
  following(after: number, offset: number): number | null {
    for (const base of this.list()) {
      if (base <= after) continue;
      const s = this.state(base);
      if (s === 'empty') return null;
      if (s === 'stray') continue;
      if (base < offset) {
        // A segment a retention pass is about to unlink (the compacted one before it covers it).
        if (base < readRetainedFrom(this.dir)) continue;
        this.states.set(base, 'stray');
        this.health.problem(
          `${segmentFile(this.dir, base)} starts at offset ${base}, inside segment ${after} of ${this.where} (which runs to ${offset}): an overlapping copy, ignored (move it out of ${this.dir})`,
        );
        continue;
      }
      return base;
    }
    return null;
  }

  close(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }

  /** Forget every open file and what was learnt of them (retention replaced files under us). */
  reset(): void {
    this.close();
    this.states.clear();
    this.bases = [];
  }
}

/** Whether `fd` holds a whole, valid frame of `offset` at `position`. */
export function frameAt(fd: number, position: number, offset: number): boolean {
  const head = Buffer.allocUnsafe(FRAME_HEADER);
  if (readFully(fd, head, position) < FRAME_HEADER) return false;
  const bodyLen = head.readUInt32LE(0);
  if (bodyLen > MAX_BODY) return false;
  const frame = Buffer.allocUnsafe(FRAME_HEADER + bodyLen);
  const n = readFully(fd, frame, position);
  return checkFrame(frame, 0, n, offset) > 0;
}
