export {
  fromBase64,
  fromBase64url,
  keyIdHex,
  parseDecimal,
  parseKeyIdHex,
  toBase64,
  toBase64url,
} from './encoding';
export { EMPTY_ROOT, HASH_BYTES, leafHash, leafHashOfText, nodeHash, sameHash } from './hash';
export type { Hash } from './hash';
export { MAX_TREE_SIZE, nodeKey, nodeRange, rangeNodes } from './tree-math';
export type { NodeId } from './tree-math';
export { assemble, consistencyPlan, inclusionPlan, mergeNodes, planNodes, rootNodes } from './proof-plan';
export type { ProofPlan } from './proof-plan';
export { chainInclusion, verifyConsistency, verifyInclusion } from './verify';
export type { ProofCheck, ProofFailure } from './verify';
export { CompactRange } from './compact-range';
export type { OnNode } from './compact-range';
export { MemoryHashColumn } from './hash-column';
export type { HashColumn } from './hash-column';
export { HashTree } from './hash-tree';
export type { HashTreeOptions, NodeSource, Proved } from './hash-tree';
export { treePrefix } from './tree-prefix';
export {
  ED25519_TYPE,
  formatVerifierKey,
  isKeyName,
  noteKeyId,
  parseVerifierKey,
  pemFromSeed,
  signingKey,
  signingKeyFromPem,
  signingKeyFromSeed,
  verifierKey,
} from './note-key';
export type { SigningKey, VerifierKey } from './note-key';
export { ed25519Signer, opensslSigner } from './ed25519-sign';
export type { Sign } from './ed25519-sign';
export { NOTE_LIMITS, openNote, signNote } from './note';
export type { NoteFailure, NoteLimits, NoteSignature, OpenedNote } from './note';
export {
  checkpointText,
  openCheckpoint,
  parseCheckpointText,
  promiseCovers,
  promiseLines,
  readPromise,
  signCheckpoint,
} from './checkpoint';
export type { Checkpoint, CheckpointFailure, CheckpointPromise, OpenedCheckpoint } from './checkpoint';
export { encodeReceipt, quoteText, RECEIPT_KEYS, receiptJson, responseDigest, signReceipt } from './receipt';
export type { Receipt, ReceiptInput } from './receipt';
export { receiptWriter } from './receipt-writer';
export type { QuoteToSign } from './receipt-writer';
export { decodeReceipt, MAX_RECEIPT_CHARS, parseReceipt } from './receipt-decode';
export {
  checkRecord,
  checkRecordedQuote,
  checkReplay,
  verifyReceiptInclusion,
  verifyReceiptSignatures,
} from './receipt-verify';
export type { ReceiptCheck, ReceiptFailure, RecordedQuote } from './receipt-verify';
export { findKey, MAX_KEYS, MAX_KEYS_CHARS, parseKeysDocument, publishKey } from './keys';
export type { KeysDocument, PublishedKey, TrustedKey } from './keys';
export {
  consistencyProofJson,
  inclusionProofJson,
  MAX_PATH,
  parseConsistencyProof,
  parseInclusionProof,
} from './proof-json';
export type {
  ConsistencyProof,
  ConsistencyProofJson,
  InclusionProof,
  InclusionProofJson,
} from './proof-json';
export type { FormatError, FormatErrorCode, Parsed } from './strict-json';
