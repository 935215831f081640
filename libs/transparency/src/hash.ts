import { createHash } from 'node:crypto';

/** A SHA-256 value: 32 bytes. */
export type Hash = Buffer;

export const HASH_BYTES = 32;

const LEAF_PREFIX = Buffer.from([0x00]);
const NODE_PREFIX = Buffer.from([0x01]);

/** RFC 6962 section 2.1: the hash of a leaf's data, SHA-256(0x00 || data). */
export function leafHash(data: Uint8Array): Hash {
  return createHash('sha256').update(LEAF_PREFIX).update(data).digest();
}

/** RFC 6962 section 2.1: the hash of an interior node, SHA-256(0x01 || left || right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Hash {
  return createHash('sha256').update(NODE_PREFIX).update(left).update(right).digest();
}

/** The root of the empty tree, SHA-256 of no bytes. */
export const EMPTY_ROOT: Hash = createHash('sha256').digest();

/** Whether two hashes are the same bytes. */
export function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}
