import { closeSync, existsSync, openSync, readSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Files of one topic-partition directory:
 *   <base>.log   frames (see frame.ts), base = offset of its first entry, 20 digits
 *   <base>.idx   sparse offset index: u32 (offset - base) | u32 byte position, ascending
 *   snapshots.idx  frames naming snapshot / first-seen entries of keys (snapshot-index.ts)
 */
export const INDEX_ENTRY = 8;

export const segmentFile = (dir: string, base: number): string =>
  join(dir, `${String(base).padStart(20, '0')}.log`);
export const indexFile = (dir: string, base: number): string =>
  join(dir, `${String(base).padStart(20, '0')}.idx`);

/** Base offsets of the partition's segments, ascending. */
export function listSegments(dir: string): number[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /^\d{20}\.log$/.test(f))
    .map((f) => Number(f.slice(0, 20)))
    .sort((a, b) => a - b);
}

export interface IndexEntry {
  readonly offset: number;
  readonly position: number;
}

/**
 * Read a segment's offset index, keeping only a well-formed ascending prefix that points inside
 * the segment (a torn index write or an entry beyond a truncated log is dropped, never trusted).
 */
export function readIndex(dir: string, base: number, logSize: number): IndexEntry[] {
  const path = indexFile(dir, base);
  if (!existsSync(path)) return [];
  const size = statSync(path).size;
  const buf = Buffer.allocUnsafe(size - (size % INDEX_ENTRY));
  const fd = openSync(path, 'r');
  try {
    readFully(fd, buf, 0);
  } finally {
    closeSync(fd);
  }
  const out: IndexEntry[] = [];
  for (let i = 0; i + INDEX_ENTRY <= buf.length; i += INDEX_ENTRY) {
    const offset = base + buf.readUInt32LE(i);
    const position = buf.readUInt32LE(i + 4);
    const prev = out[out.length - 1];
    if (position > logSize || (prev !== undefined && (offset <= prev.offset || position <= prev.position)))
      break;
    out.push({ offset, position });
  }
  return out;
}

/** The last index entry at or before `offset` (binary search), or the segment start. */
export function floorIndex(index: readonly IndexEntry[], base: number, offset: number): IndexEntry {
  let lo = 0;
  let hi = index.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (index[mid]!.offset <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? { offset: base, position: 0 } : index[lo - 1]!;
}

/** Fill `buf` from `position` as far as the file allows; returns the bytes read. */
export function readFully(fd: number, buf: Buffer, position: number): number {
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}
