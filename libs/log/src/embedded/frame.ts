import { crc32 } from 'node:zlib';

/**
 * Frame layout (little-endian), one per entry:
 *   u32 bodyLength | u32 crc32(body) | body
 *   body = f64 offset | u8 flags | u16 keyBytes | key utf8 | value utf8
 * The length+checksum pair is what makes a torn tail detectable: a frame is valid only when the
 * whole body is present and its CRC matches; the stored offset must also be the expected one.
 */
export const FRAME_HEADER = 8;
const BODY_FIXED = 11;
export const FLAG_SNAPSHOT = 1;
/** Bodies above this are treated as garbage (a torn length field), not as a huge entry. */
export const MAX_BODY = 64 * 1024 * 1024;

export interface EncodedEntry {
  readonly key: string;
  readonly value: string;
  readonly flags: number;
}

/** Encode consecutive entries starting at `firstOffset` into one buffer (one write per batch). */
export function encodeFrames(entries: readonly EncodedEntry[], firstOffset: number): Buffer {
  let total = 0;
  const keyLens = new Array<number>(entries.length);
  const valueLens = new Array<number>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const k = Buffer.byteLength(e.key, 'utf8');
    if (k > 0xffff) throw new RangeError(`log key is ${k} bytes; at most 65535`);
    keyLens[i] = k;
    valueLens[i] = Buffer.byteLength(e.value, 'utf8');
    if (BODY_FIXED + k + valueLens[i]! > MAX_BODY)
      throw new RangeError(`log entry is larger than ${MAX_BODY} bytes`);
    total += FRAME_HEADER + BODY_FIXED + k + valueLens[i]!;
  }
  const buf = Buffer.allocUnsafe(total);
  let pos = 0;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const bodyLen = BODY_FIXED + keyLens[i]! + valueLens[i]!;
    const body = pos + FRAME_HEADER;
    buf.writeUInt32LE(bodyLen, pos);
    buf.writeDoubleLE(firstOffset + i, body);
    buf[body + 8] = e.flags;
    buf.writeUInt16LE(keyLens[i]!, body + 9);
    buf.write(e.key, body + BODY_FIXED, keyLens[i]!, 'utf8');
    buf.write(e.value, body + BODY_FIXED + keyLens[i]!, valueLens[i]!, 'utf8');
    buf.writeUInt32LE(crc32(buf.subarray(body, body + bodyLen)), pos + 4);
    pos = body + bodyLen;
  }
  return buf;
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
 * Decode the frame at `pos` of `buf`, expecting `expectedOffset` (-1: any offset). Returns 'partial' when the
 * buffer ends inside the frame (read more, or a torn tail), 'invalid' when the frame is damaged.
 */
export function decodeFrame(
  buf: Buffer,
  pos: number,
  end: number,
  expectedOffset: number,
): DecodedFrame | 'partial' | 'invalid' {
  if (end - pos < FRAME_HEADER) return 'partial';
  const bodyLen = buf.readUInt32LE(pos);
  if (bodyLen < BODY_FIXED || bodyLen > MAX_BODY) return 'invalid';
  const body = pos + FRAME_HEADER;
  if (end - body < bodyLen) return 'partial';
  if (crc32(buf.subarray(body, body + bodyLen)) !== buf.readUInt32LE(pos + 4)) return 'invalid';
  const offset = buf.readDoubleLE(body);
  if (expectedOffset >= 0 && offset !== expectedOffset) return 'invalid';
  const keyLen = buf.readUInt16LE(body + 9);
  if (BODY_FIXED + keyLen > bodyLen) return 'invalid';
  const keyEnd = body + BODY_FIXED + keyLen;
  return {
    offset,
    flags: buf[body + 8]!,
    key: buf.toString('utf8', body + BODY_FIXED, keyEnd),
    value: buf.toString('utf8', keyEnd, body + bodyLen),
    size: FRAME_HEADER + bodyLen,
  };
}
