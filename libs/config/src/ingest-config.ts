import type { LogConfig } from './log-config';
import type { Reader } from './read-values';

export type ReplaySpeed = number | 'max';

/** `--replay`: a recording fed into the log instead of live venues. */
export interface ReplayConfig {
  /** A JSON Lines file or a directory of *.jsonl files. */
  readonly path: string;
  readonly speed: ReplaySpeed;
  /** --loop: play the recording again and again, time-shifted (docs/replay.md "The demo"). */
  readonly loop: boolean;
}

/** INGESTOR_GROUP: ingestors of one group split the venues between them (Kafka only). */
export interface ShardConfig {
  readonly group: string;
  /** INGESTOR_SESSION_MS: how long a silent member keeps its venues. */
  readonly sessionMs: number;
}

/** What feeds the log: a recording (--replay, --speed, --loop) or, when null, the live venues. */
export function readReplay(r: Reader): ReplayConfig | null {
  const speed = r.decimal('--speed') as ReplaySpeed;
  const speedGiven = r.given('--speed');
  const loop = r.switch('--loop');
  if (!r.given('--replay')) {
    if (speedGiven) r.bad('--speed', 'only applies with --replay');
    if (loop) r.bad('--loop', 'only applies with --replay');
    r.path('--replay');
    return null;
  }
  // Looping at max speed would write records as fast as the disk takes them, forever.
  if (loop && speed === 'max') r.bad('--loop', 'needs a paced --speed (a number), not max');
  return { path: r.path('--replay')!, speed, loop };
}

/** VENUES_CONFIG: the venues file, or null for the default venues. */
export function readVenuesConfig(r: Reader): string | null {
  return r.path('VENUES_CONFIG');
}

/** WRITE_BUFFER_BYTES and LISTING_REPUBLISH_MS: the ingestor's writer. */
export function readWriter(r: Reader): { writeBufferBytes: number; listingRepublishMs: number } {
  const writeBufferBytes = r.int('WRITE_BUFFER_BYTES');
  const ms = r.int('LISTING_REPUBLISH_MS');
  if (ms > 0 && ms < 1_000) r.bad('LISTING_REPUBLISH_MS', `must be 0 (never) or at least 1000, got ${ms}`);
  return { writeBufferBytes, listingRepublishMs: ms };
}

/** INGESTOR_GROUP and INGESTOR_SESSION_MS; a group needs Kafka. */
export function readShards(r: Reader, log: LogConfig): ShardConfig | null {
  const sessionMs = r.int('INGESTOR_SESSION_MS');
  const group = r.text('INGESTOR_GROUP');
  if (group === null) return null;
  if (log.kafkaBrokers === null)
    r.bad('INGESTOR_GROUP', 'needs KAFKA_BROKERS: ingestors split venues through a Kafka consumer group');
  return { group, sessionMs };
}
