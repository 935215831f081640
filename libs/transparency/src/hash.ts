import { createHash, hash } from 'node:crypto';

/** A SHA-256 value: 32 bytes. */
export type Hash = Buffer;

export const HASH_BYTES = 32;

const LEAF_PREFIX = Buffer.from([0x00]);
const NODE_PREFIX = Buffer.from([0x01]);

/** RFC 6962 section 2.1: the hash of a leaf's data, SHA-256(0x00 || data). */
export function leafHash(data: Uint8Array): Hash {
  return createHash('sha256').update(LEAF_PREFIX).update(data).digest();
}

/**
 * leafHash of a text's UTF-8 bytes (a journal record). One call with no Hash object and no copy
 * of the text as bytes: every quote's record is hashed on the answering thread when receipts are
 * on. U+0000 is the one byte 0x00 in UTF-8, so this is SHA-256(0x00 || UTF-8(text)).
 */
export function leafHashOfText(text: string): Hash {
  return hash('sha256', '\u0000' + text, 'buffer');
}

// 0x01 || left || right, reused: nodeHash runs synchronously, so one buffer serves every call.
const NODE_INPUT = Buffer.alloc(1 + 2 * HASH_BYTES, 0x01);

/** RFC 6962 section 2.1: the hash of an interior node, SHA-256(0x01 || left || right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Hash {
  if (left.length !== HASH_BYTES || right.length !== HASH_BYTES)
    return createHash('sha256').update(NODE_PREFIX).update(left).update(right).digest();
  // One call instead of a Hash object and three updates: a tree's appends and proofs are mostly this.
  NODE_INPUT.set(left, 1);
  NODE_INPUT.set(right, 1 + HASH_BYTES);
  return hash('sha256', NODE_INPUT, 'buffer');
}

/** The root of the empty tree, SHA-256 of no bytes. */
export const EMPTY_ROOT: Hash = createHash('sha256').digest();

/** Whether two hashes are the same bytes. */
export function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}
