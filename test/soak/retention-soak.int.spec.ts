import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BookCache, type OrderBook } from '@app/books';
import type { EventRecord } from '@app/events';
import { createBookFeed } from '@app/live-feed';
import { booksAt, logHorizon, rebuildBooks } from '@app/history';
import { EmbeddedLog, partitionBytes } from '@app/event-log';
import { runSoak, type SoakSpec } from '@app/synth';
import { T0, tempDir, waitFor } from '@test/support';

/**
 * The short soak (issue 10): 60 venues x 20 symbols x 10 updates/s through the embedded log with
 * retention on, in compressed time (the records' receivedAt and the retention passes follow a
 * simulated clock). The long form is `npm run bench -- soak`.
 */
const SPEC: SoakSpec = {
  venues: 60,
  symbolsPerVenue: 20,
  updatesPerSec: 10,
  durationMs: 75_000,
  snapshotEveryMs: 5_000,
  passEveryMs: 5_000,
  startAt: T0,
  levels: 3,
};
const MIB = 1024 * 1024;
const SEGMENT = MIB;
const RETENTION = { maxAgeMs: 20_000, maxBytes: 8 * MIB };
const PARTITIONS = 8;
/** What a partition may hold at most: the byte bound, the active segment, and the segment being filled when a pass ran. */
const DISK_BOUND = RETENTION.maxBytes + 2 * SEGMENT;

const silent = { log: () => undefined, warn: () => undefined, error: () => undefined };

/** A book's whole state as comparable data. */
function fingerprint(b: OrderBook | undefined): unknown {
  if (b === undefined) return null;
  const side = (s: OrderBook['bids']): number[] => {
    const out: number[] = [];
    for (let i = 0; i < s.count; i++) out.push(s.price(i), s.amount(i));
    return out;
  };
  return { seq: b.sequence, at: b.receivedAt, inSync: b.inSync, bids: side(b.bids), asks: side(b.asks) };
}

function fingerprints(cache: BookCache): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const b of cache.allBooks()) out.set(`${b.exchangeId}|${b.symbol}`, fingerprint(b));
  return out;
}

const dir = tempDir('soak');
afterAll(() => dir.remove());

describe('retention soak (compressed time)', () => {
  it('keeps disk under the bound and RSS flat; every book rebuilds identically; asOf before the horizon is refused', async () => {
    const open = (): EmbeddedLog =>
      new EmbeddedLog({
        dataDir: dir.path,
        partitions: { books: PARTITIONS },
        fsync: 'never',
        segmentBytes: SEGMENT,
        retention: { policy: RETENTION, checkEveryMs: 3_600_000 },
      });
    const log = open();
    // The independent fold: every record generated, applied in memory, never read from the log.
    const truth = new BookCache();
    const checkAt = SPEC.startAt + SPEC.durationMs - 8_000;
    let atCheck: Map<string, unknown> | null = null;
    const onRecord = (r: EventRecord): void => {
      if (atCheck === null && r.receivedAt > checkAt) atCheck = fingerprints(truth);
      truth.apply(r);
    };
    const parts = Array.from({ length: PARTITIONS }, (_, p) => join(dir.path, 'books', String(p)));
    const { records, samples } = await runSoak(
      log,
      SPEC,
      () => parts.map((p) => partitionBytes(p)),
      onRecord,
    );
    expect(records).toBe(60 * 20 * 10 * 75);

    // Disk: under the bound after every pass, and retention really removed data.
    const worst = Math.max(...samples.flatMap((s) => s.bytes));
    expect(worst).toBeLessThanOrEqual(DISK_BOUND);
    const horizon = await logHorizon(log);
    expect(horizon.retainedFrom.books.every((o) => o > 0)).toBe(true);
    expect(horizon.at).not.toBeNull();
    // RSS roughly flat: the second half of the run never needs much more than the first.
    const half = Math.floor(samples.length / 2);
    const firstMax = Math.max(...samples.slice(1, half).map((s) => s.rssBytes));
    const secondMax = Math.max(...samples.slice(half).map((s) => s.rssBytes));
    expect(secondMax).toBeLessThan(firstMax * 1.25 + 64 * MIB);
    console.log(
      `soak: ${records} records, worst partition ${(worst / MIB).toFixed(2)} MiB (bound ${DISK_BOUND / MIB} MiB), RSS first half max ${(firstMax / MIB).toFixed(0)} MiB, second half max ${(secondMax / MIB).toFixed(0)} MiB, horizon ${horizon.at! - SPEC.startAt} ms into the run`,
    );
    await log.close();

    // Restart: a fresh log and feed rebuild every book exactly as the independent fold has it.
    const again = open();
    const feed = createBookFeed({ log: again, logger: silent });
    await feed.start();
    const want = fingerprints(truth);
    expect(want.size).toBe(60 * 20);
    const same = (): number => {
      const got = fingerprints(feed.cache);
      let n = 0;
      for (const [k, v] of want) if (JSON.stringify(got.get(k)) === JSON.stringify(v)) n++;
      return n;
    };
    // Caught up means every book equal; a book that differs for good fails here with a timeout.
    await waitFor('the feed to rebuild every book', () => same() === want.size, 30_000).catch(
      () => undefined,
    );
    expect(same()).toBe(want.size);
    await feed.stop();

    // asOf after the horizon: the books of an instant equal the independent fold's at that instant.
    const upTo = { books: await again.highWatermarks('books'), venues: await again.highWatermarks('venues') };
    const symbols = new Set(['BTC/USDT', 'ETH/USDT']);
    const at = await booksAt(again, upTo, checkAt, Infinity, symbols);
    expect(at.ok).toBe(true);
    if (!at.ok) return;
    const { cache } = at;
    let compared = 0;
    for (const [k, v] of atCheck!)
      if (symbols.has(k.split('|')[1]!)) {
        const [venue, symbol] = k.split('|') as [string, string];
        expect(fingerprint(cache.book(venue, symbol))).toEqual(v);
        compared++;
      }
    expect(compared).toBe(120);

    // asOf before the horizon: refused, naming it.
    const refused = await booksAt(again, upTo, horizon.at! - 1, Infinity, symbols);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toContain(`retention horizon ${horizon.at}`);
    const below = { books: horizon.retainedFrom.books.map((o) => o - 1), venues: upTo.venues };
    await expect(rebuildBooks(again, below, symbols)).rejects.toThrow(`retention horizon ${horizon.at}`);
    await again.close();
  }, 120_000);
});
