import { openCheckpoint } from './checkpoint';
import { fromBase64url, parseKeyIdHex } from './encoding';
import { leafHash, sameHash, type Hash } from './hash';
import { findKey, type TrustedKey } from './keys';
import type { InclusionProof } from './proof-json';
import { quoteText, responseDigest, type Receipt } from './receipt';
import { verifyInclusion } from './verify';

/** The auditor's failure names (`route-service replay verify` exits 1 naming the first). */
export type ReceiptFailure =
  'bad_signature' | 'unknown_key' | 'not_in_log' | 'inclusion_failed' | 'record_altered' | 'replay_differs';

export type ReceiptCheck =
  { readonly ok: true } | { readonly ok: false; readonly failure: ReceiptFailure; readonly detail: string };

const OK: ReceiptCheck = { ok: true };
const fail = (failure: ReceiptFailure, detail: string): ReceiptCheck => ({ ok: false, failure, detail });

/**
 * Step 1: the signature over the quote text, by the key the receipt names, which must be listed for its origin and
 * have been signing at calculatedAt (a rotated-out key cannot vouch for a later quote).
 */
export function verifyReceiptSignatures(r: Receipt, keys: readonly TrustedKey[]): ReceiptCheck {
  const id = parseKeyIdHex(r.keyId);
  const key = id === null ? null : findKey(keys, r.origin, id, r.calculatedAt);
  if (key === null) return fail('unknown_key', `no key ${r.origin}+${r.keyId} valid at ${r.calculatedAt}`);
  const quote = fromBase64url(r.signature, 64);
  if (quote === null || !key.verifier.verify(Buffer.from(quoteText(r), 'utf8'), quote))
    return fail('bad_signature', 'signature does not verify over the quote text');
  return OK;
}

/**
 * Step 3: the receipt's record hash is the leaf at the proof's index (the hinted one, when the
 * receipt names it) under a checkpoint signed by a key of the receipt's origin.
 */
export function verifyReceiptInclusion(
  r: Receipt,
  proof: InclusionProof,
  keys: readonly TrustedKey[],
  /** leafHash of the record found in the log; default: the receipt's (unsigned) recordHash hint. */
  leaf: Hash = fromBase64url(r.recordHash, 32)!,
): ReceiptCheck {
  if (proof.origin !== r.origin || proof.requestId !== r.requestId)
    return fail('inclusion_failed', 'the proof is for another origin or request');
  if (r.leafIndex !== null && proof.leafIndex !== r.leafIndex)
    return fail(
      'inclusion_failed',
      `receipt's hint is leaf ${r.leafIndex}, the log has it at ${proof.leafIndex}`,
    );
  const verifiers = keys.filter((k) => k.origin === r.origin).map((k) => k.verifier);
  const opened = openCheckpoint(proof.checkpoint, r.origin, verifiers);
  if (!opened.ok) return fail('inclusion_failed', `checkpoint refused: ${opened.failure} (${opened.detail})`);
  if (opened.checkpoint.size !== proof.treeSize)
    return fail(
      'inclusion_failed',
      `checkpoint is of size ${opened.checkpoint.size}, the proof of ${proof.treeSize}`,
    );
  const check = verifyInclusion(
    proof.leafIndex,
    proof.treeSize,
    leaf,
    proof.inclusionPath,
    opened.checkpoint.root,
  );
  return check.ok ? OK : fail('inclusion_failed', `inclusion path: ${check.failure}`);
}

/**
 * Step 4: the record found in the log is the one the receipt names. recordHash is an unsigned
 * hint: the caller also checks that the record carries the signed requestId and sha256.
 */
export function checkRecord(r: Receipt, record: Uint8Array): ReceiptCheck {
  return sameHash(leafHash(record), fromBase64url(r.recordHash, 32)!)
    ? OK
    : fail('record_altered', 'the record in the log does not hash to recordHash');
}

/** What a journal record says about the quote it logs: the fields the receipt's signature covers. */
export interface RecordedQuote {
  readonly requestId: string;
  /** SHA-256 of the response bytes. */
  readonly sha256: Hash;
  readonly bytes: number;
  readonly calculatedAt: number;
}

/**
 * Step 4, the signed half: the record found carries the quote the receipt signed. This, not the
 * recordHash hint, is what ties a receipt to its record.
 */
export function checkRecordedQuote(r: Receipt, recorded: RecordedQuote): ReceiptCheck {
  const mismatch = [
    recorded.requestId !== r.requestId && 'requestId',
    !sameHash(recorded.sha256, fromBase64url(r.sha256, 32)!) && 'sha256',
    recorded.bytes !== r.bytes && 'bytes',
    recorded.calculatedAt !== r.calculatedAt && 'calculatedAt',
  ].filter((m) => m !== false);
  return mismatch.length === 0
    ? OK
    : fail('record_altered', `the record's ${mismatch.join(', ')} differ from what the receipt signed`);
}

/** Step 5: the replayed response is byte for byte the one the receipt signed. */
export function checkReplay(r: Receipt, replayed: Uint8Array): ReceiptCheck {
  const { sha256, bytes } = responseDigest(replayed);
  if (bytes !== r.bytes)
    return fail('replay_differs', `replayed ${bytes} bytes, the receipt signed ${r.bytes}`);
  return sameHash(sha256, fromBase64url(r.sha256, 32)!)
    ? OK
    : fail('replay_differs', 'the replayed response has another SHA-256');
}
