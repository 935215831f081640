/**
 * Soak benchmark (issue 10), the long form of test/soak: 60 venues x 20 symbols x 10 updates/s
 * (12,000 book records a simulated second) through the embedded log with retention on, in
 * compressed time: SOAK_MINUTES simulated minutes (default 60) as fast as the machine writes them.
 * Reports the worst partition size against its bound, RSS over the run, and whether every book
 * rebuilt after a restart equals an independent in-memory fold of every record generated.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BookCache, type OrderBook } from '@app/books';
import type { EventRecord } from '@app/events';
import { createBookFeed } from '@app/live-feed';
import { logHorizon } from '@app/history';
import { EmbeddedLog, partitionBytes } from '@app/event-log';
import { runSoak, SYNTH_EPOCH, type SoakSpec } from '@app/synth';
import { quantile, type BenchRow } from './bench-row';

const MIB = 1024 * 1024;
const PARTITIONS = 8;
const SEGMENT = 8 * MIB;
/** 10 simulated minutes or 64 MiB per partition, whichever binds first (it is the size at this rate). */
const RETENTION = { maxAgeMs: 10 * 60_000, maxBytes: 64 * MIB };
const QUIET = { log: () => undefined, warn: () => undefined, error: (m: string) => console.error(m) };

function fingerprint(b: OrderBook | undefined): string {
  if (b === undefined) return 'none';
  const side = (s: OrderBook['bids']): number[] => {
    const out: number[] = [];
    for (let i = 0; i < s.count; i++) out.push(s.price(i), s.amount(i));
    return out;
  };
  return JSON.stringify([b.sequence, b.receivedAt, b.inSync, side(b.bids), side(b.asks)]);
}

export async function benchSoak(): Promise<BenchRow[]> {
  const minutes = Number(process.env.SOAK_MINUTES ?? 60);
  const spec: SoakSpec = {
    venues: 60,
    symbolsPerVenue: 20,
    updatesPerSec: 10,
    durationMs: minutes * 60_000,
    snapshotEveryMs: 30_000,
    passEveryMs: 60_000,
    startAt: SYNTH_EPOCH,
    levels: 4,
  };
  const dir = mkdtempSync(join(tmpdir(), 'bench-soak-'));
  const open = (): EmbeddedLog =>
    new EmbeddedLog({
      dataDir: dir,
      partitions: { books: PARTITIONS },
      segmentBytes: SEGMENT,
      retention: { policy: RETENTION, checkEveryMs: 86_400_000 },
    });
  const rows: BenchRow[] = [];
  const row = (metric: string, value: number, unit: string): void => {
    rows.push({ scenario: 'soak', metric, value, unit });
  };
  try {
    const log = open();
    const truth = new BookCache();
    const parts = Array.from({ length: PARTITIONS }, (_, p) => join(dir, 'books', String(p)));
    const t0 = performance.now();
    const passMs: number[] = [];
    const timed = {
      append: log.append.bind(log),
      applyRetention: (now: number) => {
        const s = performance.now();
        const r = log.applyRetention(now);
        passMs.push(performance.now() - s);
        return r;
      },
    };
    const { records, samples } = await runSoak(
      timed,
      spec,
      () => parts.map((p) => partitionBytes(p)),
      (r: EventRecord) => void truth.apply(r),
    );
    const wall = performance.now() - t0;
    const horizon = await logHorizon(log);
    await log.close();
    const worst = Math.max(...samples.flatMap((s) => s.bytes));
    const rss = samples.map((s) => s.rssBytes);
    const tenth = Math.max(1, Math.floor(rss.length / 10));
    row('simulated minutes', minutes, 'min');
    row('book records written', records, 'records');
    row('write + retention rate', records / (wall / 1000), 'records/s');
    row('worst partition size', worst / MIB, 'MiB');
    row('partition bound (bytes + 2 segments)', (RETENTION.maxBytes + 2 * SEGMENT) / MIB, 'MiB');
    row(
      'retained history at the end',
      (spec.startAt + spec.durationMs - (horizon.at ?? spec.startAt)) / 1000,
      's',
    );
    row('retention pass (8 partitions) p50', quantile(passMs, 0.5), 'ms');
    row('retention pass (8 partitions) p100', Math.max(...passMs), 'ms');
    row('RSS, max of first 10% of passes', Math.max(...rss.slice(0, tenth)) / MIB, 'MiB');
    row('RSS, max of last 10% of passes', Math.max(...rss.slice(-tenth)) / MIB, 'MiB');

    const again = open();
    const r0 = performance.now();
    const feed = createBookFeed({ log: again, logger: QUIET });
    await feed.start();
    const want = truth.allBooks();
    let same = 0;
    for (let tries = 0; tries < 600 && same < want.length; tries++) {
      same = 0;
      for (const b of want)
        if (fingerprint(feed.cache.book(b.exchangeId, b.symbol)) === fingerprint(b)) same++;
      if (same < want.length) await new Promise((r) => setTimeout(r, 100));
    }
    row('rebuild after restart', performance.now() - r0, 'ms');
    row('books identical to the independent fold', same, `of ${want.length}`);
    await feed.stop();
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
