import type { StreamSpec } from '@app/synth';

/** The book stream of the embedded append+fold scenarios (records and levels set per run). */
export const APPEND_FOLD_SPEC: StreamSpec = {
  venues: 10,
  symbolsPerVenue: 10,
  bookRecords: 0,
  levels: 2,
  snapshotEvery: 1000,
  startAt: 1_786_000_000_000,
};
