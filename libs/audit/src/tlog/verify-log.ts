import { JOURNAL_TOPICS, STREAM_LEDGER } from '@app/events';
import type { EventLog } from '@app/event-log';
import { leafHash, toBase64, type VerifierKey } from '@app/transparency';
import { readOriginTree } from './origin-tree';

export interface LogAudit {
  readonly origin: string;
  readonly leaves: number;
  readonly checkpoints: number;
  /** The leaves checked against the journal: those the tlog lists up to the latest checkpoint. */
  readonly checkedLeaves: number;
  /** Each fault found, named: the tree against its checkpoints, then each leaf against its record. */
  readonly problems: readonly string[];
}

/** Every journal record's leaf hash (base64) and every key, per leaf topic: one pass over the journal. */
export async function journalHashes(log: EventLog): Promise<{ hashes: Set<string>; keys: Set<string> }> {
  const hashes = new Set<string>();
  const keys = new Set<string>();
  for (const topic of [...JOURNAL_TOPICS, STREAM_LEDGER] as const) {
    const hwm = await log.highWatermarks(topic);
    for (let p = 0; p < hwm.length; p++)
      for (let from = 0; from < hwm[p]!;) {
        const batch = await log.read(topic, p, from, Math.min(4096, hwm[p]! - from));
        if (batch.length === 0) break;
        for (const e of batch) {
          hashes.add(toBase64(leafHash(Buffer.from(e.value, 'utf8'))));
          keys.add(`${topic}\n${e.key}`);
        }
        from = batch[batch.length - 1]!.offset + 1;
      }
  }
  return { hashes, keys };
}

/**
 * `replay audit --verify-log` for one origin: its tree read from the tlog against every checkpoint
 * it signed (leaves changed, reordered or removed under a signed root are named by the checkpoint
 * they break), then every leaf under the latest checkpoint against the journal: a leaf whose
 * record is gone is missing, one whose key is there with other bytes is altered.
 */
export async function auditOriginLog(
  log: EventLog,
  origin: string,
  keys: readonly VerifierKey[],
  journal: { readonly hashes: Set<string>; readonly keys: Set<string> },
): Promise<LogAudit> {
  const tree = await readOriginTree(log, origin, { keys, keepLeaves: true });
  const problems = tree.problems.map((p) =>
    p.includes('root is not the root') ? `${p} (leaves changed, reordered or removed)` : p,
  );
  const signed = tree.checkpoints[tree.checkpoints.length - 1]?.checkpoint.size ?? 0;
  // Leaves before the tlog's prefix are gone from it: the prefix's nodes stand for them.
  const checkedLeaves = Math.max(0, signed - tree.firstLeaf);
  for (let i = tree.firstLeaf; i < signed; i++) {
    const leaf = tree.leaves[i - tree.firstLeaf]!;
    if (journal.hashes.has(toBase64(leaf.hash))) continue;
    const where = `leaf ${i} (${leaf.topic} ${leaf.key})`;
    problems.push(
      journal.keys.has(`${leaf.topic}\n${leaf.key}`)
        ? `${where}: altered (no record of that key has the leaf's hash)`
        : `${where}: missing (no record of that key)`,
    );
  }
  return {
    origin,
    leaves: tree.tree.size,
    checkpoints: tree.checkpoints.length,
    checkedLeaves,
    problems,
  };
}
