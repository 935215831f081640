import {
  closeSync,
  createReadStream,
  fdatasyncSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/** Whether the file starts with gzip's magic bytes (the name is not trusted: .csv.gz or not). */
export function isGzip(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes of a plain or gzip file, decompressed, in chunks of about 256 KB; `onRead` is told,
 * with each chunk, how many bytes of the file itself have been read (for progress). zlib inflates
 * on libuv's thread pool, so the parser on the main thread and the decompression run side by side.
 */
export async function* fileChunks(path: string, onRead: (bytesRead: number) => void): AsyncGenerator<Buffer> {
  const raw = createReadStream(path, { highWaterMark: 1 << 20 });
  let source: AsyncIterable<Buffer> = raw;
  if (isGzip(path)) {
    const gunzip = createGunzip({ chunkSize: 1 << 18 });
    // A read error reaches the reader through the gunzip stream, as a damaged gzip stream does.
    raw.on('error', (e) => gunzip.destroy(e));
    source = raw.pipe(gunzip) as Readable as AsyncIterable<Buffer>;
  }
  try {
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
