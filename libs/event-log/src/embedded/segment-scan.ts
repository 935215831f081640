import { BODY_FIXED, FLAG_GAP, FRAME_HEADER, MAX_BODY, checkFrame, gapEnd } from './frame';
import { findNextFrame } from './frame-scan';
import { readFully } from './segment-files';

/** Entries [fromOffset, toOffset) in bytes [position, position + bytes) failed their checks. */
export type DamageCallback = (fromOffset: number, toOffset: number, position: number, bytes: number) => void;

/** Where a scan of a segment ended: the next offset and the end of the last valid frame. */
export interface ScanEnd {
  readonly offset: number;
  readonly position: number;
}

/**
 * Walk the frames of a segment file of `size` bytes from a known frame start to the last valid
 * frame. Damage with valid frames after it is reported and skipped (`onDamage`), never taken for
 * the end; what is left past the returned position is a torn tail (nothing valid follows it).
 * `onFrame` sees each valid frame (to re-create index entries).
 */
export function scanSegment(
  fd: number,
  size: number,
  start: ScanEnd,
  onDamage: DamageCallback,
  onFrame?: (offset: number, position: number) => void,
): ScanEnd {
  let buf = Buffer.allocUnsafe(1 << 20);
  let { offset, position } = start;
  for (;;) {
    const n = readFully(fd, buf, position);
    let pos = 0;
    let bad = false;
    while (pos < n) {
      const bodyLen = checkFrame(buf, pos, n, offset);
      if (bodyLen < 0) {
        const whole =
          bodyLen === -1 &&
          n === buf.length &&
          n - pos >= FRAME_HEADER &&
          buf.readUInt32LE(pos) <= MAX_BODY &&
          position + pos + FRAME_HEADER + buf.readUInt32LE(pos) <= size;
        bad = !whole;
        break;
      }
      onFrame?.(offset, position + pos);
      const body = pos + FRAME_HEADER;
      if ((buf[body + 8]! & FLAG_GAP) !== 0)
        offset = gapEnd(buf, body + BODY_FIXED + buf.readUInt16LE(body + 9), body + bodyLen);
      else offset++;
      pos += FRAME_HEADER + bodyLen;
    }
    position += pos;
    if (!bad && n === buf.length) {
      if (pos === 0) buf = Buffer.allocUnsafe(buf.length * 2);
      continue;
    }
    if (!bad) return { offset, position };
    const found = findNextFrame(fd, position + 1, size, offset, position);
    if (found === null) return { offset, position };
    onDamage(offset, found.offset, position, found.position - position);
    offset = found.offset;
    position = found.position;
  }
}
