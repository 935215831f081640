import { statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseKeysDocument, pemFromSeed, publishKey, signingKeyFromSeed } from '@app/transparency';
import { tempDir } from '@test/support';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from './support/http';
import { startService, type ServiceProcess } from './support/service-process';

const RECORDING = join(resolve(__dirname, '../..'), 'replay-data');

// The receipt key as an operator meets it: made beside the log on first start (with the warning),
// listed at GET /keys, then replaced by RECEIPT_KEY_FILE while the old key stays listed.
describe('receipt keys of a running service', () => {
  const dir = tempDir('receipt-keys');
  const dataDir = join(dir.path, 'data');
  let svc: ServiceProcess | undefined;
  const start = (env: Record<string, string>) =>
    startService(['--replay', RECORDING, '--speed', 'max', '--port', '0', '--host', '127.0.0.1'], {
      DATA_DIR: dataDir,
      KAFKA_BROKERS: undefined,
      RATE_LIMIT_RPS: '1000',
      RECEIPT_ORIGIN_NAME: 'e2e',
      ...env,
    });

  afterAll(async () => {
    await svc?.stop();
    dir.remove();
  });

  it('first start: a 0600 key under DATA_DIR, a warning, the public key logged and listed', async () => {
    svc = await start({});
    const warned = svc.lines().find((l) => l.level === 'warn' && /proves nothing/.test(l.message));
    expect(warned).toBeDefined();
    expect(statSync(join(dataDir, 'receipts', 'e2e.pem')).mode & 0o777).toBe(0o600);
    // Beside the log, the key's line is the warning itself (one line at start either way).
    const logged = warned!;
    expect(JSON.stringify(svc.lines())).not.toContain('PRIVATE KEY');
    const r = await call(svc.url, '/keys');
    expect(r.status).toBe(200);
    const parsed = parseKeysDocument(r.body);
    expect(parsed.ok).toBe(true);
    expect(r.body).toEqual({
      keys: [
        {
          origin: 'route-service/e2e',
          keyId: logged.keyId,
          publicKey: logged.publicKey,
          notBefore: 0,
          notAfter: null,
        },
      ],
    });
    await svc.stop();
    svc = undefined;
  }, 90_000);

  it('RECEIPT_KEY_FILE: no warning, the new key current and the old one listed, rotated out', async () => {
    const file = join(dir.path, 'operator.pem');
    writeFileSync(file, pemFromSeed(Buffer.alloc(32, 7)), { mode: 0o600 });
    const before = Date.now();
    svc = await start({ RECEIPT_KEY_FILE: file });
    expect(svc.lines().filter((l) => l.level === 'warn' && /proves nothing/.test(l.message))).toEqual([]);
    const r = await call(svc.url, '/keys');
    const keys = (r.body as { keys: { keyId: string; notBefore: number; notAfter: number | null }[] }).keys;
    expect(keys).toHaveLength(2);
    const fresh = publishKey(signingKeyFromSeed('route-service/e2e', Buffer.alloc(32, 7)), 0, null);
    expect(keys[1]).toMatchObject({ keyId: fresh.keyId, publicKey: fresh.publicKey, notAfter: null });
    expect(keys[1]!.notBefore).toBeGreaterThanOrEqual(before);
    expect(keys[0]!.notAfter).toBe(keys[1]!.notBefore);
    expect(parseKeysDocument(r.body).ok).toBe(true);
  }, 90_000);
});
