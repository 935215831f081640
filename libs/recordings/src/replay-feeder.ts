import type { ReplaySpeed } from '@app/config';
import type { EventRecord } from '@app/events';
import { LogError, type RecordSink } from '@app/event-log';
import { Backoff, sleep, asError } from '@app/retry';
import { RecordingReader, replayFiles, type SkippedLine } from './replay-files';
import { shiftRecord, scanRecording } from './replay-loop';

export interface ReplayOptions {
  /** A JSON Lines file or a directory of *.jsonl. */
  readonly path: string;
  readonly speed: ReplaySpeed;
  readonly sink: RecordSink;
  /** Told the newest receivedAt of each batch as it is written (drives the replay clock). */
  readonly onFed: (receivedAt: number) => void;
  readonly onSkip: (skipped: SkippedLine) => void;
  readonly signal?: AbortSignal;
  /** Wall clock for pacing (ms); an argument so tests can drive it. */
  readonly wallNow?: () => number;
  /**
   * Told when a write fails: the batch is retried (full jitter under a ceiling of 0.2 s doubling
   * to 5 s) until it goes in or the feed is aborted, so a broker outage or a full disk pauses the
   * replay instead of ending it.
   */
  readonly onWriteError?: (error: Error, attempt: number) => void;
  /** Told of a record the log refuses for good (too large): it is dropped and the replay goes on. */
  readonly onRefused?: (record: EventRecord, error: Error) => void;
  /**
   * Play the recording again and again until aborted, each pass time-shifted so receivedAt keeps
   * growing and books stay fresh, and re-sequenced so each pass's deltas follow its snapshots
   * (docs/replay.md "The demo"). Needs a paced speed.
   */
  readonly loop?: boolean;
  /**
   * With `loop`: the newest receivedAt the log already holds (null: empty). The first pass is
   * shifted to start after it, so a demo restarted on its own log keeps time moving forward.
   */
  readonly after?: number | null;
  /** Told after each batch written where the replay is (which pass, which recorded instant). */
  readonly onProgress?: (progress: ReplayProgress) => void;
}

/** Where a replay is: pass `loop` (0 = first), at `recordedAt` of the recording, served as `servedAt`. */
export interface ReplayProgress {
  readonly loop: number;
  readonly recordedAt: number;
  readonly servedAt: number;
  /** The recording's first and last receivedAt. */
  readonly firstAt: number;
  readonly lastAt: number;
}

export interface ReplaySummary {
  readonly records: number;
  readonly skipped: number;
  /** Records the log refused for good (too large). */
  readonly refused: number;
  /** Passes started (1 without `loop`). */
  readonly loops: number;
}

const MAX_BATCH = 1000;
/** Recorded time between a pass's last record and the next pass's first one. */
export const LOOP_GAP_MS = 1000;

/**
 * Feed recorded event records through a sink, paced by `speed`: 1 keeps the recorded gaps, n
 * plays n times faster, `max` writes as fast as the sink accepts. Records due at the same moment
 * are written as one batch.
 */
export async function feedReplay(options: ReplayOptions): Promise<ReplaySummary> {
  if (options.loop === true && options.speed === 'max')
    throw new Error('a looped replay needs a paced speed');
  const files = replayFiles(options.path);
  const wallNow = options.wallNow ?? (() => performance.now());
  let skipped = 0;
  let count = 0;
  let refused = 0;
  let origin: { wall: number; recorded: number } | null = null;
  const scan = options.loop === true ? scanRecording(files) : null;
  if (scan !== null && scan.records === 0) return { records: 0, skipped: scan.skipped, refused: 0, loops: 0 };
  const period = scan === null ? 0 : scan.lastAt - scan.firstAt + LOOP_GAP_MS;
  const after = options.after ?? null;
  const base =
    scan !== null && after !== null && after >= scan.firstAt ? after - scan.firstAt + LOOP_GAP_MS : 0;
  let loop = 0;
  for (; ; loop++) {
    const shift = base + loop * period;
    // Each pass's sequences sit above every sequence of the pass before.
    const seqOffset = scan === null ? 0 : loop * (scan.maxSequence + 1);
    // A bad line is reported once, on the first pass.
    const reader = new RecordingReader(files, (s) => {
      if (loop > 0) return;
      skipped++;
      options.onSkip(s);
    });
    let batch: EventRecord[] = [];
    const flush = async (): Promise<void> => {
      if (batch.length === 0) return;
      const written = batch;
      batch = [];
      const servedAt = written[written.length - 1]!.receivedAt;
      // The clock moves before the records land: a reader in the same process may fold them
      // before this continuation runs, and must never see a book stamped ahead of the clock.
      let newest = servedAt;
      for (const r of written) if (r.receivedAt > newest) newest = r.receivedAt;
      options.onFed(newest);
      const outcome = await writeAll(options, written);
      count += outcome.written;
      refused += outcome.refused;
      if (outcome.written === 0) return;
      if (options.onProgress !== undefined && scan !== null)
        options.onProgress({
          loop,
          recordedAt: servedAt - shift,
          servedAt,
          firstAt: scan.firstAt,
          lastAt: scan.lastAt,
        });
    };
    try {
      for (let chunk = reader.take(MAX_BATCH); chunk.length > 0; chunk = reader.take(MAX_BATCH)) {
        for (const raw of chunk) {
          if (options.signal?.aborted === true) return { records: count, skipped, refused, loops: loop + 1 };
          const record = shiftRecord(raw, shift, seqOffset);
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
    if (scan === null || options.signal?.aborted === true) break;
  }
  return { records: count, skipped, refused, loops: loop + 1 };
}
/** Pauses between writes the log refused (a broker outage, a full disk). */
const WRITE_BACKOFF = { initialMs: 200, maxMs: 5_000 };

/** Write `records`, retrying what the log did not take until it is in (or the feed is aborted). */
async function writeAll(
  options: ReplayOptions,
  records: readonly EventRecord[],
): Promise<{ written: number; refused: number }> {
  let rest = records;
  let written = 0;
  let refused = 0;
  const backoff = new Backoff(WRITE_BACKOFF);
  for (let attempt = 0; rest.length > 0; attempt++) {
    try {
      await options.sink.write(rest);
      return { written: written + rest.length, refused };
    } catch (e) {
      const error = asError(e);
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
      await sleep(backoff.next(), options.signal);
      if (aborted(options.signal)) break;
    }
  }
  return { written, refused };
}

function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
