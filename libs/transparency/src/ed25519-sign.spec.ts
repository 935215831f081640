import { generateKeyPairSync, randomBytes, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ed25519Signer, opensslSigner, sodium } from './ed25519-sign';

describe('Ed25519 signing: libsodium and node:crypto give the same signatures', () => {
  it('loads libsodium on this platform (else every receipt pays node:crypto’s slower signature)', () => {
    expect(sodium()).not.toBeNull();
  });

  it('signs byte for byte as node:crypto does, for keys and messages of every shape', () => {
    for (let i = 0; i < 200; i++) {
      const { privateKey, publicKey } = generateKeyPairSync('ed25519');
      const message = randomBytes(i % 7 === 0 ? 0 : 1 + ((i * 37) % 600));
      const fast = ed25519Signer(privateKey)(message);
      expect(fast.equals(opensslSigner(privateKey)(message))).toBe(true);
      expect(verify(null, message, publicKey, fast)).toBe(true);
      // Another message under the same key is another signature.
      expect(ed25519Signer(privateKey)(Buffer.concat([message, Buffer.from([1])])).equals(fast)).toBe(false);
    }
  });

  it('falls back to node:crypto when the addon is absent', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const message = Buffer.from('route-service receipt v1\n');
    const signature = ed25519Signer(privateKey, null)(message);
    expect(verify(null, message, publicKey, signature)).toBe(true);
  });
});
