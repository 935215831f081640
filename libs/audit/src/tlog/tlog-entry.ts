import { JOURNAL_TOPICS, STREAM_LEDGER, type JournalTopic } from '@app/events';
import { fromBase64, HASH_BYTES, isKeyName, toBase64, type Hash } from '@app/transparency';

/** The journal topics whose records are leaves. */
export type LeafTopic = JournalTopic | typeof STREAM_LEDGER;
const LEAF_TOPICS: readonly string[] = [...JOURNAL_TOPICS, STREAM_LEDGER];

/** One leaf: where its record is (journal topic and key) and its RFC 6962 leaf hash. */
export interface LeafRef {
  readonly topic: LeafTopic;
  readonly key: string;
  readonly hash: Hash;
}

/**
 * An entry of the `tlog` topic (keyed by origin; docs/audit.md "The log"): the next leaves of the
 * origin's tree, from leaf `from` on, or one of its signed checkpoints.
 */
export type TlogEntry =
  | {
      readonly type: 'tlog_leaves';
      readonly origin: string;
      readonly from: number;
      readonly leaves: readonly LeafRef[];
    }
  | { readonly type: 'tlog_checkpoint'; readonly origin: string; readonly note: string };

/** Leaves per entry: about 100 bytes each, far below the log's 1 MB record limit. */
export const LEAVES_PER_ENTRY = 2000;

export function encodeTlogEntry(e: TlogEntry): string {
  if (e.type === 'tlog_checkpoint')
    return JSON.stringify({ v: 1, type: e.type, origin: e.origin, note: e.note });
  return JSON.stringify({
    v: 1,
    type: e.type,
    origin: e.origin,
    from: e.from,
    leaves: e.leaves.map((l) => [l.topic, l.key, toBase64(l.hash)]),
  });
}

/** A tlog entry's text parsed, or why it is not one (every member checked). */
export function parseTlogEntry(text: string): { ok: true; entry: TlogEntry } | { ok: false; error: string } {
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch {
    return { ok: false, error: 'not JSON' };
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return { ok: false, error: 'not an object' };
  const r = o as Record<string, unknown>;
  if (r.v !== 1) return { ok: false, error: 'v is not 1' };
  if (typeof r.origin !== 'string' || !isKeyName(r.origin)) return { ok: false, error: 'bad origin' };
  const origin = r.origin;
  if (r.type === 'tlog_checkpoint') {
    if (!sameKeys(r, ['v', 'type', 'origin', 'note']) || typeof r.note !== 'string')
      return { ok: false, error: 'a checkpoint entry has v, type, origin and note' };
    return { ok: true, entry: { type: 'tlog_checkpoint', origin, note: r.note } };
  }
  if (r.type !== 'tlog_leaves') return { ok: false, error: 'unknown type' };
  if (!sameKeys(r, ['v', 'type', 'origin', 'from', 'leaves']))
    return { ok: false, error: 'a leaves entry has v, type, origin, from and leaves' };
  if (!Number.isSafeInteger(r.from) || (r.from as number) < 0) return { ok: false, error: 'bad from' };
  if (!Array.isArray(r.leaves) || r.leaves.length === 0) return { ok: false, error: 'bad leaves' };
  const leaves: LeafRef[] = [];
  for (const l of r.leaves as unknown[]) {
    const ref = leafOf(l);
    if (ref === null) return { ok: false, error: `bad leaf ${leaves.length}` };
    leaves.push(ref);
  }
  return { ok: true, entry: { type: 'tlog_leaves', origin, from: r.from as number, leaves } };
}

function leafOf(l: unknown): LeafRef | null {
  if (!Array.isArray(l) || l.length !== 3) return null;
  const [topic, key, hash] = l as unknown[];
  if (typeof topic !== 'string' || !LEAF_TOPICS.includes(topic) || typeof key !== 'string') return null;
  const bytes = typeof hash === 'string' ? fromBase64(hash, HASH_BYTES) : null;
  return bytes === null ? null : { topic: topic as LeafTopic, key, hash: bytes };
}

function sameKeys(r: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(r);
  return own.length === keys.length && keys.every((k) => own.includes(k));
}
