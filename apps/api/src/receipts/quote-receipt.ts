import { encodeReceipt, leafHash, signReceipt, type SigningKey } from '@app/transparency';

/**
 * The receipt of one answer (docs/audit.md "The receipt"): the x-quote-receipt header of a REST
 * quote, the `receipt` of a v2 stream quote. Its bytes' SHA-256 and length signed with the
 * origin's key, and the journal record's leaf hash as the lookup hint.
 * The leaf index is not known yet (the record is queued, not appended), so it is null.
 */
export function receiptOf(
  key: SigningKey,
  requestId: string,
  sha256: Buffer,
  bytes: number,
  calculatedAt: number,
  recordText: string,
): string {
  const recordHash = leafHash(Buffer.from(recordText, 'utf8'));
  const receipt = signReceipt(
    { requestId, response: { sha256, bytes }, calculatedAt, recordHash, leafIndex: null },
    key,
  );
  return encodeReceipt(receipt);
}

/** receiptOf with `key`: what signs the v2 stream's quotes (a result's bytes, its frame record). */
export function receiptSigner(
  key: SigningKey,
): (requestId: string, sha256: Buffer, bytes: number, calculatedAt: number, recordText: string) => string {
  return (requestId, sha256, bytes, calculatedAt, recordText) =>
    receiptOf(key, requestId, sha256, bytes, calculatedAt, recordText);
}
