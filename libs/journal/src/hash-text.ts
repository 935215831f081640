const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const HEX = /^[0-9a-f]{64}$/;
const B64URL = /^[A-Za-z0-9_-]{43}$/;

/** A SHA-256 as lowercase hex (64 characters) in unpadded base64url (43), as format v2 stores it. */
export function hexToBase64url(hex: string): string {
  if (!HEX.test(hex)) throw new RangeError('not a lowercase hex SHA-256');
  const bytes: number[] = [];
  for (let i = 0; i < 64; i += 2) bytes.push(parseInt(hex.slice(i, i + 2), 16));
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = i + 2 < bytes.length ? 4 : i + 1 < bytes.length ? 3 : 2;
    for (let c = 0; c < chars; c++) out += ALPHABET[(n >> (18 - 6 * c)) & 63];
  }
  return out;
}

/** The base64url form back to lowercase hex, or null when it is not 43 base64url characters of 32 bytes. */
export function base64urlToHex(text: string): string | null {
  if (!B64URL.test(text)) return null;
  let bits = 0;
  let value = 0;
  let hex = '';
  for (const ch of text) {
    value = (value << 6) | ALPHABET.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      hex += ((value >> bits) & 0xff).toString(16).padStart(2, '0');
    }
  }
  // 43 characters carry 258 bits: the last 2 must be zero for the text to be canonical.
  return (value & ((1 << bits) - 1)) === 0 ? hex : null;
}
