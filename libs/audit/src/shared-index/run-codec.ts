import { ENTRY } from '../index-runs';

/**
 * The shared requestId index's records (docs/replay.md "The shared requestId index"). Runs are
 * canonical: a level-k run of journal partition p covers offsets [i·B·2^k, (i+1)·B·2^k), B = BLOCK,
 * so every replica that publishes a run publishes the same entries under the same key.
 */

/** Journal offsets per level-0 run: the unindexed tail a look-up scans is shorter than this. */
export const BLOCK = 4096;
/** Entries per page: one page (64 KiB) is what a look-up reads per run. */
export const PAGE = 4096;
/** Largest run: BLOCK·2^MAX_LEVEL offsets (67M); its head lists 16,384 pages (328 KB). */
export const MAX_LEVEL = 14;

const HEAD_MAGIC = Buffer.from('RSJRUN01');
const PAGE_MAGIC = Buffer.from('RSJPAG01');
const HEAD_FIXED = 8 + 4 + 8 + 8 + 8 + 8 + 8 + 8 + 4;
const PAGE_REF = 8 + 8 + 4;

/** Where a page is in the pages topic, and the hash of its first entry. */
export interface PageRef {
  readonly first: Buffer;
  readonly offset: number;
  readonly count: number;
}

/** A run's head: what it covers, who wrote it (its pages' keys name the writer), its pages. */
export interface RunHead {
  readonly partition: number;
  readonly from: number;
  readonly to: number;
  /** Entries indexed (offsets retention had removed are not). */
  readonly count: number;
  readonly writer: string;
  /** The highest journal offset indexed and its key's hash: a reader checks the journal is the one indexed. */
  readonly last: { readonly offset: number; readonly hash: Buffer } | null;
  readonly pages: readonly PageRef[];
}

export const runKey = (p: number, from: number, to: number): string => `run/${p}/${from}-${to}`;
export const claimKey = (p: number, from: number, to: number, writer: string): string =>
  `claim/${p}/${from}-${to}/${writer}`;
export const pageKey = (head: Pick<RunHead, 'partition' | 'from' | 'to' | 'writer'>, i: number): string =>
  `page/${head.partition}/${head.from}-${head.to}/${head.writer}/${i}`;

/** The level of a run of `span` offsets, or null when it is not a canonical span. */
export function levelOf(span: number): number | null {
  const blocks = span / BLOCK;
  if (!Number.isInteger(blocks) || blocks < 1) return null;
  const level = Math.log2(blocks);
  return Number.isInteger(level) && level <= MAX_LEVEL ? level : null;
}

export function encodeHead(h: RunHead): Buffer {
  const out = Buffer.alloc(HEAD_FIXED + h.pages.length * PAGE_REF);
  HEAD_MAGIC.copy(out, 0);
  let at = 8;
  at = out.writeUInt32BE(h.partition, at);
  at = out.writeBigUInt64BE(BigInt(h.from), at);
  at = out.writeBigUInt64BE(BigInt(h.to), at);
  at = out.writeBigUInt64BE(BigInt(h.count), at);
  at += Buffer.from(h.writer, 'hex').copy(out, at);
  at = out.writeBigInt64BE(BigInt(h.last?.offset ?? -1), at);
  if (h.last !== null) h.last.hash.copy(out, at);
  at += 8;
  at = out.writeUInt32BE(h.pages.length, at);
  for (const p of h.pages) {
    at += p.first.copy(out, at);
    at = out.writeBigUInt64BE(BigInt(p.offset), at);
    at = out.writeUInt32BE(p.count, at);
  }
  return out;
}

/** A head read back, checked against its key; null when it is not a whole head of that run. */
export function decodeHead(key: string, value: Buffer): RunHead | null {
  const m = /^run\/(\d+)\/(\d+)-(\d+)$/.exec(key);
  if (m === null || value.length < HEAD_FIXED || !value.subarray(0, 8).equals(HEAD_MAGIC)) return null;
  const partition = value.readUInt32BE(8);
  const from = Number(value.readBigUInt64BE(12));
  const to = Number(value.readBigUInt64BE(20));
  const count = Number(value.readBigUInt64BE(28));
  const writer = value.subarray(36, 44).toString('hex');
  const lastOffset = Number(value.readBigInt64BE(44));
  const lastHash = Buffer.from(value.subarray(52, 60));
  const n = value.readUInt32BE(60);
  if (partition !== Number(m[1]) || from !== Number(m[2]) || to !== Number(m[3])) return null;
  if (value.length !== HEAD_FIXED + n * PAGE_REF || levelOf(to - from) === null) return null;
  const pages: PageRef[] = [];
  for (let i = 0, at = HEAD_FIXED; i < n; i++, at += PAGE_REF)
    pages.push({
      first: Buffer.from(value.subarray(at, at + 8)),
      offset: Number(value.readBigUInt64BE(at + 8)),
      count: value.readUInt32BE(at + 16),
    });
  if (pages.reduce((s, p) => s + p.count, 0) !== count) return null;
  const last = lastOffset < 0 ? null : { offset: lastOffset, hash: lastHash };
  return { partition, from, to, count, writer, last, pages };
}

export function encodePage(body: Buffer): Buffer {
  return Buffer.concat([PAGE_MAGIC, body]);
}

/** A page's sorted entries, or null when the value is not a page of `count` entries. */
export function decodePage(value: Buffer | null, count: number): Buffer | null {
  if (value === null || value.length !== 8 + count * ENTRY || !value.subarray(0, 8).equals(PAGE_MAGIC))
    return null;
  return value.subarray(8);
}
