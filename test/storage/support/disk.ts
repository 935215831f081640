import { closeSync, openSync, readFileSync, readdirSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** One frame as this test reads it, independently of libs/event-log: where it is and what it holds. */
export interface RawFrame {
  readonly file: string;
  readonly position: number;
  readonly size: number;
  readonly offset: number;
  readonly key: string;
  readonly value: string;
}

/** Segment files of a partition directory, ascending (named <20-digit base>.log). */
export function segments(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => /^\d{20}\.log$/.test(f))
    .sort()
    .map((f) => join(dir, f));
}

/**
 * Every frame of an undamaged partition, read with the layout docs/operations-log.md gives
 * (u32 length | u32 crc | f64 offset | u8 flags | u16 key length | key | value), not with the
 * log's own reader: the test's view of what was acknowledged.
 */
export function rawFrames(dir: string): RawFrame[] {
  const out: RawFrame[] = [];
  for (const file of segments(dir)) {
    const buf = readFileSync(file);
    for (let pos = 0; pos + 8 <= buf.length;) {
      const len = buf.readUInt32LE(pos);
      if (pos + 8 + len > buf.length) break;
      const body = pos + 8;
      const keyEnd = body + 11 + buf.readUInt16LE(body + 9);
      out.push({
        file,
        position: pos,
        size: 8 + len,
        offset: buf.readDoubleLE(body),
        key: buf.toString('utf8', body + 11, keyEnd),
        value: buf.toString('utf8', keyEnd, body + len),
      });
      pos = body + len;
    }
  }
  return out;
}

/** Flip every bit of one byte of a file (damage in place, size unchanged). */
export function flipByte(file: string, position: number): void {
  const fd = openSync(file, 'r+');
  try {
    const b = Buffer.alloc(1);
    readSync(fd, b, 0, 1, position);
    b[0] = b[0]! ^ 0xff;
    writeSync(fd, b, 0, 1, position);
  } finally {
    closeSync(fd);
  }
}

/** Add `delta` to the byte position of entry `i` of an offset index (.idx: u32 offset | u32 position). */
export function shiftIndexEntry(idxFile: string, i: number, delta: number): void {
  const buf = readFileSync(idxFile);
  const fd = openSync(idxFile, 'r+');
  try {
    const e = Buffer.alloc(4);
    e.writeUInt32LE(buf.readUInt32LE(i * 8 + 4) + delta, 0);
    writeSync(fd, e, 0, 4, i * 8 + 4);
  } finally {
    closeSync(fd);
  }
}
