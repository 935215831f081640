import { encodeReceipt, leafHash, signReceipt, type SigningKey } from '@app/transparency';

/**
 * The x-quote-receipt header of one REST answer (docs/audit.md "The receipt"): its bytes' SHA-256
 * and length signed with the origin's key, and the journal record's leaf hash as the lookup hint.
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
