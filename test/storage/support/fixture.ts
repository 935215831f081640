import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BookCache } from '@app/books';
import { parseRecordLine, type EventRecord } from '@app/events';
import { createBookFeed, type LogBookFeed } from '@app/live-feed';
import { EmbeddedLog, logSink, type EventLog, type LogHealth } from '@app/event-log';
import { bookRecords, listingRecords, type StreamSpec } from '@test/support';
import { memoryLogger } from '../../kafka/book-hashes';
import { rawFrames, type RawFrame } from './disk';

export const SPEC: StreamSpec = {
  venues: 4,
  symbolsPerVenue: 4,
  bookRecords: 3000,
  levels: 6,
  snapshotEvery: 60,
  startAt: 1_786_000_000_000,
};

/** Small segments and a dense index, so one partition has several of each to damage. */
export const LAYOUT = {
  partitions: { books: 4, venues: 2 },
  segmentBytes: 48 * 1024,
  indexIntervalBytes: 1024,
};

export interface Fixture {
  readonly dir: string;
  /** Everything acknowledged, per `topic/partition`, in offset order (read back independently). */
  readonly frames: Record<string, RawFrame[]>;
}

/** A data directory holding SPEC's records, written through logSink like the ingestor writes. */
export async function writeFixture(prefix: string): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const log = new EmbeddedLog({ dataDir: dir, ...LAYOUT, onProblem: () => undefined });
  const sink = logSink(log);
  await sink.write(listingRecords(SPEC));
  const books = [...bookRecords(SPEC)];
  for (let i = 0; i < books.length; i += 200) await sink.write(books.slice(i, i + 200));
  await log.close();
  return { dir, frames: readFrames(dir) };
}

/** The independent reading of every partition (books and venues). */
export function readFrames(dir: string): Record<string, RawFrame[]> {
  const out: Record<string, RawFrame[]> = {};
  for (const [topic, n] of Object.entries(LAYOUT.partitions))
    for (let p = 0; p < n; p++) out[`${topic}/${p}`] = rawFrames(join(dir, topic, String(p)));
  return out;
}

/** The fold of what was acknowledged minus what the damage destroyed (`lost`: `topic/p@offset`). */
export function expectedFold(
  frames: Record<string, RawFrame[]>,
  lost: ReadonlySet<string> = new Set(),
): BookCache {
  const cache = new BookCache();
  for (const topic of ['venues', 'books'])
    for (const [where, list] of Object.entries(frames)) {
      if (!where.startsWith(`${topic}/`)) continue;
      for (const f of list) {
        if (lost.has(`${where}@${f.offset}`)) continue;
        const parsed = parseRecordLine(f.value);
        if (!parsed.ok) throw parsed.error;
        cache.apply(parsed.record);
      }
    }
  return cache;
}

export interface Served {
  readonly feed: LogBookFeed;
  readonly log: EventLog;
  readonly lines: string[];
  readonly problems: string[];
  health(): LogHealth;
  close(): Promise<void>;
}

/**
 * Open the directory as the API does (a reader), fold it, and fail (never hang) if the feed has
 * not caught up within `timeoutMs`.
 */
export async function serve(dir: string, fromSnapshots = false, timeoutMs = 20_000): Promise<Served> {
  const problems: string[] = [];
  const log = new EmbeddedLog({ dataDir: dir, onProblem: (m) => problems.push(m) });
  const logger = memoryLogger();
  const feed = createBookFeed({ log, logger, fromSnapshots });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      feed.start(),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`feed did not catch up in ${timeoutMs} ms: ${logger.lines.join('\n')}`)),
          timeoutMs,
        );
      }),
    ]);
  } catch (e) {
    await feed.stop();
    await log.close();
    throw e;
  } finally {
    clearTimeout(timer);
  }
  return {
    feed,
    log,
    lines: logger.lines,
    problems,
    health: () => log.health(),
    close: async () => {
      await feed.stop();
      await log.close();
    },
  };
}

/** Records as the generator made them (to append more after the damage). */
export function moreBooks(from: number, count: number): EventRecord[] {
  return [...bookRecords({ ...SPEC, bookRecords: from + count })].slice(from);
}
