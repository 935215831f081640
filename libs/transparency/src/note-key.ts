import { createHash, createPrivateKey, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { ed25519Signer } from './ed25519-sign';
import { fromBase64, keyIdHex, parseKeyIdHex, toBase64 } from './encoding';

/** The C2SP signed-note signature type byte of Ed25519. */
export const ED25519_TYPE = 0x01;

/** A key that signs notes (checkpoints) and receipts under one name (the log's origin). */
export interface SigningKey {
  readonly name: string;
  /** SHA-256(name || 0x0A || 0x01 || public key)[:4] as a big-endian uint32. */
  readonly keyId: number;
  /** The raw 32-byte Ed25519 public key. */
  readonly publicKey: Buffer;
  sign(message: Uint8Array): Buffer;
}

/** A trusted public key, as a verifier holds it. */
export interface VerifierKey {
  readonly name: string;
  readonly keyId: number;
  readonly publicKey: Buffer;
  verify(message: Uint8Array, signature: Uint8Array): boolean;
}

// DER headers of an Ed25519 private key (PKCS#8) and public key (SPKI) around the raw 32 bytes.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
// Go's unicode.IsSpace set (Unicode White_Space): the note spec forbids these in key names.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f]/;
const SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;

/** A C2SP key name: non-empty, no Unicode space, no '+', no control character. */
export function isKeyName(name: string): boolean {
  return (
    name.length > 0 && name.length <= 256 && !SPACE.test(name) && !name.includes('+') && !CONTROL.test(name)
  );
}

/** The C2SP note key id of an Ed25519 key: SHA-256(name || 0x0A || 0x01 || public key)[:4]. */
export function noteKeyId(name: string, publicKey: Uint8Array): number {
  const digest = createHash('sha256')
    .update(name, 'utf8')
    .update(Buffer.from([0x0a, ED25519_TYPE]))
    .update(publicKey)
    .digest();
  return digest.readUInt32BE(0);
}

/** A signing key from a node:crypto Ed25519 private key. */
export function signingKey(name: string, privateKey: KeyObject): SigningKey {
  if (!isKeyName(name)) throw new RangeError(`not a key name: ${JSON.stringify(name)}`);
  if (privateKey.asymmetricKeyType !== 'ed25519')
    throw new RangeError('receipt and checkpoint keys are Ed25519');
  const publicKey = createPublicKey(privateKey)
    .export({ format: 'der', type: 'spki' })
    .subarray(SPKI_PREFIX.length);
  return {
    name,
    keyId: noteKeyId(name, publicKey),
    publicKey,
    sign: ed25519Signer(privateKey),
  };
}

/** A signing key from a PKCS#8 PEM text (RECEIPT_KEY_FILE's format). */
export function signingKeyFromPem(name: string, pem: string): SigningKey {
  return signingKey(name, createPrivateKey({ key: pem, format: 'pem' }));
}

/** A signing key from a 32-byte Ed25519 seed (the caller draws it from a CSPRNG). */
export function signingKeyFromSeed(name: string, seed: Uint8Array): SigningKey {
  return signingKey(name, privateKeyFromSeed(seed));
}

/** The PKCS#8 PEM text of the Ed25519 key with this seed, for writing a key file. */
export function pemFromSeed(seed: Uint8Array): string {
  return privateKeyFromSeed(seed).export({ format: 'pem', type: 'pkcs8' }).toString();
}

function privateKeyFromSeed(seed: Uint8Array): KeyObject {
  if (seed.length !== 32) throw new RangeError('an Ed25519 seed is 32 bytes');
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

/** A verifier for a raw 32-byte Ed25519 public key under `name`, or null when it is not one. */
export function verifierKey(name: string, publicKey: Uint8Array): VerifierKey | null {
  if (!isKeyName(name) || publicKey.length !== 32) return null;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, publicKey]), format: 'der', type: 'spki' });
  } catch {
    return null;
  }
  const raw = Buffer.from(publicKey);
  return {
    name,
    keyId: noteKeyId(name, raw),
    publicKey: raw,
    verify: (message, signature) => signature.length === 64 && verify(null, message, key, signature),
  };
}

/** The C2SP verifier key text: `<name>+<hex key id>+<base64(0x01 || public key)>`. */
export function formatVerifierKey(key: { name: string; publicKey: Uint8Array }): string {
  const typed = Buffer.concat([Buffer.from([ED25519_TYPE]), key.publicKey]);
  return `${key.name}+${keyIdHex(noteKeyId(key.name, key.publicKey))}+${toBase64(typed)}`;
}

/** A verifier key text back to a verifier, or null unless it is canonical and its key id is right. */
export function parseVerifierKey(text: string): VerifierKey | null {
  if (text.length > 512) return null;
  // The name has no '+' and the id is 8 hex digits; base64 may hold '+', so cut at the first two.
  const first = text.indexOf('+');
  const name = text.slice(0, first);
  const idHex = text.slice(first + 1, first + 9);
  const key64 = text.slice(first + 10);
  if (first < 0 || text[first + 9] !== '+') return null;
  const id = parseKeyIdHex(idHex);
  const typed = fromBase64(key64, 33);
  if (id === null || typed === null || typed[0] !== ED25519_TYPE) return null;
  const key = verifierKey(name, typed.subarray(1));
  return key !== null && key.keyId === id ? key : null;
}
