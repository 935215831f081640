import {
  closeSync,
  createReadStream,
  fdatasync,
  fdatasyncSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  write,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Readable, pipeline } from 'node:stream';
import { promisify } from 'node:util';
import { createGunzip } from 'node:zlib';

/**
 * The bytes of a plain or gzip file (told apart by gzip's magic bytes, not by the name),
 * decompressed, in chunks of up to 1 MB; `onRead` is told, with each chunk, how many bytes of the
 * file itself have been read (for progress). zlib inflates on libuv's thread pool, so the parser
 * on the main thread and the decompression run side by side. The file is read as a stream (of a
 * regular file, its first two bytes are looked at first): a named pipe works too. `aheadBytes`:
 * how much inflated output may wait for the reader.
 */
export async function* fileChunks(
  path: string,
  onRead: (bytesRead: number) => void,
  aheadBytes = 0,
): AsyncGenerator<Buffer> {
  // gzip is read 64 KB at a time, not 1 MB: a 1 MB piece of gzip stays alive while its ~8 MB of
  // CSV is parsed, so V8 moves it to the old generation, where it is freed only by a full GC, which
  // comes after 64 MB of such pieces: 20-60 MB of each thread's RSS (a --threads thread, and this
  // one). A plain file's pieces are parsed at once: 1 MB costs less CPU time per byte.
  const raw = createReadStream(path, { highWaterMark: plainFile(path) ? 1 << 20 : GZIP_READ_BYTES });
  const chunks = raw[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  try {
    let head = Buffer.alloc(0);
    while (head.length < 2) {
      const next = await chunks.next();
      if (next.done === true) break;
      head = Buffer.concat([head, next.value]);
    }
    if (head.length === 0) return;
    const rest = async function* (): AsyncGenerator<Buffer> {
      yield head;
      for (let next = await chunks.next(); next.done !== true; next = await chunks.next()) yield next.value;
    };
    let source: AsyncIterable<Buffer> = rest();
    if (head[0] === 0x1f && head[1] === 0x8b) {
      // With the default (16 KB) zlib inflates one chunk, then waits until it is taken: the parser
      // then waits too whenever one chunk took zlib longer than the one before took the parser.
      const gunzip = createGunzip({
        chunkSize: 1 << 20,
        ...(aheadBytes > 0 ? { readableHighWaterMark: aheadBytes } : {}),
      });
      // pipeline() passes a read error on to the gunzip stream, as a damaged gzip stream fails it.
      pipeline(Readable.from(rest()), gunzip, () => undefined);
      source = gunzip;
    }
    for await (const chunk of source) {
      onRead(raw.bytesRead);
      yield chunk;
    }
  } finally {
    raw.destroy();
  }
}

/**
 * An output file written under a temporary name in its directory (`.name.<pid>.partial`, which
 * `--replay` does not read: it takes *.jsonl) and renamed into place only when complete, so an
 * interrupted import leaves no half-written recording. Writes go to libuv's thread pool in order
 * (the main thread goes on producing); `drained()` is the backpressure: it waits while more than
 * 8 MB are queued.
 */
export class OutputFile {
  readonly temp: string;
  private fd: number;
  private queued = 0;
  private tail: Promise<void> = Promise.resolve();
  private failed: Error | null = null;
  private unsynced = 0;
  private syncing: Promise<void> | null = null;

  constructor(readonly path: string) {
    this.temp = join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
    this.fd = openSync(this.temp, 'w');
  }

  /** Queues `chunk` (kept as it is until written; then `written` is called). */
  write(chunk: Uint8Array, written?: () => void): void {
    this.queued += chunk.length;
    const fd = this.fd;
    this.tail = this.tail.then(async () => {
      try {
        for (let off = 0; off < chunk.length;) off += (await writeAt(fd, chunk, off)).bytesWritten;
      } catch (e) {
        this.failed ??= e as Error;
      }
      this.queued -= chunk.length;
      written?.();
      this.syncNow(chunk.length);
    });
  }

  /**
   * Every SYNC_EVERY bytes, a sync beside the writes (not between them): the disk takes the
   * recording as it is made, and the sync of `commit` at the end only waits for the last part.
   */
  private syncNow(bytes: number): void {
    this.unsynced += bytes;
    if (this.unsynced < SYNC_EVERY || this.syncing !== null || this.fd < 0) return;
    this.unsynced = 0;
    this.syncing = fdatasyncAsync(this.fd)
      .catch((e: unknown) => {
        this.failed ??= e as Error;
      })
      .finally(() => {
        this.syncing = null;
      });
  }

  /** Resolves once at most 8 MB are queued; rejects if a write failed. */
  async drained(): Promise<void> {
    while (this.queued > 8 << 20) await this.tail;
    if (this.failed !== null) throw this.failed;
  }

  /** Waits for every write, syncs and renames the file into place. */
  async commit(): Promise<void> {
    await this.tail;
    await this.syncing;
    if (this.failed !== null) throw this.failed;
    fdatasyncSync(this.fd);
    closeSync(this.fd);
    this.fd = -1;
    renameSync(this.temp, this.path);
  }

  /** Removes the temporary file (an import that failed or was interrupted). */
  discard(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    rmSync(this.temp, { force: true });
  }
}

const SYNC_EVERY = 128 << 20;
const GZIP_READ_BYTES = 1 << 16;

/** Whether `path` is a regular file that does not start with gzip's magic bytes (a pipe: false, unread). */
function plainFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    const fd = openSync(path, 'r');
    try {
      const head = Buffer.alloc(2);
      return readSync(fd, head, 0, 2, 0) < 2 || head[0] !== 0x1f || head[1] !== 0x8b;
    } finally {
      closeSync(fd);
    }
  } catch {
    // The stream then reports what is wrong with the file.
    return false;
  }
}
const fdatasyncAsync = promisify(fdatasync);

const writeAt = promisify(
  (fd: number, chunk: Uint8Array, off: number, cb: (e: Error | null, r: { bytesWritten: number }) => void) =>
    write(fd, chunk, off, chunk.length - off, null, (e, bytesWritten) => cb(e, { bytesWritten })),
);
