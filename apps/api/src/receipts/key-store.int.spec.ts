import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  leafHash,
  parseKeysDocument,
  pemFromSeed,
  signReceipt,
  verifyReceiptSignatures,
} from '@app/transparency';
import { loadReceiptKeys, type KeyStoreLogger } from './key-store';

const ORIGIN = 'route-service/a';
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'receipt-keys-'));
  dirs.push(d);
  return d;
};
const recorder = () => {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const logger: KeyStoreLogger = {
    info: (message, fields) => lines.push({ level: 'info', message, ...(fields && { fields }) }),
    warn: (message, fields) => lines.push({ level: 'warn', message, ...(fields && { fields }) }),
  };
  return { lines, logger };
};
const keyFile = (dir: string, seed: number): string => {
  const file = join(dir, `k${seed}.pem`);
  writeFileSync(file, pemFromSeed(Buffer.alloc(32, seed)));
  return file;
};
const trusted = (published: unknown) => {
  const parsed = parseKeysDocument({ keys: published });
  if (!parsed.ok) throw new Error(parsed.error.detail);
  return parsed.value;
};
const receiptAt = (key: Parameters<typeof signReceipt>[1], calculatedAt: number) =>
  signReceipt(
    {
      requestId: `q-${calculatedAt}`,
      response: Buffer.from('body'),
      calculatedAt,
      recordHash: leafHash(Buffer.from('record')),
      leafIndex: null,
    },
    key,
  );

describe('receipt keys', () => {
  it('without RECEIPT_KEY_FILE: creates a 0600 key under DATA_DIR once, warns, logs only the public key', () => {
    const dataDir = tmp();
    const { lines, logger } = recorder();
    const first = loadReceiptKeys({ origin: ORIGIN, keyFile: null, dataDir, now: 1000, logger });
    const file = join(dataDir, 'receipts', 'a.pem');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const pem = readFileSync(file, 'utf8');
    expect(lines.some((l) => l.level === 'warn' && /proves nothing/.test(l.message))).toBe(true);
    const logged = JSON.stringify(lines);
    expect(logged).not.toContain('PRIVATE KEY');
    expect(logged).not.toContain(pem.split('\n')[1]!);
    expect(logged).toContain(Buffer.from(first.key.publicKey).toString('base64'));
    expect(first.published).toEqual([
      expect.objectContaining({ origin: ORIGIN, notBefore: 0, notAfter: null }),
    ]);

    const again = loadReceiptKeys({ origin: ORIGIN, keyFile: null, dataDir, now: 5000, logger });
    expect(again.key.keyId).toBe(first.key.keyId);
    expect(again.published).toEqual(first.published);
  });

  it('with RECEIPT_KEY_FILE: no warning; a new key rotates the old one out and keeps it listed', () => {
    const dataDir = tmp();
    const { lines, logger } = recorder();
    const a = loadReceiptKeys({ origin: ORIGIN, keyFile: keyFile(dataDir, 1), dataDir, now: 1000, logger });
    expect(lines.filter((l) => l.level === 'warn')).toEqual([]);
    const b = loadReceiptKeys({ origin: ORIGIN, keyFile: keyFile(dataDir, 2), dataDir, now: 9000, logger });
    expect(b.published.map((k) => [k.keyId, k.notBefore, k.notAfter])).toEqual([
      [a.published[0]!.keyId, 0, 9000],
      [b.published[1]!.keyId, 9000, null],
    ]);
    const keys = trusted(b.published);
    // The old key still vouches for what it signed while current, and for nothing after.
    expect(verifyReceiptSignatures(receiptAt(a.key, 500), keys)).toEqual({ ok: true });
    expect(verifyReceiptSignatures(receiptAt(a.key, 9000), keys)).toMatchObject({ failure: 'unknown_key' });
    expect(verifyReceiptSignatures(receiptAt(b.key, 9000), keys)).toEqual({ ok: true });
    // The history is what a restart serves.
    const restarted = loadReceiptKeys({
      origin: ORIGIN,
      keyFile: keyFile(dataDir, 2),
      dataDir,
      now: 20000,
      logger,
    });
    expect(restarted.published).toEqual(b.published);
  });

  it('refuses to go back to a retired key, and a history of another origin', () => {
    const dataDir = tmp();
    const { logger } = recorder();
    loadReceiptKeys({ origin: ORIGIN, keyFile: keyFile(dataDir, 1), dataDir, now: 1000, logger });
    loadReceiptKeys({ origin: ORIGIN, keyFile: keyFile(dataDir, 2), dataDir, now: 2000, logger });
    expect(() =>
      loadReceiptKeys({ origin: ORIGIN, keyFile: keyFile(dataDir, 1), dataDir, now: 3000, logger }),
    ).toThrow(/retired/);
    writeFileSync(
      join(dataDir, 'receipts', 'b.keys.json'),
      readFileSync(join(dataDir, 'receipts', 'a.keys.json')),
    );
    expect(() =>
      loadReceiptKeys({
        origin: 'route-service/b',
        keyFile: keyFile(dataDir, 3),
        dataDir,
        now: 3000,
        logger,
      }),
    ).toThrow(/another origin/);
  });
});
