import { configKey } from './keys/keys';
import type { Reader } from './read-values';

/** How much of the event log is kept (docs/operations-log.md "Retention"). */
export interface LogRetention {
  /** Entries older than this are removed (whole segments); null = no age bound. */
  readonly maxAgeMs: number | null;
  /** Per topic-partition: the oldest segments go while its files exceed this; null = no size bound. */
  readonly maxBytes: number | null;
  /** Embedded log segment size: the unit retention removes. */
  readonly segmentBytes: number;
}

/**
 * The table's defaults (keys.ts): a week of history and at most 512 MiB per partition (books 8 x,
 * quotes 4 x: about 6 GiB in all), whichever comes first, in segments of 64 MiB, so retention
 * removes an eighth of a full partition at a time and one pass stays short.
 */
export const DEFAULT_RETENTION: LogRetention = Object.freeze({
  maxAgeMs: configKey('LOG_RETENTION_MS').default as number,
  maxBytes: configKey('LOG_RETENTION_BYTES').default as number,
  segmentBytes: configKey('LOG_SEGMENT_BYTES').default as number,
});

/** Retention from --retention-ms / --retention-bytes (or LOG_RETENTION_MS / _BYTES) and LOG_SEGMENT_BYTES; 0 turns a bound off. */
export function readRetention(r: Reader): LogRetention {
  const age = r.int('LOG_RETENTION_MS');
  const bytes = r.int('LOG_RETENTION_BYTES');
  const segmentBytes = r.int('LOG_SEGMENT_BYTES');
  if (bytes > 0 && bytes < 2 * segmentBytes)
    r.bad(
      r.label('LOG_RETENTION_BYTES'),
      `must be 0 (off) or at least two segments (2 x LOG_SEGMENT_BYTES = ${2 * segmentBytes})`,
    );
  return { maxAgeMs: age === 0 ? null : age, maxBytes: bytes === 0 ? null : bytes, segmentBytes };
}
