import type { ReplaySpeed } from '@app/config';
import type { EventRecord } from '@app/events';
import type { RecordSink } from '@app/log';
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
}

export interface ReplaySummary {
  readonly records: number;
  readonly skipped: number;
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
  let origin: { wall: number; recorded: number } | null = null;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const written = batch;
    batch = [];
    await options.sink.write(written);
    count += written.length;
    options.onFed(written[written.length - 1]!.receivedAt);
  };
  try {
    for (let chunk = reader.take(MAX_BATCH); chunk.length > 0; chunk = reader.take(MAX_BATCH)) {
      for (const record of chunk) {
        if (options.signal?.aborted === true) return { records: count, skipped };
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
  return { records: count, skipped };
}
