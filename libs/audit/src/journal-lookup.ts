import type { EventLog } from '@app/log';
import { JournalIndex, journalIndexDir } from './journal-index';
import type { KeyLookup } from './key-lookup';
import { SharedJournalIndex, sharedIndexTopics } from './shared-index/shared-index';

/**
 * The requestId index a reader of `log` uses: on Kafka the one the API replicas publish beside
 * the journal (readable from any machine), else the one the API keeps in `dataDir`.
 */
export function journalLookup(log: EventLog, dataDir: string): KeyLookup {
  const shared = sharedIndexTopics(log);
  return shared === null
    ? new JournalIndex(log, journalIndexDir(dataDir))
    : new SharedJournalIndex(log, shared);
}
