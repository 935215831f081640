/**
 * Strict text encodings for hashes, keys and signatures. Node's Buffer decoders skip characters
 * they do not know and accept padding anywhere; a verifier must not, or two different texts would
 * stand for the same bytes. Every decoder here accepts exactly the canonical form and is linear.
 */

const B64 = /^[A-Za-z0-9+/]*={0,2}$/;
const B64URL = /^[A-Za-z0-9_-]*$/;
const HEX8 = /^[0-9a-f]{8}$/;
const DECIMAL = /^(0|[1-9][0-9]{0,15})$/;

/** Standard base64 (RFC 4648 section 4) with padding. */
export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** Unpadded base64url (RFC 4648 section 5). */
export function toBase64url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

/** Canonical padded standard base64 to bytes, or null; `length`, when given, is the exact byte count. */
export function fromBase64(text: string, length?: number): Buffer | null {
  if (text.length % 4 !== 0 || !B64.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  if (length !== undefined && bytes.length !== length) return null;
  // Non-zero bits after the last byte would give a second spelling of the same bytes.
  return bytes.toString('base64') === text ? bytes : null;
}

/** Canonical unpadded base64url to bytes, or null; `length`, when given, is the exact byte count. */
export function fromBase64url(text: string, length?: number): Buffer | null {
  if (text.length % 4 === 1 || !B64URL.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  if (length !== undefined && bytes.length !== length) return null;
  return bytes.toString('base64url') === text ? bytes : null;
}

/** A 32-bit key id as 8 lowercase hex digits. */
export function keyIdHex(id: number): string {
  return id.toString(16).padStart(8, '0');
}

/** 8 lowercase hex digits to a 32-bit key id, or null. */
export function parseKeyIdHex(text: string): number | null {
  return HEX8.test(text) ? parseInt(text, 16) : null;
}

/** A decimal integer without sign or leading zeros, at most Number.MAX_SAFE_INTEGER; else null. */
export function parseDecimal(text: string): number | null {
  if (!DECIMAL.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : null;
}
