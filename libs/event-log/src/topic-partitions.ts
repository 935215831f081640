import type { TopicName } from '@app/events';

/** Each topic's partition count when a log creates it and the caller names none, on the embedded log and on Kafka alike. */
export const DEFAULT_PARTITIONS: Readonly<Record<TopicName, number>> = {
  books: 8,
  venues: 4,
  quotes: 4,
  stream: 4,
  'stream-ledger': 4,
  // One partition: an origin's entries are read from the start, in order, by whoever audits it.
  tlog: 1,
};
