import { fstatSync } from 'node:fs';
import { nodeFiles, type LogFiles } from '../src/embedded/log-files';

/** An errno-style error, as node:fs throws them. */
export function errnoError(code: 'ENOSPC' | 'EIO', syscall: string): NodeJS.ErrnoException {
  const e = new Error(`${code}: ${code === 'ENOSPC' ? 'no space left on device' : 'i/o error'}, ${syscall}`);
  return Object.assign(e, { code, syscall, errno: code === 'ENOSPC' ? -28 : -5 });
}

/**
 * A file layer for the embedded log that behaves like a small filesystem where a tmpfs cannot
 * be mounted: `capacity` bytes of growth (writes past the end of a file; truncation gives space
 * back), then a short write and ENOSPC, as Linux does; `free()` gives space back. `failSyncs`
 * makes fdatasync fail with EIO.
 */
export class FaultyFiles implements LogFiles {
  private used = 0;
  failSyncs = false;
  /** Writes refused or cut short so far. */
  refusals = 0;

  constructor(public capacity: number) {}

  /** Make `bytes` more room (or all of it with no argument). */
  free(bytes = Number.MAX_SAFE_INTEGER): void {
    this.capacity = Math.min(Number.MAX_SAFE_INTEGER, this.capacity + bytes);
  }

  /** Leave no room at all from now on. */
  fill(): void {
    this.capacity = this.used;
  }

  openSync(path: string, flags: number): number {
    return nodeFiles.openSync(path, flags);
  }

  writeSync(fd: number, buf: Uint8Array, offset: number, length: number, position: number): number {
    const size = fstatSync(fd).size;
    const growth = Math.max(0, position + length - size);
    const room = this.capacity - this.used;
    if (growth <= room) {
      const n = nodeFiles.writeSync(fd, buf, offset, length, position);
      this.used += growth;
      return n;
    }
    this.refusals++;
    // What fits is written (a short write); with nothing left, the call fails.
    const fits = Math.max(0, size + room - position);
    if (fits <= 0) throw errnoError('ENOSPC', 'write');
    const n = nodeFiles.writeSync(fd, buf, offset, Math.min(length, fits), position);
    this.used += Math.max(0, position + n - size);
    return n;
  }

  ftruncateSync(fd: number, length: number): void {
    const size = fstatSync(fd).size;
    nodeFiles.ftruncateSync(fd, length);
    this.used += length - size;
  }

  fdatasyncSync(fd: number): void {
    if (this.failSyncs) throw errnoError('EIO', 'fdatasync');
    nodeFiles.fdatasyncSync(fd);
  }

  fdatasync(fd: number, callback: (err: NodeJS.ErrnoException | null) => void): void {
    if (this.failSyncs) {
      setImmediate(() => callback(errnoError('EIO', 'fdatasync')));
      return;
    }
    nodeFiles.fdatasync(fd, callback);
  }

  closeSync(fd: number): void {
    nodeFiles.closeSync(fd);
  }

  replaceFileSync(path: string, data: Uint8Array | string): void {
    const bytes = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    if (bytes > this.capacity - this.used) {
      this.refusals++;
      throw errnoError('ENOSPC', 'write');
    }
    nodeFiles.replaceFileSync(path, data);
    this.used += bytes;
  }
}
