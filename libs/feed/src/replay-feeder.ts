import type { ReplaySpeed } from '@app/config';
import type { EventRecord } from '@app/events';
import { LogError, type RecordSink } from '@app/log';
import { RecordingReader, replayFiles, type SkippedLine } from './replay-files';
import { sleep } from './sleep';

export interface ReplayOptions {
  /** A JSON Lines file or a directory of *.jsonl. */
  readonly path: string;
  readonly speed: ReplaySpeed;
  readonly sink: RecordSink;
  /** Told the receivedAt of every record once it is written (drives the replay clock). */
  readonly onFed: (receivedAt: number) => void;
  readonly onSkip: (skipped: SkippedLine) => void;
  readonly signal?: AbortSignal;
  /** Wall clock for pacing (ms); an argument so tests can drive it. */
  readonly wallNow?: () => number;
  /**
   * Told when a write fails: the batch is retried (0.2 s doubling to 5 s) until it goes in or
   * the feed is aborted, so a broker outage or a full disk pauses the replay instead of ending it.
   */
  readonly onWriteError?: (error: Error, attempt: number) => void;
  /** Told of a record the log refuses for good (too large): it is dropped and the replay goes on. */
  readonly onRefused?: (record: EventRecord, error: Error) => void;
}

export interface ReplaySummary {
  readonly records: number;
  readonly skipped: number;
  /** Records the log refused for good (too large). */
  readonly refused: number;
}

const MAX_BATCH = 1000;

/**
 * Feed recorded event records through a sink, paced by `speed`: 1 keeps the recorded gaps, n
 * plays n times faster, `max` writes as fast as the sink accepts. Records due at the same moment
 * are written as one batch.
 */
export async function feedReplay(options: ReplayOptions): Promise<ReplaySummary> {
  const wallNow = options.wallNow ?? (() => performance.now());
  let skipped = 0;
  const reader = new RecordingReader(replayFiles(options.path), (s) => {
    skipped++;
    options.onSkip(s);
  });
  let batch: EventRecord[] = [];
  let count = 0;
  let refused = 0;
  let origin: { wall: number; recorded: number } | null = null;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const written = batch;
    batch = [];
    const outcome = await writeAll(options, written);
    count += outcome.written;
    refused += outcome.refused;
    if (outcome.written > 0) options.onFed(written[written.length - 1]!.receivedAt);
  };
  try {
    for (let chunk = reader.take(MAX_BATCH); chunk.length > 0; chunk = reader.take(MAX_BATCH)) {
      for (const record of chunk) {
        if (options.signal?.aborted === true) return { records: count, skipped, refused };
        if (options.speed !== 'max') {
          origin ??= { wall: wallNow(), recorded: record.receivedAt };
          const dueIn = (record.receivedAt - origin.recorded) / options.speed - (wallNow() - origin.wall);
          if (dueIn > 0) {
            await flush();
            await sleep(dueIn, options.signal);
          }
        }
        batch.push(record);
        if (batch.length >= MAX_BATCH) await flush();
      }
    }
    await flush();
  } finally {
    reader.close();
  }
  return { records: count, skipped, refused };
}

/** Write `records`, retrying what the log did not take until it is in (or the feed is aborted). */
async function writeAll(
  options: ReplayOptions,
  records: readonly EventRecord[],
): Promise<{ written: number; refused: number }> {
  let rest = records;
  let written = 0;
  let refused = 0;
  for (let attempt = 0; rest.length > 0; attempt++) {
    try {
      await options.sink.write(rest);
      return { written: written + rest.length, refused };
    } catch (e) {
      const error = e instanceof Error ? e : new Error(String(e));
      const gone = new Set(e instanceof LogError ? [...e.appended, ...e.rejected] : []);
      if (e instanceof LogError) {
        written += e.appended.length;
        refused += e.rejected.length;
        for (const i of e.rejected) options.onRefused?.(rest[i]!, error);
      }
      rest = rest.filter((_, i) => !gone.has(i));
      if (e instanceof LogError && e.code === 'too_large') continue;
      options.onWriteError?.(error, attempt);
      if (aborted(options.signal)) break;
      await sleep(Math.min(5_000, 200 * 2 ** Math.min(attempt, 10)), options.signal);
      if (aborted(options.signal)) break;
    }
  }
  return { written, refused };
}

function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
