import type { JournalTopic } from '@app/events';
import type { EventLog } from '@app/event-log';
import { journalIndexDir, journalIndexes } from './journal-index';
import type { JournalLookups, KeyLookup } from './key-lookup';
import { SharedJournalIndex, sharedIndexTopics } from './shared-index/shared-index';

/**
 * The requestId indexes a reader of `log` uses, one per journal topic: on Kafka the ones the API
 * replicas publish beside the journal (readable from any machine), else the ones the API keeps in
 * `dataDir`.
 */
export function journalLookup(log: EventLog, dataDir: string): JournalLookups {
  const local = journalIndexes(log, journalIndexDir(dataDir));
  const lookup = (topic: JournalTopic): KeyLookup => {
    const shared = sharedIndexTopics(log, topic);
    return shared === null ? local[topic] : new SharedJournalIndex(log, shared);
  };
  return { quotes: lookup('quotes'), stream: lookup('stream') };
}
