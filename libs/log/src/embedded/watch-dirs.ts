import { mkdirSync, watch, type FSWatcher } from 'node:fs';

/**
 * inotify watches on partition directories, so a follower in another process wakes when the
 * writer appends; where none can be set (no directory yet, no watches left) the follower's poll
 * interval still picks appends up.
 */
export function watchDirs(dirs: Iterable<string>, poke: () => void, create = true): FSWatcher[] {
  const out: FSWatcher[] = [];
  for (const dir of new Set(dirs)) {
    try {
      // A read-only log never creates a directory; a missing one is simply not watched.
      if (create) mkdirSync(dir, { recursive: true });
      out.push(watch(dir, { persistent: false }, poke));
    } catch {
      // Polling covers it.
    }
  }
  return out;
}
