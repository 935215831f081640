/**
 * Partition of a key: Kafka's default (Java) partitioner, `toPositive(murmur2(utf8(key))) % n`,
 * so the embedded log, our Kafka producer and any Java producer agree on where a key lives.
 */
export function partitionFor(key: string, partitionCount: number): number {
  if (!Number.isInteger(partitionCount) || partitionCount < 1)
    throw new RangeError(`partition count must be a positive integer, got ${partitionCount}`);
  return (hashKey(key) & 0x7fffffff) % partitionCount;
}

/** Reused for ASCII keys (all of ours: venue ids, symbols, request ids), so hashing allocates nothing. */
let scratch = new Uint8Array(256);

function hashKey(key: string): number {
  const length = key.length;
  if (length > scratch.length) scratch = new Uint8Array(length * 2);
  for (let i = 0; i < length; i++) {
    const c = key.charCodeAt(i);
    // Not ASCII: a UTF-16 unit is not one UTF-8 byte, so encode for real.
    if (c > 0x7f) return murmur2(Buffer.from(key, 'utf8'));
    scratch[i] = c;
  }
  return murmur2Bytes(scratch, length);
}

/** MurmurHash2 (32-bit, seed 0x9747b28c) exactly as org.apache.kafka.common.utils.Utils.murmur2. */
export function murmur2(data: Uint8Array): number {
  return murmur2Bytes(data, data.length);
}

function murmur2Bytes(data: Uint8Array, length: number): number {
  const m = 0x5bd1e995;
  let h = 0x9747b28c ^ length;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m);
    h ^= k;
  }
  const rest = length & 3;
  if (rest === 3) h ^= data[whole + 2]! << 16;
  if (rest >= 2) h ^= data[whole + 1]! << 8;
  if (rest >= 1) {
    h ^= data[whole]!;
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}
