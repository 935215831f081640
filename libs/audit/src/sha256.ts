import { createHash, hash } from 'node:crypto';

/** SHA-256 of the UTF-8 bytes of `text`, lowercase hex (the journal's response hash). */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** SHA-256 of bytes already encoded (the response as sent), lowercase hex: no second encoding. */
export function sha256HexOfBytes(bytes: Uint8Array): string {
  // One call, no Hash object (a 15 KB answer hashed for every journalled quote).
  return hash('sha256', bytes, 'hex');
}
