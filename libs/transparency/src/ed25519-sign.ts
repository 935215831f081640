import { sign, type KeyObject } from 'node:crypto';

/**
 * Ed25519 signing for receipts and checkpoints. Every quote is signed on the answering thread, so
 * the signature's cost is paid per GET /route: libsodium (sodium-native, prebuilt for each
 * platform, no install script) signs in about 15 us where node:crypto's OpenSSL call takes about
 * 37 us on this project's machine (`npm run bench -- tlog`). Ed25519 is deterministic (RFC 8032):
 * both give the same 64 bytes for the same key and message, so which one signed is invisible to
 * a verifier, and node:crypto remains the fallback where the addon cannot load.
 */
export type Sign = (message: Uint8Array) => Buffer;

/** The part of sodium-native used here (its own types describe an older major version). */
interface Sodium {
  readonly crypto_sign_BYTES: number;
  readonly crypto_sign_PUBLICKEYBYTES: number;
  readonly crypto_sign_SECRETKEYBYTES: number;
  crypto_sign_seed_keypair(publicKey: Buffer, secretKey: Buffer, seed: Buffer): void;
  crypto_sign_detached(signature: Buffer, message: Uint8Array, secretKey: Buffer): void;
}

let loaded: Sodium | null | undefined;

/** sodium-native when it loads on this platform, else null (once per process). */
export function sodium(): Sodium | null {
  if (loaded === undefined) {
    try {
      // Loaded on first use, and optional: a platform without its prebuilt addon signs with node:crypto.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      loaded = require('sodium-native') as Sodium;
    } catch {
      loaded = null;
    }
  }
  return loaded;
}

// The DER header of an Ed25519 private key (PKCS#8) before its raw 32-byte seed.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The signer of an Ed25519 private key: libsodium when available, else node:crypto. */
export function ed25519Signer(privateKey: KeyObject, lib: Sodium | null = sodium()): Sign {
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  if (lib === null || der.length !== 48 || !der.subarray(0, 16).equals(PKCS8_PREFIX))
    return opensslSigner(privateKey);
  const seed = der.subarray(PKCS8_PREFIX.length);
  const publicKey = Buffer.alloc(lib.crypto_sign_PUBLICKEYBYTES);
  const secretKey = Buffer.alloc(lib.crypto_sign_SECRETKEYBYTES);
  lib.crypto_sign_seed_keypair(publicKey, secretKey, seed);
  seed.fill(0);
  return (message) => {
    const signature = Buffer.alloc(lib.crypto_sign_BYTES);
    lib.crypto_sign_detached(signature, message, secretKey);
    return signature;
  };
}

/** node:crypto's signer alone (the fallback; also what the tests compare libsodium with). */
export function opensslSigner(privateKey: KeyObject): Sign {
  return (message) => sign(null, message, privateKey);
}
