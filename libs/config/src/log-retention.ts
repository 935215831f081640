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

const DAY = 86_400_000;
const MIB = 1024 * 1024;

/**
 * Defaults for a laptop: a week of history, and at most 512 MiB per partition (books 8 x, quotes
 * 4 x: about 6 GiB in all), whichever comes first. Segments of 64 MiB make retention remove an
 * eighth of a full partition at a time, and keep one pass short (it reads what it removes).
 */
export const DEFAULT_RETENTION: LogRetention = {
  maxAgeMs: 7 * DAY,
  maxBytes: 512 * MIB,
  segmentBytes: 64 * MIB,
};

/** Retention from --retention-ms / --retention-bytes (or LOG_RETENTION_MS / _BYTES) and LOG_SEGMENT_BYTES; 0 turns a bound off. */
export function readRetention(r: Reader): LogRetention {
  const ageKey = r.flag('retention-ms') === undefined ? 'LOG_RETENTION_MS' : '--retention-ms';
  const bytesKey = r.flag('retention-bytes') === undefined ? 'LOG_RETENTION_BYTES' : '--retention-bytes';
  const age = r.int(
    ageKey,
    r.flag('retention-ms') ?? r.envValue('LOG_RETENTION_MS'),
    DEFAULT_RETENTION.maxAgeMs!,
    0,
    3650 * DAY,
  );
  const bytes = r.int(
    bytesKey,
    r.flag('retention-bytes') ?? r.envValue('LOG_RETENTION_BYTES'),
    DEFAULT_RETENTION.maxBytes!,
    0,
    2 ** 50,
  );
  const segmentBytes = r.int(
    'LOG_SEGMENT_BYTES',
    r.envValue('LOG_SEGMENT_BYTES'),
    DEFAULT_RETENTION.segmentBytes,
    MIB,
    2 ** 32 - 1,
  );
  if (bytes > 0 && bytes < 2 * segmentBytes)
    r.bad(bytesKey, `must be 0 (off) or at least two segments (2 x LOG_SEGMENT_BYTES = ${2 * segmentBytes})`);
  return { maxAgeMs: age === 0 ? null : age, maxBytes: bytes === 0 ? null : bytes, segmentBytes };
}
