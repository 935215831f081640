import { LogError } from '../log-error';
import type { LogFiles } from './log-files';

/**
 * fdatasync calls running on libuv's thread pool for one writer. An fd is closed only once its
 * sync has returned (closing it under a running sync could flush a reused fd number instead). A
 * failed sync means the writer cannot vouch that what it wrote since the previous sync is on
 * disk: the next append is refused once with that message ('io_error'), then writing resumes.
 */
export class BackgroundSync {
  private readonly running = new Set<number>();
  private readonly closeWhenDone = new Set<number>();
  private failure: Error | null = null;
  private readonly waiting = new Map<number, (() => void)[]>();

  constructor(private readonly files: LogFiles) {}

  pending(fd: number): boolean {
    return this.running.has(fd);
  }

  start(fd: number): void {
    this.running.add(fd);
    this.files.fdatasync(fd, (err) => {
      this.running.delete(fd);
      if (err !== null) this.failure ??= err;
      if (this.closeWhenDone.delete(fd)) this.closeQuietly(fd);
      const waiters = this.waiting.get(fd) ?? [];
      this.waiting.delete(fd);
      for (const w of waiters) w();
    });
  }

  /** Resolves when the running sync of `fd` (if any) has returned. */
  done(fd: number): Promise<void> {
    if (!this.running.has(fd)) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.waiting.get(fd) ?? [];
      list.push(resolve);
      this.waiting.set(fd, list);
    });
  }

  /** A close in a callback must not throw (it would end the process); its error is the sync's. */
  private closeQuietly(fd: number): void {
    try {
      this.files.closeSync(fd);
    } catch (e) {
      this.failure ??= e as Error;
    }
  }

  /** Close `fd` now, or as soon as its running sync returns. */
  close(fd: number): void {
    if (this.running.has(fd)) this.closeWhenDone.add(fd);
    else this.files.closeSync(fd);
  }

  /** The failure check() will throw, left for it (an append must still be refused once). */
  get failed(): Error | null {
    return this.failure;
  }

  /** Throw (once) if a background sync failed since the last check. */
  check(where: string): void {
    const f = this.failure;
    if (f === null) return;
    this.failure = null;
    throw new LogError(
      (f as NodeJS.ErrnoException).code === 'ENOSPC' ? 'no_space' : 'io_error',
      `fdatasync of ${where} failed: ${f.message}; entries written since the previous sync may not be on disk`,
    );
  }
}
