import type { BookRecord, EventRecord } from '@app/events';
import type { AppendEntry } from '@app/event-log';
import { bookRecords, listingRecords, toEntries } from './record-stream';

/** A long run of book updates through a log with retention, in simulated (compressed) time. */
export interface SoakSpec {
  readonly venues: number;
  readonly symbolsPerVenue: number;
  /** Updates per second per book. */
  readonly updatesPerSec: number;
  /** Simulated length of the run. */
  readonly durationMs: number;
  /** A book writes a full snapshot about this often (every updatesPerSec x this / 1000 of its records). */
  readonly snapshotEveryMs: number;
  /** A retention pass (and a sample) every this much simulated time. */
  readonly passEveryMs: number;
  readonly startAt: number;
  readonly levels?: number;
  readonly seed?: number;
}

/** What the soak needs of the log: appends and a retention pass judged at a given instant. */
export interface SoakLog {
  append(topic: 'books' | 'venues', entries: readonly AppendEntry[]): Promise<void>;
  applyRetention(now: number): readonly unknown[];
}

/** One measurement after a retention pass. */
export interface SoakSample {
  /** Simulated time of the pass. */
  readonly at: number;
  /** What `measure` returned (e.g. bytes on disk per partition). */
  readonly bytes: number[];
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
}

/** Simulated time per append batch: a batch is what an ingestor writes in about this long. */
const BATCH_MS = 100;

/**
 * Run the soak: listings first, then every book record in receipt order (receivedAt from the
 * simulated clock), appended in 100 ms batches, a retention pass every `passEveryMs`. `onRecord`
 * sees each record just before it is appended (an independent fold keeps its own books from it).
 */
export async function runSoak(
  log: SoakLog,
  spec: SoakSpec,
  measure: () => number[],
  onRecord?: (r: EventRecord) => void,
): Promise<{ records: number; samples: SoakSample[] }> {
  const rate = spec.venues * spec.symbolsPerVenue * spec.updatesPerSec;
  const total = Math.floor((rate * spec.durationMs) / 1000);
  const stream = {
    venues: spec.venues,
    symbolsPerVenue: spec.symbolsPerVenue,
    bookRecords: total,
    levels: spec.levels ?? 4,
    snapshotEvery: Math.max(1, Math.round((spec.updatesPerSec * spec.snapshotEveryMs) / 1000)),
    startAt: spec.startAt,
    seed: spec.seed ?? 7,
  };
  const listings = listingRecords(stream);
  for (const r of listings) onRecord?.(r);
  await log.append('venues', toEntries(listings));
  const samples: SoakSample[] = [];
  let batch: BookRecord[] = [];
  let batchEnd = spec.startAt + BATCH_MS;
  let nextPass = spec.startAt + spec.passEveryMs;
  let i = 0;
  const flush = async (now: number): Promise<void> => {
    if (batch.length > 0) await log.append('books', toEntries(batch));
    batch = [];
    if (now < nextPass) return;
    nextPass += spec.passEveryMs;
    log.applyRetention(now);
    const m = process.memoryUsage();
    samples.push({ at: now, bytes: measure(), rssBytes: m.rss, heapUsedBytes: m.heapUsed });
  };
  for (const generated of bookRecords(stream)) {
    const record: BookRecord = { ...generated, receivedAt: spec.startAt + Math.floor((i * 1000) / rate) };
    i++;
    while (record.receivedAt >= batchEnd) {
      await flush(batchEnd);
      batchEnd += BATCH_MS;
    }
    onRecord?.(record);
    batch.push(record);
  }
  await flush(Math.max(batchEnd, nextPass));
  return { records: total, samples };
}
