import { closeSync, createReadStream, fdatasyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Readable, pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';

/**
 * The bytes of a plain or gzip file (told apart by gzip's magic bytes, not by the name),
 * decompressed, in chunks of about 1 MB; `onRead` is told, with each chunk, how many bytes of
 * the file itself have been read (for progress). zlib inflates on libuv's thread pool, so the
 * parser on the main thread and the decompression run side by side. The file is read once, as a
 * stream: a named pipe works too.
 */
export async function* fileChunks(path: string, onRead: (bytesRead: number) => void): AsyncGenerator<Buffer> {
  const raw = createReadStream(path, { highWaterMark: 1 << 20 });
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
      const gunzip = createGunzip({ chunkSize: 1 << 20 });
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
 * interrupted import leaves no half-written recording.
 */
export class OutputFile {
  readonly temp: string;
  private fd: number;

  constructor(readonly path: string) {
    this.temp = join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
    this.fd = openSync(this.temp, 'w');
  }

  write(chunk: Uint8Array): void {
    let off = 0;
    while (off < chunk.length) off += writeSync(this.fd, chunk, off, chunk.length - off);
  }

  /** Syncs and renames the file into place. */
  commit(): void {
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
