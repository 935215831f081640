import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FaultyFiles } from '../../test/faulty-files';
import { EmbeddedLog } from './embedded-log';

// EventLog.durable(): what a transparency checkpoint waits for before it covers appended entries
// (docs/audit.md "The log"). With fsync 'interval' the embedded log syncs there and then, on the
// thread pool; a failed sync is a rejection, so no checkpoint covers entries that may be lost.
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** FaultyFiles counting the background fdatasyncs it was asked for. */
class CountingFiles extends FaultyFiles {
  syncs = 0;
  override fdatasync(fd: number, callback: (err: NodeJS.ErrnoException | null) => void): void {
    this.syncs++;
    super.fdatasync(fd, callback);
  }
}

function open(files: CountingFiles): EmbeddedLog {
  const dataDir = mkdtempSync(join(tmpdir(), 'elog-durable-'));
  dirs.push(dataDir);
  // An interval long enough that only durable() syncs during the test.
  return new EmbeddedLog({ dataDir, files, fsync: 'interval', fsyncIntervalMs: 3_600_000 });
}

describe('EmbeddedLog.durable', () => {
  it('fdatasyncs every partition written since the last sync, and nothing when nothing was written', async () => {
    const files = new CountingFiles(Number.MAX_SAFE_INTEGER);
    const log = open(files);
    await log.append('quotes', [
      { key: 'a', value: '{"i":1}' },
      { key: 'b', value: '{"i":2}' },
      { key: 'c', value: '{"i":3}' },
    ]);
    const written = (await log.highWatermarks('quotes')).filter((h) => h > 0).length;
    await log.durable();
    expect(files.syncs).toBe(written);
    await log.durable();
    expect(files.syncs).toBe(written);
    await log.append('quotes', [{ key: 'a', value: '{"i":4}' }]);
    await log.durable();
    expect(files.syncs).toBe(written + 1);
    await log.close();
  });

  it('rejects when the sync fails: the entries may not be on disk', async () => {
    const files = new CountingFiles(Number.MAX_SAFE_INTEGER);
    const log = open(files);
    await log.append('quotes', [{ key: 'a', value: '{"i":1}' }]);
    files.failSyncs = true;
    await expect(log.durable()).rejects.toThrow(/fdatasync/);
    files.failSyncs = false;
    await log.close().catch(() => undefined);
  });
});
