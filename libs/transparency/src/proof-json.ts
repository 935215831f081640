import { fromBase64, toBase64 } from './encoding';
import { HASH_BYTES, type Hash } from './hash';
import { count, exactObject, fail, ORIGIN, parsing, REQUEST_ID, text, type Parsed } from './strict-json';

/** `GET /receipts/{requestId}/proof`: a leaf, the checkpoint of one tree size, and the path between. */
export interface InclusionProofJson {
  readonly origin: string;
  readonly requestId: string;
  readonly leafIndex: number;
  readonly treeSize: number;
  /** Standard base64 hashes, deepest sibling first (RFC 9162 inclusion_path). */
  readonly inclusionPath: readonly string[];
  /** The signed checkpoint note of treeSize, verbatim. */
  readonly checkpoint: string;
}

/** `GET /checkpoint/consistency?from=&to=`: RFC 9162 consistency_path between two tree sizes. */
export interface ConsistencyProofJson {
  readonly origin: string;
  readonly from: number;
  readonly to: number;
  readonly consistencyPath: readonly string[];
}

export interface InclusionProof extends Omit<InclusionProofJson, 'inclusionPath'> {
  readonly inclusionPath: readonly Hash[];
}

export interface ConsistencyProof extends Omit<ConsistencyProofJson, 'consistencyPath'> {
  readonly consistencyPath: readonly Hash[];
}

/** Below 2^53 leaves an inclusion path has at most 53 hashes, a consistency path 54; more is refused unread. */
export const MAX_PATH = 128;
export const MAX_CHECKPOINT_CHARS = 64 * 1024;

export function inclusionProofJson(p: InclusionProof): InclusionProofJson {
  return { ...p, inclusionPath: p.inclusionPath.map(toBase64) };
}

export function consistencyProofJson(p: ConsistencyProof): ConsistencyProofJson {
  return { ...p, consistencyPath: p.consistencyPath.map(toBase64) };
}

/** A parsed inclusion proof body, every member checked (the checkpoint is opened by the caller). */
export function parseInclusionProof(value: unknown): Parsed<InclusionProof> {
  return parsing(() => {
    const o = exactObject(value, [
      'origin',
      'requestId',
      'leafIndex',
      'treeSize',
      'inclusionPath',
      'checkpoint',
    ]);
    const checkpoint = o.checkpoint;
    if (typeof checkpoint !== 'string' || checkpoint.length > MAX_CHECKPOINT_CHARS)
      fail('bad_field', 'checkpoint', 'must be a signed note text');
    const leafIndex = count(o, 'leafIndex');
    const treeSize = count(o, 'treeSize');
    if (leafIndex >= treeSize) fail('bad_field', 'leafIndex', 'must be below treeSize');
    return {
      origin: text(o, 'origin', ORIGIN),
      requestId: text(o, 'requestId', REQUEST_ID),
      leafIndex,
      treeSize,
      inclusionPath: path(o.inclusionPath, 'inclusionPath'),
      checkpoint,
    };
  });
}

/** A parsed consistency proof body. */
export function parseConsistencyProof(value: unknown): Parsed<ConsistencyProof> {
  return parsing(() => {
    const o = exactObject(value, ['origin', 'from', 'to', 'consistencyPath']);
    const from = count(o, 'from');
    const to = count(o, 'to');
    if (from > to) fail('bad_field', 'from', 'must not be above to');
    return {
      origin: text(o, 'origin', ORIGIN),
      from,
      to,
      consistencyPath: path(o.consistencyPath, 'consistencyPath'),
    };
  });
}

function path(value: unknown, field: string): Hash[] {
  if (!Array.isArray(value)) return fail('bad_field', field, 'must be an array');
  if (value.length > MAX_PATH) fail('too_large', field, `more than ${MAX_PATH} hashes`);
  return value.map((h: unknown, i) => {
    const bytes = typeof h === 'string' ? fromBase64(h, HASH_BYTES) : null;
    if (bytes === null) return fail('bad_field', `${field}[${i}]`, 'not standard base64 of 32 bytes');
    return bytes;
  });
}
