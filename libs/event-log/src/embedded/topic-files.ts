import { errorMessage } from '@app/retry';
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { LogError } from '../log-error';

/**
 * The partition count of a topic lives in `<topic>/topic.json`, written once by whichever
 * process creates the topic (link(2) makes creation atomic), so every process agrees on it. The
 * count must match the partition directories on disk: a writer creates all of them when it
 * opens the topic, so a count that disagrees (an edited or lost topic.json) would send keys to
 * the wrong partitions and hide the books of the others. That is refused, naming the file.
 */
export function topicPartitions(topicDir: string, wanted: number): number {
  const path = join(topicDir, 'topic.json');
  const dirs = partitionDirs(topicDir);
  if (!existsSync(path)) {
    if (dirs.length > 0)
      throw new LogError(
        'corrupt',
        `${path} is missing but ${topicDir} holds partition directories ${describe(dirs)}; restore it as {"partitions": ${dirs.length}} if those are all of them`,
      );
    mkdirSync(topicDir, { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      writeFileSync(fd, `${JSON.stringify({ partitions: wanted })}\n`);
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(tmp, path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    } finally {
      unlinkSync(tmp);
    }
  }
  let parsed: { partitions?: unknown };
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as { partitions?: unknown };
  } catch (e) {
    throw new LogError(
      'corrupt',
      `${path} is unreadable (${errorMessage(e)}); it must be {"partitions": N}${dirs.length > 0 ? ` (${topicDir} holds ${dirs.length} partition directories)` : ''}`,
    );
  }
  const n = parsed?.partitions;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1)
    throw new LogError('corrupt', `${path}: 'partitions' must be a positive integer`);
  if (dirs.length > 0 && (dirs.length !== n || dirs[dirs.length - 1] !== n - 1))
    throw new LogError(
      'corrupt',
      `${path} says ${n} partitions but ${topicDir} holds partition directories ${describe(dirs)}; keys would map to the wrong partitions. Restore {"partitions": ${dirs[dirs.length - 1]! + 1}} (or move stray directories away)`,
    );
  return n;
}

/** Numeric subdirectories of a topic directory, ascending. */
function partitionDirs(topicDir: string): number[] {
  if (!existsSync(topicDir)) return [];
  return readdirSync(topicDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && /^(0|[1-9]\d{0,5})$/.test(d.name))
    .map((d) => Number(d.name))
    .sort((a, b) => a - b);
}

function describe(dirs: readonly number[]): string {
  const contiguous = dirs.every((d, i) => d === i);
  return contiguous ? `0..${dirs.length - 1}` : dirs.join(', ');
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

/**
 * The partition count of a topic as an EmbeddedLog uses it: `wanted` (validated) for a topic not
 * created yet when read-only (nothing is written), else the count in topic.json (created if missing).
 */
export function partitionCount(topicDir: string, topic: string, wanted: number, readOnly: boolean): number {
  if (!Number.isInteger(wanted) || wanted < 1)
    throw new LogError(
      'bad_argument',
      `partition count for ${topic} must be a positive integer, got ${wanted}`,
    );
  return readOnly && !existsSync(join(topicDir, 'topic.json')) ? wanted : topicPartitions(topicDir, wanted);
}
