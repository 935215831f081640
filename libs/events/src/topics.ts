/** Logical topics of the event log; physical names get the configured prefix. */
export const TOPICS = ['books', 'venues', 'quotes', 'stream', 'stream-ledger', 'tlog'] as const;
export type TopicName = (typeof TOPICS)[number];

/**
 * The quote journal's topics: `quotes` holds the REST answers, `stream` the stream's ticks and
 * frames, so that no amount of stream traffic can push REST quotes past their retention (each
 * topic has its own size bound; docs/replay.md "Write policy").
 */
export const JOURNAL_TOPICS = ['quotes', 'stream'] as const satisfies readonly TopicName[];
export type JournalTopic = (typeof JOURNAL_TOPICS)[number];

/**
 * Where a `routestream.v2` stream's open and close records go, keyed by streamId: a topic of their
 * own, not `stream`, so that a replay tool of an earlier release, which reads every entry of the
 * journal topics as a quote, a tick or a frame, never meets them (docs/replay.md "v2 streams").
 */
export const STREAM_LEDGER = 'stream-ledger' satisfies TopicName;

/**
 * Where each origin's transparency log goes (docs/audit.md "The log"), keyed by origin: the
 * order of its journal records as leaves and its signed checkpoints. Never retained away: the
 * tree of every checkpoint is rebuilt from it.
 */
export const TLOG = 'tlog' satisfies TopicName;

/**
 * The topics of event records (the quotes topic holds the journal), in the order a reader applies
 * and a writer appends them: a venue's market records before the books they list.
 */
export const RECORD_TOPICS = ['venues', 'books'] as const satisfies readonly TopicName[];
export type RecordTopic = (typeof RECORD_TOPICS)[number];

/** Physical topic name for a logical topic under a prefix (e.g. `route.books`). */
export function topicName(prefix: string, topic: TopicName): string {
  return prefix === '' ? topic : `${prefix}.${topic}`;
}

/** Book records go to `books`; market and venue records to `venues` (keys per events.md). */
export function topicOf(type: 'book' | 'market' | 'venue'): TopicName {
  return type === 'book' ? 'books' : 'venues';
}
