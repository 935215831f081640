import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventRecord } from '@app/events';
import { bookRecords, listingRecords } from '@test/support';
import { call } from '../api/support/http';
import { flipByte } from './support/disk';
import { SPEC, writeFixture } from './support/fixture';
import { startApp, type App } from './support/processes';
import { canMount } from './support/small-disk';

// Issue 15, the service as an operator runs it: the built API on damaged data says so (or
// refuses to start, naming the file) and never hangs; the combined process outlives a full disk.
const apps: App[] = [];
const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const a of apps) if (a.alive()) a.child.kill('SIGKILL');
  for (const c of cleanups.reverse()) c();
});

/**
 * The clock pinned at the fixture's newest record, so its books are fresh and /health judges the
 * log's damage (`degraded`) rather than the age of the data (`no_fresh_books`).
 */
const FIXTURE_NOW = Math.max(...[...bookRecords(SPEC)].map((r) => r.receivedAt));

async function api(dataDir: string): Promise<{ app: App; url: string }> {
  const app = startApp(
    'apps/api/src/main.js',
    ['--port', '0', '--host', '127.0.0.1', '--now', String(FIXTURE_NOW)],
    {
      DATA_DIR: dataDir,
      RATE_LIMIT_RPS: '1000000',
    },
  );
  apps.push(app);
  const m = await app.waitFor(/"message":"listening","port":(\d+)/, 30_000);
  return { app, url: `http://127.0.0.1:${m[1]}` };
}

async function fixture(): Promise<Awaited<ReturnType<typeof writeFixture>>> {
  const f = await writeFixture('storage-api-');
  cleanups.push(() => rmSync(f.dir, { recursive: true, force: true }));
  return f;
}

describe('the API process on damaged data', () => {
  it('a damaged venues record: it starts, skips exactly that entry, and /health and /exchanges/status say so', async () => {
    const { dir, frames } = await fixture();
    const victim = frames['venues/1']![2]!;
    flipByte(victim.file, victim.position + 20);
    const { app, url } = await api(dir);
    expect((await call(url, '/health')).body.status).toBe('degraded');
    const status = (await call(url, '/exchanges/status')).body as {
      log: {
        status: string;
        damagedEntries: number;
        damage: { topic: string; partition: number; fromOffset: number; file: string; position: number }[];
      };
    };
    expect(status.log).toMatchObject({ status: 'degraded', damagedEntries: 1 });
    expect(status.log.damage).toEqual([
      expect.objectContaining({
        topic: 'venues',
        partition: 1,
        fromOffset: victim.offset,
        // The segment's name only: a public answer does not reveal the server's paths.
        file: basename(victim.file),
        position: victim.position,
      }),
    ]);
    expect(app.stderr()).toContain(`event log damage in venues/1`);
    app.child.kill('SIGTERM');
    expect((await app.exited).code).toBe(0);
  });

  it('a topic.json that disagrees with the data: it refuses to start, naming the file, within seconds', async () => {
    const { dir } = await fixture();
    writeFileSync(join(dir, 'books', 'topic.json'), '{"partitions": 8}\n');
    const app = startApp('apps/api/src/main.js', ['--port', '0', '--host', '127.0.0.1'], { DATA_DIR: dir });
    apps.push(app);
    const exit = await Promise.race([app.exited, new Promise((r) => setTimeout(() => r('hung'), 20_000))]);
    expect(exit).toEqual({ code: 1, signal: null });
    expect(app.stderr()).toContain(`${join(dir, 'books', 'topic.json')} says 8 partitions but`);
  });

  it('a stray segment file: it starts (no hang), serves every book, and says degraded', async () => {
    const { dir } = await fixture();
    writeFileSync(join(dir, 'books', '0', '00000000000000099999.log'), Buffer.alloc(4096, 7));
    const { app, url } = await api(dir);
    expect((await call(url, '/health')).body.status).toBe('degraded');
    expect(
      ((await call(url, '/exchanges/status')).body as { log: { problems: string[] } }).log.problems[0],
    ).toContain('00000000000000099999.log is named like a segment');
    app.child.kill('SIGTERM');
    expect((await app.exited).code).toBe(0);
  });
});

describe.runIf(canMount())('the combined process (npm start) on a full tmpfs', () => {
  it('stays up while the disk is full, resumes the replay when space is back, and exits cleanly', async () => {
    const mnt = mkdtempSync(join(tmpdir(), 'storage-start-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', mnt]);
    cleanups.push(() => {
      execFileSync('umount', ['-l', mnt]);
      rmSync(mnt, { recursive: true, force: true });
    });
    const src = mkdtempSync(join(tmpdir(), 'storage-start-src-'));
    cleanups.push(() => rmSync(src, { recursive: true, force: true }));
    const spec = { ...SPEC, bookRecords: 16_000, stepMs: 1 };
    const records: EventRecord[] = [...listingRecords(spec), ...bookRecords(spec)];
    const file = join(src, 'recording.jsonl');
    writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const app = startApp(
      'apps/api/src/start.js',
      ['--replay', file, '--speed', '20', '--port', '0', '--host', '127.0.0.1'],
      {
        DATA_DIR: join(mnt, 'data'),
        RATE_LIMIT_RPS: '1000000',
      },
    );
    apps.push(app);
    const m = await app.waitFor(/"message":"listening","port":(\d+)/, 30_000);
    const url = `http://127.0.0.1:${m[1]}`;
    await app.waitFor(/log write failed; the replay waits and retries/, 60_000);
    // Full: still answering.
    for (let i = 0; i < 5; i++) {
      expect((await call(url, '/health')).status).toBe(200);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(app.alive()).toBe(true);
    execFileSync('mount', ['-o', 'remount,size=64m', mnt]);
    await app.waitFor(/"message":"replay finished"/, 120_000);
    expect(/"message":"replay finished".*"records":(\d+)/.exec(app.stdout())?.[1]).toBe(
      String(records.length),
    );
    app.child.kill('SIGTERM');
    expect((await app.exited).code).toBe(0);
  });
});
