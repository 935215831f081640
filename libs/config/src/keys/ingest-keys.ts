import { int, text, type AppName, type ConfigKey } from './config-key';

const FEEDERS: readonly AppName[] = ['start', 'ingestor'];

/** The ingestor group (Kafka only): which venues this ingestor runs. */
export const SHARD_KEYS: readonly ConfigKey[] = [
  {
    env: { name: 'INGESTOR_GROUP', apps: ['ingestor'] },
    value: text((v) =>
      /^[A-Za-z0-9._-]{1,200}$/.test(v) ? [] : [`must be 1 to 200 of [A-Za-z0-9._-], got '${v}'`],
    ),
    default: null,
    help: 'Kafka only: ingestors sharing this group name split the venues, each venue run by one live ingestor; unset = run every venue',
    doc: 'Kafka only: ingestors sharing this name split the venues, each venue run by one live ingestor; unset = run every venue.',
  },
  {
    env: { name: 'INGESTOR_SESSION_MS', apps: ['ingestor'] },
    value: int(1000, 300_000),
    default: 10_000,
    help: "with INGESTOR_GROUP: a silent ingestor's venues move to the others after this (it stops writing them before)",
    doc: "With `INGESTOR_GROUP`: a silent ingestor's venues move to the others after this (it stops writing them before).",
  },
];

/** The venues: which ones, read by the ingestor and by `venues check` alike. */
export const VENUE_KEYS: readonly ConfigKey[] = [
  {
    env: { name: 'VENUES_CONFIG', apps: [...FEEDERS, 'venues'] },
    value: { type: 'path', missing: 'no such file' },
    default: null,
    shown: 'default venues',
    help: 'JSON file choosing venues and symbols, and per-venue silence timeout, integrity checks and their interval, backoff and breaker',
    doc: 'JSON file choosing venues and symbols for the ingestor, and per venue the silence timeout, integrity checks (`checksum`, `checksumEveryMs`), backoff, breaker (docs/venues.md). `venues check` connects to the same venues.',
  },
];

/** What the ingestor does while the log refuses writes, and how it repairs lost listings. */
export const WRITER_KEYS: readonly ConfigKey[] = [
  {
    env: { name: 'WRITE_BUFFER_BYTES', apps: FEEDERS },
    // About 2 minutes of 60 venues x 20 books at 10 updates/s (~25 KB/s a venue).
    value: int(1 << 20, 2 ** 34),
    default: 64 * 1024 * 1024,
    help: 'records the ingestor holds while the log refuses writes, then drops the oldest book records',
    doc: 'Records the ingestor holds while the log refuses writes (docs/operations-log.md "Faults").',
  },
  {
    env: { name: 'LISTING_REPUBLISH_MS', apps: FEEDERS },
    // 0 = never, else at least 1000 (app-config.ts says so).
    value: int(0, 86_400_000),
    default: 600_000,
    note: '10 min',
    help: 'the ingestor writes every market and venue record again this often, so one lost to log damage is repaired; 0 = never',
    doc: 'The ingestor writes every market and venue record again this often, repairing one lost to damage; `0` = never.',
  },
];
