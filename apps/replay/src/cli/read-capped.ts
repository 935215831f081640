import { closeSync, openSync, readSync } from 'node:fs';

/** Bytes read from a file at a time. */
const CHUNK = 64 * 1024;

/**
 * A file's text, refused with "larger than `max` bytes" as soon as it passes `max`: read through
 * a descriptor a piece at a time, never more than `max` + one piece, since a file's stated size
 * says nothing of a pipe or a device (`/dev/zero` states 0 and never ends).
 */
export function readCapped(path: string, max: number): string {
  const fd = openSync(path, 'r');
  try {
    const pieces: Buffer[] = [];
    let got = 0;
    for (;;) {
      const piece = Buffer.allocUnsafe(Math.min(CHUNK, max + 1 - got));
      const n = readSync(fd, piece, 0, piece.length, null);
      if (n === 0) break;
      pieces.push(n === piece.length ? piece : piece.subarray(0, n));
      got += n;
      if (got > max) throw new Error(`larger than ${max} bytes`);
    }
    return Buffer.concat(pieces, got).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
