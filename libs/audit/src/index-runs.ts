import { hash } from 'node:crypto';
import { open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { TurnBudget } from '@app/event-log';
import { ENTRY, entryBuffer, mergeSources, type EntrySource } from './sorted-entries';

export { ENTRY };

const HEADER = 32;
const MAGIC = Buffer.from('RSJIDX01');
/** Entries per read and per write while merging runs (1 MiB). */
const PAGE = 65_536;

/**
 * 64 bits of SHA-256 of a key: collisions are told apart by reading the entry's own key. The
 * one-shot hash: a Hash object per entry cost the indexer twice the time and long scavenges.
 */
export function keyHash(key: string): Buffer {
  return hash('sha256', key, 'buffer').subarray(0, 8);
}

/** One immutable sorted run: the entries of offsets [from, to) of one partition, by (hash, offset). */
export interface Run {
  readonly path: string;
  readonly from: number;
  readonly to: number;
  readonly count: number;
}

const NAME = /^p(\d+)\.(\d{16})-(\d{16})\.run$/;
const pad = (n: number): string => String(n).padStart(16, '0');

export function runName(partition: number, from: number, to: number): string {
  return `p${partition}.${pad(from)}-${pad(to)}.run`;
}

/**
 * Write a run atomically (temporary file, fsync, rename): a crash leaves it whole or absent. Its
 * `count` entries are written by `fill`, in order, through the `write` it is given.
 */
async function writeRunWith(
  dir: string,
  partition: number,
  from: number,
  to: number,
  fill: (write: (entries: Buffer) => Promise<void>) => Promise<number>,
): Promise<Run> {
  const path = join(dir, runName(partition, from, to));
  const tmp = `${path}.tmp`;
  const fh = await open(tmp, 'w');
  let count: number;
  try {
    let at = HEADER;
    count = await fill(async (entries) => {
      await writeAll(fh, entries, at);
      at += entries.length;
    });
    const header = Buffer.alloc(HEADER);
    MAGIC.copy(header, 0);
    header.writeBigUInt64BE(BigInt(from), 8);
    header.writeBigUInt64BE(BigInt(to), 16);
    header.writeBigUInt64BE(BigInt(count), 24);
    await writeAll(fh, header, 0);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, path);
  return { path, from, to, count };
}

async function writeAll(fh: FileHandle, data: Buffer, position: number): Promise<void> {
  for (let done = 0; done < data.length;) {
    const { bytesWritten } = await fh.write(data, done, data.length - done, position + done);
    done += bytesWritten;
  }
}

/** Write a run of `body` (sorted entries) atomically. */
export function writeRun(
  dir: string,
  partition: number,
  from: number,
  to: number,
  body: Buffer,
): Promise<Run> {
  return writeRunWith(dir, partition, from, to, async (write) => {
    if (body.length > 0) await write(body);
    return body.length / ENTRY;
  });
}

/**
 * Merge runs `a` and `b` (adjacent: b.from === a.to) into one run of [a.from, b.to), written
 * atomically beside them, a page at a time: memory stays a few MiB and the loop is given back
 * every TURN_MS, whatever the runs' sizes. The inputs stay: the caller removes them once the
 * merged run is in place.
 */
export async function mergeRuns(
  dir: string,
  partition: number,
  a: Run,
  b: Run,
  budget: TurnBudget,
): Promise<Run> {
  const fa = await open(a.path, 'r');
  try {
    const fb = await open(b.path, 'r');
    try {
      return await writeRunWith(dir, partition, a.from, b.to, (write) =>
        mergeSources(runPages(fa, a), runPages(fb, b), PAGE, write, budget),
      );
    } finally {
      await fb.close();
    }
  } finally {
    await fa.close();
  }
}

/** A run's entries from its open file, a page at a time (one buffer, reused page after page). */
function runPages(fh: FileHandle, run: Run): EntrySource {
  const page = entryBuffer(Math.min(PAGE, Math.max(run.count, 1)));
  let next = 0;
  return {
    async next(): Promise<Buffer | null> {
      if (next >= run.count) return null;
      const n = Math.min(run.count - next, page.length / ENTRY);
      const bytes = n * ENTRY;
      for (let done = 0; done < bytes;) {
        const { bytesRead } = await fh.read(page, done, bytes - done, HEADER + next * ENTRY + done);
        if (bytesRead === 0) throw new Error(`${run.path}: shorter than its header says`);
        done += bytesRead;
      }
      next += n;
      return page.subarray(0, bytes);
    },
  };
}

/** A run's header, checked against its name and size; null when it is not a whole run. */
async function openRun(path: string, from: number, to: number): Promise<Run | null> {
  const { size } = await stat(path);
  if (size < HEADER) return null;
  const header = Buffer.alloc(HEADER);
  const fh = await open(path, 'r');
  try {
    await fh.read(header, 0, HEADER, 0);
  } finally {
    await fh.close();
  }
  const count = Number(header.readBigUInt64BE(24));
  const ok =
    header.subarray(0, 8).equals(MAGIC) &&
    Number(header.readBigUInt64BE(8)) === from &&
    Number(header.readBigUInt64BE(16)) === to &&
    size === HEADER + count * ENTRY;
  return ok ? { path, from, to, count } : null;
}

/**
 * The runs of one partition that chain from offset 0 without a gap, widest first at each step (a
 * merge interrupted by a crash leaves its inputs beside its output), and the files left over.
 */
export async function listRuns(
  dir: string,
  partition: number,
): Promise<{ chain: Run[]; leftovers: string[] }> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { chain: [], leftovers: [] };
    throw e;
  }
  const found: Run[] = [];
  const leftovers: string[] = [];
  for (const name of names) {
    if (name.startsWith(`p${partition}.`) && name.endsWith('.tmp')) leftovers.push(join(dir, name));
    const m = NAME.exec(name);
    if (m === null || Number(m[1]) !== partition) continue;
    const run = await openRun(join(dir, name), Number(m[2]), Number(m[3]));
    if (run === null) leftovers.push(join(dir, name));
    else found.push(run);
  }
  const chain: Run[] = [];
  for (let at = 0; ;) {
    let best: Run | null = null;
    for (const r of found) if (r.from === at && (best === null || r.to > best.to)) best = r;
    if (best === null) break;
    chain.push(best);
    at = best.to;
  }
  for (const r of found) if (!chain.includes(r)) leftovers.push(r.path);
  return { chain, leftovers };
}

/** Remove files no chain uses (an interrupted merge's inputs, a torn temporary file). */
export async function removeFiles(paths: readonly string[]): Promise<void> {
  for (const p of paths) await rm(p, { force: true });
}

/** Offsets stored under `hash` in a run: a binary search with one 16-byte read per probe. */
export async function searchRun(run: Run, hash: Buffer): Promise<number[]> {
  if (run.count === 0) return [];
  const fh = await open(run.path, 'r');
  const buf = Buffer.alloc(ENTRY);
  const at = async (i: number): Promise<Buffer> => {
    await fh.read(buf, 0, ENTRY, HEADER + i * ENTRY);
    return buf;
  };
  try {
    let lo = 0;
    let hi = run.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (Buffer.compare((await at(mid)).subarray(0, 8), hash) < 0) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let i = lo; i < run.count; i++) {
      const e = await at(i);
      if (!e.subarray(0, 8).equals(hash)) break;
      out.push(Number(e.readBigUInt64BE(8)));
    }
    return out;
  } finally {
    await fh.close();
  }
}
