import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { HASH_BYTES, type Hash, type HashColumn } from '@app/transparency';

/** Hashes written to the file in one write: 128 KiB. */
const PER_WRITE = 4096;

/**
 * A HashColumn in a file of 32-byte records, read back with pread: the origin's tree costs disk,
 * not memory, however long the service runs. The file is a cache of what the tlog topic holds (the
 * tree is rebuilt from it at every start), so it is unlinked as soon as it is opened: it goes with
 * the process, even one that crashes. The newest hashes wait in memory until a block is full.
 */
export class FileHashColumn implements HashColumn {
  private readonly fd: number;
  private readonly pending = Buffer.alloc(PER_WRITE * HASH_BYTES);
  private buffered = 0;
  private count: number;
  private first: number;

  /** `first`: the index of the first hash it will hold (a tree opened from a prefix starts past 0). */
  constructor(path: string, first = 0) {
    this.count = first;
    this.first = first;
    this.fd = openSync(path, 'w+', 0o600);
    unlinkSync(path);
  }

  get start(): number {
    return this.first;
  }

  get end(): number {
    return this.count;
  }

  get(index: number): Hash {
    if (!(index >= this.first && index < this.count)) throw new RangeError(`index ${index} not held`);
    const written = this.count - this.buffered;
    if (index >= written) {
      const at = (index - written) * HASH_BYTES;
      return Buffer.from(this.pending.subarray(at, at + HASH_BYTES));
    }
    const out = Buffer.alloc(HASH_BYTES);
    if (readSync(this.fd, out, 0, HASH_BYTES, index * HASH_BYTES) !== HASH_BYTES)
      throw new Error(`tree cache file: short read at hash ${index}`);
    return out;
  }

  append(hash: Hash): void {
    if (hash.length !== HASH_BYTES) throw new RangeError('a hash is 32 bytes');
    hash.copy(this.pending, this.buffered * HASH_BYTES);
    this.buffered++;
    this.count++;
    if (this.buffered === PER_WRITE) this.writePending();
  }

  /** Entries below `index` are no longer served (the file keeps their bytes: it is a cache). */
  dropBefore(index: number): void {
    if (index > this.first) this.first = Math.min(index, this.count);
  }

  close(): void {
    closeSync(this.fd);
  }

  private writePending(): void {
    const bytes = this.buffered * HASH_BYTES;
    const position = (this.count - this.buffered) * HASH_BYTES;
    for (let done = 0; done < bytes;)
      done += writeSync(this.fd, this.pending, done, bytes - done, position + done);
    this.buffered = 0;
  }
}
