import { receiptWriter, type Hash, type SigningKey } from '@app/transparency';

/**
 * Signs the receipt of one answer (docs/audit.md "The receipt"): the x-quote-receipt header of a
 * REST quote, the `receipt` of a v2 stream quote. Its bytes' SHA-256 and length signed with the
 * origin's key, and the journal record's leaf hash (the journal's, which the transparency log
 * takes as it is) as the lookup hint.
 */
export type ReceiptSigner = (
  requestId: string,
  sha256: Hash,
  bytes: number,
  calculatedAt: number,
  recordHash: Hash,
) => string;

/** The receipt signer of `key`. The leaf index is not known yet (the record is queued, not appended), so it is null. */
export function receiptSigner(key: SigningKey): ReceiptSigner {
  const write = receiptWriter(key);
  return (requestId, sha256, bytes, calculatedAt, recordHash) =>
    write({ requestId, sha256, bytes, calculatedAt, recordHash, leafIndex: null });
}
