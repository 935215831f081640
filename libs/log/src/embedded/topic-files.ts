import {
  closeSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { LogError } from '../log-error';

/**
 * The partition count of a topic lives in `<topic>/topic.json`, written once by whichever
 * process creates the topic (link(2) makes creation atomic), so every process agrees on it.
 */
export function topicPartitions(topicDir: string, wanted: number): number {
  const path = join(topicDir, 'topic.json');
  if (!existsSync(path)) {
    mkdirSync(topicDir, { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ partitions: wanted })}\n`);
    try {
      linkSync(tmp, path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    } finally {
      unlinkSync(tmp);
    }
  }
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as { partitions?: unknown };
  const n = parsed.partitions;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1)
    throw new LogError('corrupt', `${path}: 'partitions' must be a positive integer`);
  return n;
}

/** Locks held by this process, so two EventLog instances in one process cannot both write a topic. */
const heldHere = new Set<string>();

/**
 * One writer per topic per data directory: `<topic>/writer.lock` holds the writer's pid. A lock
 * whose pid is no longer alive (a writer killed with SIGKILL) is taken over; taking over assumes
 * two writers are not started at the same instant.
 */
export function acquireTopicLock(topicDir: string): () => void {
  mkdirSync(topicDir, { recursive: true });
  const path = join(topicDir, 'writer.lock');
  if (heldHere.has(path))
    throw new LogError('locked', `${path} is already held by another EventLog in this process`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeFileSync(fd, `${process.pid}\n`);
      closeSync(fd);
      heldHere.add(path);
      return () => {
        heldHere.delete(path);
        try {
          unlinkSync(path);
        } catch {
          // already removed: nothing to release
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const owner = Number(readFileSync(path, 'utf8').trim());
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
      throw new LogError(
        'locked',
        `${path} is held by writer pid ${owner}; one writer per topic (remove the file only if that process is not a writer)`,
      );
    }
    unlinkSync(path);
  }
  throw new LogError('locked', `could not take ${path}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
