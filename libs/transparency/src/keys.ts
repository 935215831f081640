import { fromBase64, keyIdHex, toBase64 } from './encoding';
import { verifierKey, type SigningKey, type VerifierKey } from './note-key';
import {
  count,
  countOrNull,
  exactObject,
  fail,
  ORIGIN,
  parseJsonText,
  parsing,
  text,
  type Parsed,
} from './strict-json';

/** One entry of `GET /keys`. */
export interface PublishedKey {
  readonly origin: string;
  /** The note key id of (origin, publicKey), 8 lowercase hex digits. */
  readonly keyId: string;
  /** Standard base64 of the raw 32-byte Ed25519 public key. */
  readonly publicKey: string;
  /** Epoch milliseconds from which the key signs. */
  readonly notBefore: number;
  /** Epoch milliseconds from which it no longer signs (rotated out), or null while current. */
  readonly notAfter: number | null;
}

/** The body of `GET /keys`. */
export interface KeysDocument {
  readonly keys: readonly PublishedKey[];
}

/** A published key a verifier has checked and can use. */
export interface TrustedKey {
  readonly origin: string;
  readonly keyId: number;
  readonly verifier: VerifierKey;
  readonly notBefore: number;
  readonly notAfter: number | null;
}

export const MAX_KEYS_CHARS = 256 * 1024;
export const MAX_KEYS = 1024;
const KEY_FIELDS = ['origin', 'keyId', 'publicKey', 'notBefore', 'notAfter'] as const;

/** The /keys entry of a signing key. */
export function publishKey(key: SigningKey, notBefore: number, notAfter: number | null): PublishedKey {
  return {
    origin: key.name,
    keyId: keyIdHex(key.keyId),
    publicKey: toBase64(key.publicKey),
    notBefore,
    notAfter,
  };
}

/**
 * A /keys body (its text, or the parsed JSON) to trusted keys: bounded, exact fields, each key id
 * recomputed from origin and key, no (origin, keyId) twice, notAfter after notBefore.
 */
export function parseKeysDocument(body: unknown): Parsed<TrustedKey[]> {
  return parsing(() => {
    const doc = exactObject(typeof body === 'string' ? parseJsonText(body, MAX_KEYS_CHARS) : body, ['keys']);
    const list = doc.keys;
    if (!Array.isArray(list)) return fail('bad_field', 'keys', 'must be an array');
    if (list.length > MAX_KEYS) fail('too_large', 'keys', `more than ${MAX_KEYS} keys`);
    const seen = new Set<string>();
    return list.map((entry: unknown, i) => {
      const at = `keys[${i}].`;
      const o = exactObject(entry, KEY_FIELDS, at);
      const origin = text(o, 'origin', ORIGIN, `${at}origin`);
      const idHex = text(o, 'keyId', /^[0-9a-f]{8}$/, `${at}keyId`);
      const raw = fromBase64(text(o, 'publicKey', /^[A-Za-z0-9+/]{43}=$/, `${at}publicKey`), 32);
      const verifier = raw && verifierKey(origin, raw);
      if (!verifier) return fail('bad_field', `${at}publicKey`, 'not an Ed25519 public key');
      if (keyIdHex(verifier.keyId) !== idHex)
        fail('bad_field', `${at}keyId`, 'not the key id of this origin and key');
      const notBefore = count(o, 'notBefore', `${at}notBefore`);
      const notAfter = countOrNull(o, 'notAfter', `${at}notAfter`);
      if (notAfter !== null && notAfter <= notBefore)
        fail('bad_field', `${at}notAfter`, 'not after notBefore');
      if (seen.has(`${origin}+${idHex}`))
        fail('duplicate_key', `${at}keyId`, `${origin}+${idHex} listed twice`);
      seen.add(`${origin}+${idHex}`);
      return { origin, keyId: verifier.keyId, verifier, notBefore, notAfter };
    });
  });
}

/** The key of `origin` with this id that was signing at `at` (epoch ms), if any. */
export function findKey(
  keys: readonly TrustedKey[],
  origin: string,
  keyId: number,
  at: number,
): TrustedKey | null {
  return (
    keys.find(
      (k) =>
        k.origin === origin &&
        k.keyId === keyId &&
        k.notBefore <= at &&
        (k.notAfter === null || at < k.notAfter),
    ) ?? null
  );
}
