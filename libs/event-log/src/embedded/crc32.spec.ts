import { randomBytes } from 'node:crypto';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32 } from './crc32';

describe('crc32', () => {
  it('equals zlib crc32 for every length around the table and zlib cut-overs, at any start', () => {
    const buf = randomBytes(1200);
    for (let len = 0; len <= 600; len++)
      for (const start of [0, 1, 3, 7]) {
        expect(crc32(buf, start, start + len)).toBe(zlibCrc32(buf.subarray(start, start + len)));
      }
  });

  it('gives the standard check value', () => {
    expect(crc32(Buffer.from('123456789'), 0, 9)).toBe(0xcbf43926);
  });
});
