import { afterAll, describe, expect, it } from 'vitest';
import { findQuote, replayQuote } from '@app/audit';
import type { EventRecord } from '@app/events';
import { createBookFeed } from '@app/live-feed';
import { EmbeddedLog, LogError, logSink } from '@app/event-log';
import { RecordWriter } from '@app/venues';
import { bookRecords, listingRecords } from '@test/support';
import { startApiServer } from '../../apps/api/src/bootstrap';
import { waitCaughtUp, type ApiHost } from '../../apps/api/src/compose';
import { bookHashes, foldRecords, memoryLogger, waitFor } from '../kafka/book-hashes';
import { MemoryLogger } from '../venues/ingest-harness';
import { SCENARIO_CONFIG, StepClock, scenarioRecords } from '../replay/support/journal-scenario';
import { rawFrames } from './support/disk';
import { SPEC } from './support/fixture';
import { smallDisks, type SmallDisk } from './support/small-disk';

// Issue 15: a full filesystem (a small tmpfs where this machine may mount one, and always the
// log's fault-injecting file layer, so the suite never skips), then space freed.
const disks: SmallDisk[] = [];
afterAll(() => {
  for (const d of disks) d.dispose();
});
function disk(make: () => SmallDisk): SmallDisk {
  const d = make();
  disks.push(d);
  return d;
}

describe.each(smallDisks(24 * 1024 * 1024).map((d) => [d.kind, d.make] as const))(
  'full disk (%s)',
  (_kind, make) => {
    it('the ingestor writer holds its records while the disk is full and writes each exactly once when space is back', async () => {
      const d = disk(make);
      const log = new EmbeddedLog({
        dataDir: d.dir,
        files: d.files,
        partitions: { books: 4, venues: 2 },
        onProblem: () => undefined,
      });
      const logger = new MemoryLogger();
      let recovered = 0;
      const writer = new RecordWriter({
        sink: logSink(log),
        logger,
        budgetBytes: 64 * 1024 * 1024,
        backoff: { initialMs: 10, maxMs: 50 },
        onLost: () => undefined,
        onRecovered: () => recovered++,
      });
      const records: EventRecord[] = [...listingRecords(SPEC), ...bookRecords(SPEC)];
      const third = Math.floor(records.length / 3);
      writer.push(records.slice(0, third));
      await waitFor('first third written', () => writer.queued === 0);
      d.fill();
      for (let i = third; i < 2 * third; i += 100) {
        writer.push(records.slice(i, Math.min(i + 100, 2 * third)));
        await new Promise((r) => setTimeout(r, 2));
      }
      await waitFor('a refused write', () => writer.stats.failures > 0);
      expect(
        logger.lines.some(
          (l) =>
            l.message === 'log writes failing; holding records and retrying' && l.fields?.code === 'no_space',
        ),
      ).toBe(true);
      d.free();
      writer.push(records.slice(2 * third));
      await waitFor('everything written', () => writer.queued === 0, 30_000);
      await writer.close();
      expect(recovered).toBe(1);
      expect(writer.stats.dropped).toBe(0);
      // The log holds every record once, in order: per partition contiguous offsets, per book contiguous sequences.
      const frames = [0, 1, 2, 3].flatMap((p) => rawFrames(`${d.dir}/books/${p}`));
      for (let p = 0; p < 4; p++) {
        const part = rawFrames(`${d.dir}/books/${p}`);
        expect(part.map((f) => f.offset)).toEqual(part.map((_, i) => i));
      }
      expect(frames.length).toBe(records.filter((r) => r.type === 'book').length);
      const feed = createBookFeed({ log, logger: memoryLogger(), fromSnapshots: false });
      await feed.start();
      expect(bookHashes(feed.cache)).toEqual(bookHashes(foldRecords(records)));
      expect(log.health().damagedEntries).toBe(0);
      await feed.stop();
      await log.close();
    });

    for (const strict of [true, false])
      it(`the quote journal (${strict ? 'strict' : 'batched'}): every quote answered 200 can be replayed`, async () => {
        const d = disk(make);
        const log = new EmbeddedLog({ dataDir: d.dir, files: d.files, onProblem: () => undefined });
        const world = scenarioRecords(8_000);
        await logSink(log).write(world);
        const feed = createBookFeed({ log, logger: memoryLogger() });
        await feed.start();
        const host: ApiHost = { log, feed, server: null };
        await waitCaughtUp(host);
        const clock = new StepClock(world[world.length - 1]!.receivedAt + 100);
        const server = await startApiServer({
          config: { ...SCENARIO_CONFIG, journalStrict: strict },
          feed,
          log,
          clock,
          logger: false,
        });
        host.server = server;
        const answers: { phase: string; status: number; id: string; body: string }[] = [];
        const quote = async (phase: string, i: number): Promise<void> => {
          const res = await fetch(
            `${server.url}/route?from=BTC&to=USDT&amountIn=${1 + i / 8}&strategy=split_optimal&bridges=USDC`,
          );
          answers.push({
            phase,
            status: res.status,
            id: res.headers.get('x-request-id')!,
            body: await res.text(),
          });
        };
        for (let i = 0; i < 15; i++) await quote('before', i);
        await server.journal.flush();
        d.fill();
        for (let i = 15; i < 45; i++) await quote('full', i);
        d.free();
        for (let i = 45; i < 60; i++) await quote('after', i);
        await host.server.close();
        await feed.stop();
        await log.close();

        const full = answers.filter((a) => a.phase === 'full');
        if (strict) {
          // Refused, not served: a 503 naming the cause, never a 200 that cannot be replayed.
          expect(full.some((a) => a.status === 503)).toBe(true);
          for (const a of full.filter((x) => x.status === 503))
            expect(JSON.parse(a.body)).toEqual({ error: 'quote journal unavailable: no_space' });
        } else {
          expect(full.every((a) => a.status === 200)).toBe(true);
        }
        expect(answers.filter((a) => a.phase === 'after').every((a) => a.status === 200)).toBe(true);
        const reader = new EmbeddedLog({ dataDir: d.dir, onProblem: () => undefined });
        try {
          for (const a of answers.filter((x) => x.status === 200)) {
            const found = await findQuote(reader, a.id);
            expect(found, `${a.phase} ${a.id}`).not.toBeNull();
            const replay = await replayQuote(reader, found!.record);
            expect(replay.identical, `${a.phase} ${a.id}`).toBe(true);
            expect(replay.body).toBe(a.body);
          }
          expect(reader.health().damagedEntries).toBe(0);
        } finally {
          await reader.close();
        }
      });
  },
);

describe('refusals are named', () => {
  it('an append over the size limit is refused as too_large before anything is written', async () => {
    const d = disk(smallDisks(1 << 20)[0]!.make);
    const log = new EmbeddedLog({ dataDir: d.dir, files: d.files, onProblem: () => undefined });
    const e = (await log
      .append('quotes', [{ key: 'a', value: 'x'.repeat(1_000_001) }])
      .catch((x: unknown) => x)) as LogError;
    expect(e).toBeInstanceOf(LogError);
    expect(e.code).toBe('too_large');
    expect(await log.highWatermarks('quotes')).toEqual([0, 0, 0, 0]);
    await log.close();
  });
});
