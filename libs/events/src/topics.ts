/** Logical topics of the event log; physical names get the configured prefix. */
export const TOPICS = ['books', 'venues', 'quotes'] as const;
export type TopicName = (typeof TOPICS)[number];

/** Physical topic name for a logical topic under a prefix (e.g. `route.books`). */
export function topicName(prefix: string, topic: TopicName): string {
  return prefix === '' ? topic : `${prefix}.${topic}`;
}

/** Book records go to `books`; market and venue records to `venues` (keys per events.md). */
export function topicOf(type: 'book' | 'market' | 'venue'): TopicName {
  return type === 'book' ? 'books' : 'venues';
}
