import { BODY_FIXED, FRAME_HEADER, MAX_BODY, MIN_FRAME, checkFrame } from './frame';
import { readFully } from './segment-files';

/** A frame found by a scan. */
export interface FoundFrame {
  readonly position: number;
  readonly offset: number;
}

const CHUNK = 1 << 20;

/**
 * Resynchronise after damage: the first position in [from, end) of the file `fd` holding a whole
 * frame whose CRC matches and whose stored offset fits what can have been lost since the damage
 * began at `damageAt` (at least `expectedOffset`, at most one entry per MIN_FRAME bytes skipped).
 * Frame bodies are JSON text (no NUL bytes), so a frame image cannot hide inside another frame's
 * value; the CRC and the offset window make a chance match in garbage a 2^-32-per-byte event.
 * Returns null when no such frame exists (the damage runs to `end`).
 */
export function findNextFrame(
  fd: number,
  from: number,
  end: number,
  expectedOffset: number,
  damageAt: number,
): FoundFrame | null {
  let buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(0, end - from)));
  for (let chunkAt = from; chunkAt + MIN_FRAME <= end;) {
    const n = readFully(fd, buf, chunkAt);
    if (n < MIN_FRAME) return null;
    // Candidates whose fixed header lies in this chunk; a body past the chunk is read on its own.
    const last = n - MIN_FRAME;
    for (let i = 0; i <= last; i++) {
      const bodyLen = buf.readUInt32LE(i);
      if (bodyLen < BODY_FIXED || bodyLen > MAX_BODY) continue;
      const at = chunkAt + i;
      if (at + FRAME_HEADER + bodyLen > end) continue;
      const offset = buf.readDoubleLE(i + FRAME_HEADER);
      const maxOffset = expectedOffset + Math.floor((at - damageAt) / MIN_FRAME);
      if (!Number.isInteger(offset) || offset < expectedOffset || offset > maxOffset) continue;
      if (buf[i + FRAME_HEADER + 8]! > 3) continue;
      if (i + FRAME_HEADER + bodyLen <= n) {
        if (checkFrame(buf, i, n, offset) > 0) return { position: at, offset };
        continue;
      }
      const whole = Buffer.allocUnsafe(FRAME_HEADER + bodyLen);
      if (readFully(fd, whole, at) === whole.length && checkFrame(whole, 0, whole.length, offset) > 0)
        return { position: at, offset };
    }
    if (chunkAt + n >= end) return null;
    chunkAt += last + 1;
    if (buf.length < CHUNK) buf = Buffer.allocUnsafe(CHUNK);
  }
  return null;
}
