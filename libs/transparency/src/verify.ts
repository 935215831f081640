import { HASH_BYTES, nodeHash, sameHash } from './hash';

/** Why a proof did not verify: a value, since a bad proof is an expected input. */
export type ProofFailure =
  | 'bad_size' // a size or index is not an integer in [0, 2^53 - 1]
  | 'index_out_of_range' // leaf index >= tree size
  | 'sizes_out_of_order' // first size > second size
  | 'empty_tree' // consistency from size 0 proves nothing
  | 'bad_hash_length' // a hash or proof element is not 32 bytes
  | 'bad_proof_length' // the path is longer or shorter than the sizes allow
  | 'root_mismatch'; // the path leads to another root

export type ProofCheck = { readonly ok: true } | { readonly ok: false; readonly failure: ProofFailure };

const OK: ProofCheck = { ok: true };
const fail = (failure: ProofFailure): ProofCheck => ({ ok: false, failure });
const safe = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;
const odd = (n: number): boolean => n % 2 === 1;
const half = (n: number): number => Math.floor(n / 2);

/**
 * RFC 9162 section 2.1.3.2, step by step: does `path` prove the leaf with hash `leaf` at `index`
 * in the tree of `size` leaves whose root is `root`.
 */
export function verifyInclusion(
  index: number,
  size: number,
  leaf: Uint8Array,
  path: readonly Uint8Array[],
  root: Uint8Array,
): ProofCheck {
  if (!safe(index) || !safe(size)) return fail('bad_size');
  if (index >= size) return fail('index_out_of_range'); // step 1
  if (leaf.length !== HASH_BYTES || root.length !== HASH_BYTES || path.some((p) => p.length !== HASH_BYTES))
    return fail('bad_hash_length');
  const r = chainInclusion(index, size, leaf, path);
  if (r === null) return fail('bad_proof_length');
  return sameHash(r, root) ? OK : fail('root_mismatch');
}

/**
 * RFC 9162 section 2.1.4.2, every step: does `path` prove that the tree of `size2` leaves with
 * root `root2` extends the tree of `size1` leaves with root `root1`. Equal sizes need an empty
 * path and equal roots; size 0 is refused (any tree extends the empty one, so it proves nothing).
 */
export function verifyConsistency(
  size1: number,
  size2: number,
  root1: Uint8Array,
  root2: Uint8Array,
  path: readonly Uint8Array[],
): ProofCheck {
  if (!safe(size1) || !safe(size2)) return fail('bad_size');
  if (size1 > size2) return fail('sizes_out_of_order');
  if (size1 === 0) return fail('empty_tree');
  if (root1.length !== HASH_BYTES || root2.length !== HASH_BYTES || path.some((p) => p.length !== HASH_BYTES))
    return fail('bad_hash_length');
  if (size1 === size2) {
    if (path.length !== 0) return fail('bad_proof_length');
    return sameHash(root1, root2) ? OK : fail('root_mismatch');
  }
  if (path.length === 0) return fail('bad_proof_length'); // step 1
  // step 2: a power-of-two old tree is itself a node of the new one, and its root the first hash.
  let pow = 1;
  while (pow < size1) pow *= 2;
  const isPow2 = pow === size1;
  const c: readonly Uint8Array[] = isPow2 ? [root1, ...path] : path;
  let fn = size1 - 1; // step 3
  let sn = size2 - 1;
  while (odd(fn)) {
    // step 4
    fn = half(fn);
    sn = half(sn);
  }
  let fr: Uint8Array = c[0]!; // step 5
  let sr: Uint8Array = c[0]!;
  for (let i = 1; i < c.length; i++) {
    // step 6
    const ci = c[i]!;
    if (sn === 0) return fail('bad_proof_length'); // 6a
    if (odd(fn) || fn === sn) {
      fr = nodeHash(ci, fr); // 6b i
      sr = nodeHash(ci, sr); // 6b ii
      while (!odd(fn) && fn !== 0) {
        // 6b iii (runs only when LSB(fn) was not set)
        fn = half(fn);
        sn = half(sn);
      }
    } else sr = nodeHash(sr, ci); // 6b otherwise
    fn = half(fn); // 6c
    sn = half(sn);
  }
  // step 7: all three checks; skipping the sn check lets a short path pass for some size pairs.
  if (sn !== 0) return fail('bad_proof_length');
  return sameHash(fr, root1) && sameHash(sr, root2) ? OK : fail('root_mismatch');
}

/**
 * Steps 2 to 5 of RFC 9162 section 2.1.3.2: the root an inclusion path leads to, or null when the
 * path is longer or shorter than a leaf at `index` of a tree of `size` leaves has.
 */
export function chainInclusion(
  index: number,
  size: number,
  leaf: Uint8Array,
  path: readonly Uint8Array[],
): Uint8Array | null {
  if (!safe(index) || !safe(size) || index >= size) return null;
  let fn = index; // step 2
  let sn = size - 1;
  let r = leaf; // step 3
  for (const p of path) {
    // step 4
    if (sn === 0) return null; // 4a
    if (odd(fn) || fn === sn) {
      r = nodeHash(p, r); // 4b i
      while (!odd(fn) && fn !== 0) {
        // 4b ii (runs only when LSB(fn) was not set)
        fn = half(fn);
        sn = half(sn);
      }
    } else r = nodeHash(r, p);
    fn = half(fn); // 4c
    sn = half(sn);
  }
  return sn === 0 ? r : null; // step 5, the size half
}
