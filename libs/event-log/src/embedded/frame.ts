import { crc32 } from './crc32';

/**
 * Frame layout (little-endian), one per entry:
 *   u32 bodyLength | u32 crc32(body) | body
 *   body = f64 offset | u8 flags | u16 keyBytes | key utf8 | value utf8
 * The length+checksum pair is what makes a torn tail detectable: a frame is valid only when the
 * whole body is present and its CRC matches; the stored offset must also be the expected one.
 */
export const FRAME_HEADER = 8;
export const BODY_FIXED = 11;
export const FLAG_SNAPSHOT = 1;
/**
 * A gap frame (retention's compacted segment, retention.ts): offsets from the frame's own up to the
 * one in its value (decimal, exclusive) were removed by retention. Readers skip it and go on at
 * that offset; it is never returned as an entry.
 */
export const FLAG_GAP = 2;

/** The offset after a gap frame whose value starts at `valueAt` and ends at `end` in `buf`. */
export function gapEnd(buf: Buffer, valueAt: number, end: number): number {
  return Number(buf.toString('latin1', valueAt, end));
}
/**
 * Bodies above this are treated as garbage (a torn length field), not as a huge entry. Writers
 * accept at most MAX_RECORD_BYTES (record-limits.ts); this bound only has to admit every frame an
 * older version may have written.
 */
export const MAX_BODY = 64 * 1024 * 1024;
/** The smallest frame: header and fixed body, empty key and value. */
export const MIN_FRAME = FRAME_HEADER + BODY_FIXED;

export interface EncodedEntry {
  readonly key: string;
  readonly value: string;
  readonly flags: number;
}

/**
 * Encodes frames into one reused buffer, so an append batch costs one pass over its strings and
 * no allocation per entry (no Buffer.byteLength pre-pass: the strings are written straight into
 * room reserved for their worst-case UTF-8 size, 3 bytes per UTF-16 unit). The bytes returned by
 * `bytes()` are valid until the next `reset()`; callers write them out synchronously.
 */
export class FrameEncoder {
  private buf: Buffer;
  private pos = 0;

  constructor(initialBytes = 1 << 20) {
    this.buf = Buffer.allocUnsafe(initialBytes);
  }

  reset(): void {
    this.pos = 0;
  }

  /** Append one frame; throws RangeError (and writes nothing) for an oversized key or entry. */
  add(offset: number, flags: number, key: string, value: string): void {
    // A UTF-16 unit is at least one UTF-8 byte: reject what cannot fit before reserving room.
    if (key.length > 0xffff) throw new RangeError(`log key is over 65535 bytes`);
    if (BODY_FIXED + key.length + value.length > MAX_BODY)
      throw new RangeError(`log entry is larger than ${MAX_BODY} bytes`);
    const worst = FRAME_HEADER + BODY_FIXED + 3 * (key.length + value.length);
    if (this.pos + worst > this.buf.length) this.grow(this.pos + worst);
    const buf = this.buf;
    const start = this.pos;
    const body = start + FRAME_HEADER;
    const keyAt = body + BODY_FIXED;
    const keyBytes = buf.write(key, keyAt, 'utf8');
    if (keyBytes > 0xffff) throw new RangeError(`log key is ${keyBytes} bytes; at most 65535`);
    const valueBytes = buf.write(value, keyAt + keyBytes, 'utf8');
    const bodyLen = BODY_FIXED + keyBytes + valueBytes;
    if (bodyLen > MAX_BODY) throw new RangeError(`log entry is larger than ${MAX_BODY} bytes`);
    buf.writeUInt32LE(bodyLen, start);
    buf.writeDoubleLE(offset, body);
    buf[body + 8] = flags;
    buf.writeUInt16LE(keyBytes, body + 9);
    buf.writeUInt32LE(crc32(buf, body, body + bodyLen), start + 4);
    this.pos = body + bodyLen;
  }

  /** The frames added since the last reset (a view into the reused buffer). */
  bytes(): Buffer {
    return this.buf.subarray(0, this.pos);
  }

  private grow(needed: number): void {
    let size = this.buf.length * 2;
    while (size < needed) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }
}

/** Encode consecutive entries starting at `firstOffset` into a new buffer. */
export function encodeFrames(entries: readonly EncodedEntry[], firstOffset: number): Buffer {
  const enc = new FrameEncoder(256);
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    enc.add(firstOffset + i, e.flags, e.key, e.value);
  }
  return Buffer.from(enc.bytes());
}

export interface DecodedFrame {
  readonly offset: number;
  readonly flags: number;
  readonly key: string;
  readonly value: string;
  /** Bytes the frame occupies (header included). */
  readonly size: number;
}

/**
 * Check the frame at `pos` of `buf` (up to `end`) against `expectedOffset` (-1: any offset).
 * Returns the frame's body length when it is whole and valid, -1 when the buffer ends inside it
 * (read more, or a torn tail), -2 when it is damaged. The hot read path uses this and decodes the
 * strings itself, so no intermediate object is made per entry.
 */
export function checkFrame(buf: Buffer, pos: number, end: number, expectedOffset: number): number {
  if (end - pos < FRAME_HEADER) return -1;
  const bodyLen = buf.readUInt32LE(pos);
  if (bodyLen < BODY_FIXED || bodyLen > MAX_BODY) return -2;
  const body = pos + FRAME_HEADER;
  if (end - body < bodyLen) return -1;
  if (crc32(buf, body, body + bodyLen) !== buf.readUInt32LE(pos + 4)) return -2;
  if (expectedOffset >= 0 && buf.readDoubleLE(body) !== expectedOffset) return -2;
  if (BODY_FIXED + buf.readUInt16LE(body + 9) > bodyLen) return -2;
  return bodyLen;
}

/**
 * Decode the frame at `pos` of `buf`, expecting `expectedOffset` (-1: any offset). Returns 'partial' when the
 * buffer ends inside the frame (read more, or a torn tail), 'invalid' when the frame is damaged.
 */
export function decodeFrame(
  buf: Buffer,
  pos: number,
  end: number,
  expectedOffset: number,
): DecodedFrame | 'partial' | 'invalid' {
  const bodyLen = checkFrame(buf, pos, end, expectedOffset);
  if (bodyLen === -1) return 'partial';
  if (bodyLen === -2) return 'invalid';
  const body = pos + FRAME_HEADER;
  const keyEnd = body + BODY_FIXED + buf.readUInt16LE(body + 9);
  return {
    offset: buf.readDoubleLE(body),
    flags: buf[body + 8]!,
    key: buf.toString('utf8', body + BODY_FIXED, keyEnd),
    value: buf.toString('utf8', keyEnd, body + bodyLen),
    size: FRAME_HEADER + bodyLen,
  };
}

/**
 * Of the frames encoded in `buf`, how many lie wholly within its first `bytes` bytes and where the
 * last of them ends: what a short write left in the file that is worth keeping.
 */
export function wholeFrames(buf: Buffer, bytes: number): { frames: number; end: number } {
  let pos = 0;
  let frames = 0;
  while (pos + FRAME_HEADER <= bytes) {
    const next = pos + FRAME_HEADER + buf.readUInt32LE(pos);
    if (next > bytes) break;
    pos = next;
    frames++;
  }
  return { frames, end: pos };
}
