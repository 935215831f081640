import { mkdirSync, watch, type FSWatcher } from 'node:fs';

/**
 * inotify watches on partition directories, so a follower in another process wakes when the
 * writer appends; where none can be set (no directory yet, no watches left) the follower's poll
 * interval still picks appends up. `poke` is told which directory changed.
 */
export function watchDirs(dirs: Iterable<string>, poke: (dir: string) => void, create = true): FSWatcher[] {
  const out: FSWatcher[] = [];
  for (const dir of new Set(dirs)) {
    try {
      // A read-only log never creates a directory; a missing one is simply not watched.
      if (create) mkdirSync(dir, { recursive: true });
      out.push(watch(dir, { persistent: false }, () => poke(dir)));
    } catch {
      // Polling covers it.
    }
  }
  return out;
}
