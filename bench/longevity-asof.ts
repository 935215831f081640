/**
 * Longevity benchmark (issue 10), book log and asOf: one hour of book records in the embedded
 * log (synthetic stream: 50 venues x 6 books, 720,000 records, one every 5 ms, 10 levels, a
 * snapshot every 20 records of a book: one every 30 s, as the ingestor's default), its bytes on disk per record, then booksAt (the function
 * GET /route?asOf= and /orderbook?asOf= call) at 300 random instants of that hour for a
 * two-symbol route: the first call (which builds the time index by reading the log once) apart,
 * then p50 and p99, and what one call reads. Then (issue 21) the same after a day of the
 * ingestor's listing republish is appended to the venues topic, and the rebuild without asOf that
 * `replay quote` runs, before and after it.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventRecord } from '@app/events';
import { booksAt, rebuildBooks, timeIndexOf } from '@app/history';
import { EmbeddedLog, logSink } from '@app/event-log';
import { bookRecords, listingRecords, type StreamSpec } from '@app/synth';
import { quantile, type BenchRow } from './bench-row';
import { prng } from './market-gen';

type Row = (metric: string, value: number, unit: string) => void;
const HOUR = 3_600_000;

function dirBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true }))
    n += e.isDirectory() ? dirBytes(join(dir, e.name)) : statSync(join(dir, e.name)).size;
  return n;
}

export async function benchAsOfHour(row: Row): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-longevity-asof-'));
  const start = Date.now() - HOUR;
  const spec: StreamSpec = {
    venues: 50,
    symbolsPerVenue: 6,
    bookRecords: 720_000,
    levels: 10,
    snapshotEvery: 20,
    startAt: start,
    stepMs: 5,
  };
  const log = new EmbeddedLog({ dataDir });
  try {
    const sink = logSink(log);
    await sink.write(listingRecords(spec));
    let batch: EventRecord[] = [];
    let n = 0;
    for (const r of bookRecords(spec)) {
      batch.push(r);
      if (batch.length === 5000) {
        await sink.write(batch);
        n += batch.length;
        batch = [];
      }
    }
    await sink.write(batch);
    n += batch.length;
    row('book log 1 h: records', n, 'count');
    row('book log 1 h: disk bytes/book record', dirBytes(join(dataDir, 'books')) / n, 'B');
    const upTo = { books: await log.highWatermarks('books'), venues: await log.highWatermarks('venues') };
    const end = start + n * 5;
    const symbols = new Set(['BTC/USDT', 'ETH/USDT']);
    const rand = prng(17);
    const at = (): number => start + 1 + Math.floor(rand() * (end - start - 1));
    const t0 = performance.now();
    const first = await booksAt(log, upTo, at(), end, symbols);
    if (!first.ok) throw new Error(first.error);
    row('asOf on a 1 h log: first call (builds the time index)', performance.now() - t0, 'ms');
    const samples: number[] = [];
    for (let i = 0; i < 300; i++) {
      const t = performance.now();
      const r = await booksAt(log, upTo, at(), end, symbols);
      samples.push(performance.now() - t);
      if (!r.ok) throw new Error(r.error);
    }
    row('asOf on a 1 h log: p50', quantile(samples, 0.5), 'ms');
    row('asOf on a 1 h log: p99', quantile(samples, 0.99), 'ms');
    // What one call reads, a figure the machine's load does not move: book entries read from the
    // log and records folded, for 100 more instants (the rebuild booksAt runs).
    const read: number[] = [];
    const folded: number[] = [];
    for (let i = 0; i < 100; i++) {
      const { stats } = await rebuildBooks(log, upTo, symbols, { asOf: at(), timeIndex: timeIndexOf(log) });
      read.push(stats.bookEntriesRead);
      folded.push(stats.bookRecordsFolded);
    }
    row('asOf on a 1 h log: book entries read per call, p50', quantile(read, 0.5), 'count');
    row('asOf on a 1 h log: book entries read per call, p99', quantile(read, 0.99), 'count');
    row('asOf on a 1 h log: book records folded per call, p50', quantile(folded, 0.5), 'count');
    const plain: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await rebuildBooks(log, upTo, symbols);
      plain.push(performance.now() - t);
    }
    row('rebuild without asOf (replay quote): p50', quantile(plain, 0.5), 'ms');
    // A day of the ingestor's listing republish (every 10 min: 144 copies of the 350 market and
    // venue records), stamped across the hour: what asOf and replay pay for a grown venues topic.
    const listings = listingRecords(spec);
    const copies: EventRecord[] = [];
    for (let k = 0; k < 144; k++)
      for (const r of listings)
        copies.push({ ...r, receivedAt: start + Math.floor(((k + 0.5) * HOUR) / 144) });
    await sink.write(copies);
    row('venues topic after a day of republish: records', listings.length + copies.length, 'count');
    const grown = { books: upTo.books, venues: await log.highWatermarks('venues') };
    const withCopies: number[] = [];
    for (let i = 0; i < 100; i++) {
      const t = performance.now();
      const r = await booksAt(log, grown, at(), end, symbols);
      withCopies.push(performance.now() - t);
      if (!r.ok) throw new Error(r.error);
    }
    row('asOf, venues topic a day of republish: p50', quantile(withCopies, 0.5), 'ms');
    row('asOf, venues topic a day of republish: p99', quantile(withCopies, 0.99), 'ms');
    // replay quote of a live quote: the rebuild without asOf folds the venues topic whole.
    const replays: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await rebuildBooks(log, grown, symbols);
      replays.push(performance.now() - t);
    }
    row('rebuild without asOf (replay quote), venues a day of republish: p50', quantile(replays, 0.5), 'ms');
  } finally {
    await log.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `npm run bench -- longevity-asof`: the asOf part of `longevity` alone. */
export async function benchLongevityAsOf(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  await benchAsOfHour((metric, value, unit) => rows.push({ scenario: 'longevity', metric, value, unit }));
  return rows;
}
