import { crc32 as zlibCrc32 } from 'node:zlib';

/**
 * CRC-32 (IEEE, the zlib one) of `buf[start, end)`. node:zlib's crc32 costs about 0.15 us per
 * call before it reads a byte (argument checks, a subarray, the binding), which is most of the
 * cost for a frame of a few hundred bytes; a slice-by-8 table loop is cheaper below ~256 bytes
 * (measured on Node 20: 40 B 0.05 vs 0.16 us, 220 B 0.15 vs 0.21 us), zlib above.
 */
export function crc32(buf: Uint8Array, start: number, end: number): number {
  if (end - start >= JS_LIMIT) return zlibCrc32(buf.subarray(start, end));
  let c = -1;
  let i = start;
  for (; i + 8 <= end; i += 8) {
    c ^= buf[i]! | (buf[i + 1]! << 8) | (buf[i + 2]! << 16) | (buf[i + 3]! << 24);
    c =
      T[1792 + (c & 255)]! ^
      T[1536 + ((c >>> 8) & 255)]! ^
      T[1280 + ((c >>> 16) & 255)]! ^
      T[1024 + (c >>> 24)]! ^
      T[768 + buf[i + 4]!]! ^
      T[512 + buf[i + 5]!]! ^
      T[256 + buf[i + 6]!]! ^
      T[buf[i + 7]!]!;
  }
  for (; i < end; i++) c = T[(c ^ buf[i]!) & 255]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

const JS_LIMIT = 256;

/** Slice-by-8 tables: T[k * 256 + n] is the CRC of byte n followed by k zero bytes. */
const T = ((): Int32Array => {
  const t = new Int32Array(256 * 8);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  for (let n = 0; n < 256; n++)
    for (let k = 1; k < 8; k++) {
      const prev = t[(k - 1) * 256 + n]!;
      t[k * 256 + n] = (prev >>> 8) ^ t[prev & 255]!;
    }
  return t;
})();
