import type { JournalTopic, TopicName } from '@app/events';
import type { KeyEntries } from './journal-index';

export type { KeyEntries };

/**
 * Finds every journal entry of a key (a requestId, a stream tick id) in one journal topic: the
 * local requestId index of a data directory (JournalIndex) or the index the API replicas publish
 * to Kafka (SharedJournalIndex). Without one, callers read the key's whole partition.
 */
export interface KeyLookup {
  /** The journal topic it indexes; `quotes` when absent. */
  readonly topic?: TopicName;
  entries(key: string): Promise<KeyEntries>;
}

/** A lookup per journal topic: `quotes` (REST answers) and `stream` (stream ticks and frames). */
export type JournalLookups = Readonly<Record<JournalTopic, KeyLookup>>;
