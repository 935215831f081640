import type { EventLog } from '@app/event-log';
import {
  checkRecordedQuote,
  checkReplay,
  fromBase64url,
  leafHash,
  openCheckpoint,
  promiseCovers,
  readPromise,
  sameHash,
  verifyInclusion,
  verifyReceiptSignatures,
  type Receipt,
  type ReceiptFailure,
  type TrustedKey,
} from '@app/transparency';
import { findQuotes } from '../journal-scan';
import { replayQuote } from '../replay-quote';
import { readOriginTree, type KeptCheckpoint, type OriginTree } from './origin-tree';
import type { LeafRef } from './tlog-entry';

export type VerifyOutcome =
  | { readonly ok: true; readonly steps: readonly string[] }
  | {
      readonly ok: false;
      readonly failure: ReceiptFailure;
      readonly detail: string;
      readonly steps: readonly string[];
    };

export interface VerifyReceiptOptions {
  /** Checkpoints of the origin the auditor kept from earlier: the log must still extend each. */
  readonly kept?: readonly string[];
  /** Replay the quote from the books (default true). */
  readonly replay?: boolean;
}

/**
 * `route-service replay verify` (docs/audit.md "Verifying a receipt"): signature, the origin's log
 * rebuilt from its tlog against its signed checkpoints (and the auditor's kept ones), the record
 * the log lists for the requestId under the latest checkpoint, its content, and the replay.
 * Stops at the first failure and names it.
 */
export async function verifyReceipt(
  log: EventLog,
  r: Receipt,
  keys: readonly TrustedKey[],
  options: VerifyReceiptOptions = {},
): Promise<VerifyOutcome> {
  const steps: string[] = [];
  const failed = (failure: ReceiptFailure, detail: string): VerifyOutcome => ({
    ok: false,
    failure,
    detail,
    steps,
  });
  const signed = verifyReceiptSignatures(r, keys);
  if (!signed.ok) return failed(signed.failure, signed.detail);
  steps.push(
    `signature: key ${r.origin}+${r.keyId} signed ${r.requestId} (${r.bytes} bytes, calculatedAt ${r.calculatedAt})`,
  );

  const verifiers = keys.filter((k) => k.origin === r.origin).map((k) => k.verifier);
  const tree = await readOriginTree(log, r.origin, { keys: verifiers, keepLeaves: true });
  if (tree.problems.length > 0)
    return failed(
      'inclusion_failed',
      `the origin's log does not fit its signed checkpoints: ${tree.problems[0]!}`,
    );
  const kept = keptProblem(tree, r.origin, verifiers, options.kept ?? []);
  if (kept !== null) return failed('inclusion_failed', kept);
  const latest = tree.checkpoints[tree.checkpoints.length - 1];
  if (latest === undefined) return failed('not_in_log', `${r.origin} has signed no checkpoint`);
  const size = latest.checkpoint.size;
  steps.push(
    `log: ${tree.tree.size} leaves, ${tree.checkpoints.length} checkpoints fit them; the latest of ${size} leaves`,
  );

  const first = tree.firstLeaf;
  const leafAt = (i: number): LeafRef => tree.leaves[i - first]!;
  const candidates = tree.leaves.flatMap((l, i) =>
    l.key === r.requestId && first + i < size ? [first + i] : [],
  );
  if (candidates.length === 0) return failed('not_in_log', absence(r, latest, first));
  const hint = fromBase64url(r.recordHash, 32);
  const leafIndex =
    candidates.find((i) => hint !== null && sameHash(leafAt(i).hash, hint)) ??
    candidates[candidates.length - 1]!;
  const leaf = leafAt(leafIndex);

  const path = tree.tree.inclusion(leafIndex, size);
  const included = path.ok
    ? verifyInclusion(leafIndex, size, leaf.hash, path.value, latest.checkpoint.root)
    : ({ ok: false, failure: 'node missing' } as const);
  if (!included.ok)
    return failed(
      'inclusion_failed',
      `leaf ${leafIndex} under the checkpoint of ${size}: ${included.failure}`,
    );
  steps.push(`inclusion: leaf ${leafIndex} (${leaf.topic}) under the checkpoint of ${size} leaves`);

  const found = await findQuotes(log, r.requestId);
  const here = found.filter((f) => f.topic === leaf.topic);
  if (here.length === 0)
    return failed(
      'not_in_log',
      `the log lists leaf ${leafIndex} for ${r.requestId}, but ${leaf.topic} holds no record of it (deleted)`,
    );
  let record: (typeof found)[number] | null = null;
  for (const occ of here) {
    const [entry] = await log.read(occ.topic, occ.partition, occ.offset, 1);
    if (entry !== undefined && sameHash(leafHash(Buffer.from(entry.value, 'utf8')), leaf.hash)) record = occ;
  }
  if (record === null)
    return failed(
      'record_altered',
      `no record of ${r.requestId} in ${leaf.topic} hashes to leaf ${leafIndex}`,
    );
  if (!record.ok) return failed('record_altered', record.problem);
  const q = record.record;
  const quote = checkRecordedQuote(r, {
    requestId: q.requestId,
    sha256: Buffer.from(q.responseSha256, 'hex'),
    bytes: q.responseBytes,
    calculatedAt: q.calculatedAt,
  });
  if (!quote.ok) return failed(quote.failure, quote.detail);
  if (hint === null || !sameHash(hint, leaf.hash))
    return failed('record_altered', "the receipt's recordHash is not the leaf the log has for its quote");
  steps.push(`record: ${leaf.topic}/${record.partition}@${record.offset} carries what the receipt signed`);

  if (options.replay === false) return { ok: true, steps };
  const replayed = await replayQuote(log, q);
  const same = checkReplay(r, Buffer.from(replayed.body, 'utf8'));
  if (!same.ok) return failed(same.failure, same.detail);
  steps.push(`replay: ${replayed.bytes} bytes, the signed SHA-256`);
  return { ok: true, steps };
}

/** Why the requestId is missing, and whether the origin had promised it by now. */
function absence(r: Receipt, latest: KeptCheckpoint, firstLeaf: number): string {
  const promise = readPromise(latest.checkpoint);
  const range =
    firstLeaf === 0 ? '' : ` from leaf ${firstLeaf} (the leaves before it are past the tlog's retention)`;
  const head = `no leaf of ${r.origin}'s log${range} up to its latest checkpoint (${latest.checkpoint.size} leaves) is a record of ${r.requestId}`;
  if (promise !== null && promiseCovers(promise, r.calculatedAt))
    return `${head}, though that checkpoint (time ${promise.time}, merge delay ${promise.mergeDelayMs} ms) promised every quote calculated by ${promise.time - promise.mergeDelayMs}: dropped or never logged`;
  return `${head}; no checkpoint promises it yet (it may still be on its way)`;
}

/** The first kept checkpoint the log no longer extends (rolled back or rewritten), or null. */
function keptProblem(
  tree: OriginTree,
  origin: string,
  verifiers: Parameters<typeof openCheckpoint>[2],
  kept: readonly string[],
): string | null {
  for (const note of kept) {
    const opened = openCheckpoint(note, origin, verifiers);
    if (!opened.ok) return `a kept checkpoint does not open: ${opened.failure} (${opened.detail})`;
    const { size, root } = opened.checkpoint;
    if (size > tree.tree.size)
      return `the log holds ${tree.tree.size} leaves, a kept checkpoint of ${origin} has ${size}: the log was rolled back`;
    const at = tree.tree.rootAt(size);
    if (!at.ok || !sameHash(at.value, root))
      return `the log's first ${size} leaves do not have the root of the kept checkpoint of that size: history was rewritten`;
  }
  return null;
}
