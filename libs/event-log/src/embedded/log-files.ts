import * as fs from 'node:fs';

/**
 * The file operations through which the embedded log changes files: node:fs, or in tests a layer
 * that injects a full disk or a failing sync (libs/event-log/test/faulty-files.ts) where a small tmpfs
 * cannot be mounted. Reads go straight to node:fs.
 */
export interface LogFiles {
  openSync(path: string, flags: number): number;
  /** One positional write; may write fewer bytes than asked (a short write). */
  writeSync(fd: number, buf: Uint8Array, offset: number, length: number, position: number): number;
  ftruncateSync(fd: number, length: number): void;
  fdatasyncSync(fd: number): void;
  fdatasync(fd: number, callback: (err: NodeJS.ErrnoException | null) => void): void;
  closeSync(fd: number): void;
  /** Replace a whole small file (a rebuilt index): a crash leaves the old file or the whole new one. */
  replaceFileSync(path: string, data: Uint8Array | string): void;
}

/** Read-write, created if missing, and deliberately without O_APPEND: on Linux O_APPEND makes a positional write append at the end instead, so a retry after a failed write would land after the garbage it left. */
export const OPEN_RW = fs.constants.O_RDWR | fs.constants.O_CREAT;

export const nodeFiles: LogFiles = {
  openSync: (path, flags) => fs.openSync(path, flags, 0o644),
  writeSync: (fd, buf, offset, length, position) => fs.writeSync(fd, buf, offset, length, position),
  ftruncateSync: (fd, length) => fs.ftruncateSync(fd, length),
  fdatasyncSync: (fd) => fs.fdatasyncSync(fd),
  fdatasync: (fd, callback) => fs.fdatasync(fd, callback),
  closeSync: (fd) => fs.closeSync(fd),
  replaceFileSync: (path, data) => {
    const tmp = `${path}.${process.pid}.tmp`;
    const fd = fs.openSync(tmp, 'w', 0o644);
    try {
      fs.writeFileSync(fd, data);
      fs.fdatasyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, path);
  },
};
