import { closeSync, fdatasync } from 'node:fs';
import { LogError } from '../log-error';

/**
 * fdatasync calls running on libuv's thread pool for one writer. An fd is closed only once its
 * sync has returned (closing it under a running sync could flush a reused fd number instead). A
 * failed sync means the writer can no longer vouch for durability: the next append throws.
 */
export class BackgroundSync {
  private readonly running = new Set<number>();
  private readonly closeWhenDone = new Set<number>();
  private failure: Error | null = null;

  pending(fd: number): boolean {
    return this.running.has(fd);
  }

  start(fd: number): void {
    this.running.add(fd);
    fdatasync(fd, (err) => {
      this.running.delete(fd);
      if (this.closeWhenDone.delete(fd)) closeSync(fd);
      else if (err !== null) this.failure ??= err;
    });
  }

  /** Close `fd` now, or as soon as its running sync returns. */
  close(fd: number): void {
    if (this.running.has(fd)) this.closeWhenDone.add(fd);
    else closeSync(fd);
  }

  /** Throw if a background sync failed (reported once per writer, then every append). */
  check(where: string): void {
    if (this.failure !== null)
      throw new LogError('unavailable', `fdatasync of ${where} failed: ${this.failure.message}`);
  }
}
