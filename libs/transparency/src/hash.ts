import * as nodeCrypto from 'node:crypto';
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

/** Node's one-shot digest (Node 20.12 and later; its types do not list it yet). */
const oneShot = (nodeCrypto as { hash?: (algorithm: string, data: Uint8Array, output: 'buffer') => Buffer })
  .hash;
/** 0x01 || left || right for the one-shot digest: a tree rebuilt at start hashes a node per leaf. */
const NODE_INPUT = Buffer.alloc(1 + 2 * HASH_BYTES, 0x01);

/** RFC 6962 section 2.1: the hash of an interior node, SHA-256(0x01 || left || right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Hash {
  // One call instead of a Hash object and four: about 0.65 us a node here instead of 1.0-1.2.
  if (oneShot !== undefined && left.length === HASH_BYTES && right.length === HASH_BYTES) {
    NODE_INPUT.set(left, 1);
    NODE_INPUT.set(right, 1 + HASH_BYTES);
    return oneShot('sha256', NODE_INPUT, 'buffer');
  }
  return createHash('sha256').update(NODE_PREFIX).update(left).update(right).digest();
}

/** The root of the empty tree, SHA-256 of no bytes. */
export const EMPTY_ROOT: Hash = createHash('sha256').digest();

/** Whether two hashes are the same bytes. */
export function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}
