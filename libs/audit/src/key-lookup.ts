import type { KeyEntries } from './journal-index';

export type { KeyEntries };

/**
 * Finds every journal entry of a key (a requestId, a stream tick id): the local requestId index
 * of a data directory (JournalIndex) or the index the API replicas publish to Kafka
 * (SharedJournalIndex). Without one, callers read the key's whole partition.
 */
export interface KeyLookup {
  entries(key: string): Promise<KeyEntries>;
}
