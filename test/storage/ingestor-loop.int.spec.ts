import { afterAll, describe, expect, it } from 'vitest';
import { newestReceivedAt } from '@app/recordings';
import { openEventLog } from '@app/event-log';
import { tempDir, waitFor } from '@test/support';
import { startApp, type App } from './support/processes';

// The ingestor alone, replaying the synthetic recording in a loop (docker-compose.yml's ingestor):
// its books are stamped from now on, not on the recording's day, so an API in another process on
// the wall clock quotes them fresh; a stop on SIGTERM ends with its 'stopped' line.
const dir = tempDir('ingestor-loop');
let app: App | undefined;
afterAll(() => {
  if (app?.alive()) app.child.kill('SIGKILL');
  dir.remove();
});

describe('ingestor --replay --loop', () => {
  it('writes the first pass time-shifted to now, and stops cleanly on SIGTERM', async () => {
    const startedAt = Date.now();
    app = startApp('apps/ingestor/src/main.js', ['--replay', 'replay-data/', '--speed', '1', '--loop'], {
      DATA_DIR: dir.path,
      LOG_FORMAT: 'json',
    });
    await app.waitFor(/"message":"replaying: pass 1"/);
    const log = openEventLog({ kafkaBrokers: null, dataDir: dir.path });
    try {
      let newest: number | null = null;
      await waitFor(
        'records in the log',
        async () => (newest = await newestReceivedAt(log)) !== null,
        30_000,
      );
      // The recording is of 2026-08 (replay-data/README.md); these records are of this run.
      expect(newest).toBeGreaterThanOrEqual(startedAt);
      expect(newest).toBeLessThanOrEqual(Date.now() + 5_000);
    } finally {
      await log.close();
    }
    app.child.kill('SIGTERM');
    expect(await app.exited).toEqual({ code: 0, signal: null });
    await app.waitFor(/"message":"stopped"/, 1_000);
  }, 60_000);
});
