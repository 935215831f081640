import { crc32 } from 'node:zlib';
import type { Level, ServedBook } from '../books';

/** Levels as the strings most venues send: [["price","amount"], ...]. */
export const lv = (ls: readonly Level[]): string[][] => ls.map(([p, q]) => [String(p), String(q)]);

/** A client frame as an object (JSON), or an empty object. */
export const obj = (msg: unknown): Record<string, unknown> =>
  typeof msg === 'object' && msg !== null && !Array.isArray(msg) ? (msg as Record<string, unknown>) : {};

/** CRC32 of `text` as an unsigned 32-bit integer (Independent Reserve and Kraken checksums). */
export function crc32u(text: string): number {
  return crc32(text) >>> 0;
}

/** CRC32 of `text` as a signed 32-bit integer (OKX, Bitget, Bitfinex and Kraken checksums). */
export function signedCrc32(text: string): number {
  return crc32(text) | 0;
}

/**
 * The checksum OKX and Bitget send: CRC32 of the top `depth` bids and asks interleaved
 * (bid1:ask1:bid2:...), each level as price:amount in the strings sent.
 */
export function interleavedChecksum(book: ServedBook, depth = 25): number {
  const parts: string[] = [];
  for (let i = 0; i < depth; i++) {
    const b = book.bids[i];
    const a = book.asks[i];
    if (b !== undefined) parts.push(String(b[0]), String(b[1]));
    if (a !== undefined) parts.push(String(a[0]), String(a[1]));
  }
  return signedCrc32(parts.join(':'));
}
