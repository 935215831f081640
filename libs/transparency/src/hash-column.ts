import { HASH_BYTES, type Hash } from './hash';

/**
 * An append-only array of 32-byte hashes whose oldest entries can be dropped: what a HashTree
 * keeps per stored level. A file of fixed 32-byte records read with pread is one natural backing.
 */
export interface HashColumn {
  /** The first index still held. */
  readonly start: number;
  /** One past the last index held (the count ever appended). */
  readonly end: number;
  /** The hash at `index`, start <= index < end. */
  get(index: number): Hash;
  append(hash: Hash): void;
  /** Forget entries below `index`. */
  dropBefore(index: number): void;
}

const PER_CHUNK = 4096;

/** A HashColumn in memory: 128 KiB chunks, so a million hashes are 245 buffers, not a million. */
export class MemoryHashColumn implements HashColumn {
  private readonly chunks = new Map<number, Buffer>();
  private first: number;
  private count: number;

  /** `first`: the index of the first hash it will hold (a tree opened from a prefix starts past 0). */
  constructor(first = 0) {
    this.first = first;
    this.count = first;
  }

  get start(): number {
    return this.first;
  }

  get end(): number {
    return this.count;
  }

  get(index: number): Hash {
    if (!(index >= this.first && index < this.count)) throw new RangeError(`index ${index} not held`);
    const chunk = this.chunks.get(Math.floor(index / PER_CHUNK))!;
    const at = (index % PER_CHUNK) * HASH_BYTES;
    return chunk.subarray(at, at + HASH_BYTES);
  }

  append(hash: Hash): void {
    if (hash.length !== HASH_BYTES) throw new RangeError('a hash is 32 bytes');
    const c = Math.floor(this.count / PER_CHUNK);
    let chunk = this.chunks.get(c);
    if (chunk === undefined) {
      chunk = Buffer.alloc(PER_CHUNK * HASH_BYTES);
      this.chunks.set(c, chunk);
    }
    hash.copy(chunk, (this.count % PER_CHUNK) * HASH_BYTES);
    this.count++;
  }

  dropBefore(index: number): void {
    if (index <= this.first) return;
    this.first = Math.min(index, this.count);
    for (const c of [...this.chunks.keys()]) if ((c + 1) * PER_CHUNK <= this.first) this.chunks.delete(c);
  }
}
