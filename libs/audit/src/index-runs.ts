import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readSync,
  readdirSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

/** Bytes per index entry: 8 of the key's hash, 8 of the offset, both big-endian so bytes sort as numbers. */
export const ENTRY = 16;
const HEADER = 32;
const MAGIC = Buffer.from('RSJIDX01');

/** 64 bits of SHA-256 of a key: collisions are told apart by reading the entry's own key. */
export function keyHash(key: string): Buffer {
  return createHash('sha256').update(key).digest().subarray(0, 8);
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

/** Write a run atomically (temporary file, fsync, rename): a crash leaves it whole or absent. */
export function writeRun(dir: string, partition: number, from: number, to: number, body: Buffer): Run {
  const count = body.length / ENTRY;
  const header = Buffer.alloc(HEADER);
  MAGIC.copy(header, 0);
  header.writeBigUInt64BE(BigInt(from), 8);
  header.writeBigUInt64BE(BigInt(to), 16);
  header.writeBigUInt64BE(BigInt(count), 24);
  const path = join(dir, runName(partition, from, to));
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, header);
    if (body.length > 0) writeSync(fd, body);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  return { path, from, to, count };
}

/** A run's header, checked against its name and size; null when it is not a whole run. */
function openRun(path: string, from: number, to: number): Run | null {
  const size = statSync(path).size;
  if (size < HEADER) return null;
  const header = Buffer.alloc(HEADER);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, header, 0, HEADER, 0);
  } finally {
    closeSync(fd);
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
export function listRuns(dir: string, partition: number): { chain: Run[]; leftovers: string[] } {
  if (!existsSync(dir)) return { chain: [], leftovers: [] };
  const found: Run[] = [];
  const leftovers: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name.startsWith(`p${partition}.`) && name.endsWith('.tmp')) leftovers.push(join(dir, name));
    const m = NAME.exec(name);
    if (m === null || Number(m[1]) !== partition) continue;
    const run = openRun(join(dir, name), Number(m[2]), Number(m[3]));
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
export function removeFiles(paths: readonly string[]): void {
  for (const p of paths) if (existsSync(p)) unlinkSync(p);
}

/** Every entry of a run, as one buffer. */
export function readRunBody(run: Run): Buffer {
  const body = Buffer.alloc(run.count * ENTRY);
  const fd = openSync(run.path, 'r');
  try {
    if (body.length > 0) readSync(fd, body, 0, body.length, HEADER);
  } finally {
    closeSync(fd);
  }
  return body;
}

/** Merge two sorted bodies into one sorted body. */
export function mergeBodies(a: Buffer, b: Buffer): Buffer {
  const out = Buffer.alloc(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    if (Buffer.compare(a.subarray(i, i + ENTRY), b.subarray(j, j + ENTRY)) <= 0) {
      a.copy(out, k, i, i + ENTRY);
      i += ENTRY;
    } else {
      b.copy(out, k, j, j + ENTRY);
      j += ENTRY;
    }
    k += ENTRY;
  }
  a.copy(out, k, i);
  k += a.length - i;
  b.copy(out, k, j);
  return out;
}

/** Offsets stored under `hash` in a run: a binary search with one 16-byte read per probe. */
export function searchRun(run: Run, hash: Buffer): number[] {
  if (run.count === 0) return [];
  const fd = openSync(run.path, 'r');
  const buf = Buffer.alloc(ENTRY);
  const at = (i: number): Buffer => {
    readSync(fd, buf, 0, ENTRY, HEADER + i * ENTRY);
    return buf;
  };
  try {
    let lo = 0;
    let hi = run.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (Buffer.compare(at(mid).subarray(0, 8), hash) < 0) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let i = lo; i < run.count; i++) {
      const e = at(i);
      if (!e.subarray(0, 8).equals(hash)) break;
      out.push(Number(e.readBigUInt64BE(8)));
    }
    return out;
  } finally {
    closeSync(fd);
  }
}
