export { QuoteJournal } from './quote-journal';
export type {
  AppendedRecord,
  FrameEntry,
  JournalEntry,
  JournalMode,
  QuoteJournalOptions,
  StreamEvent,
} from './journal-entry';
export { sha256Hex } from './sha256';
export {
  parseJournalEntryLine,
  parseJournalValueLine,
  parseQuoteRecord,
  parseQuoteRecordLine,
} from './journal-parse';
export { findQuote } from './find-quote';
export type { FoundQuote } from './find-quote';
export { formatDiff, replayInput, replayQuote } from './replay-quote';
export type { DiffBasis, QuoteReplay, ReplayInput, ReplayQuoteOptions, Solve } from './replay-quote';
export { findQuotes, journalInRange } from './journal-scan';
export { findStream, findStreamEnds } from './find-stream';
export type { JournalStream, StreamAt, StreamEnds, StreamFrame } from './find-stream';
export type { JournalOccurrence } from './journal-scan';
export { DECAY_HORIZONS_MS, quoteDecay, repriceLegs } from './quote-decay';
export type { DecayPoint, QuoteDecay } from './quote-decay';
export { decaySummary } from './decay-summary';
export type { DecaySummary } from './decay-summary';
export { JournalIndex, JournalIndexer, journalIndexDir, journalIndexes } from './journal-index';
export type { JournalIndexes } from './journal-index';
export type { JournalLookups, KeyEntries, KeyLookup } from './key-lookup';
export { journalLookup } from './journal-lookup';
export { SharedJournalIndex, sharedIndexTopics } from './shared-index/shared-index';
export type { SharedIndexTopics } from './shared-index/shared-index';
export { SharedIndexPublisher } from './shared-index/index-publisher';
export type { SharedIndexPublisherOptions } from './shared-index/index-publisher';
export { BLOCK as SHARED_INDEX_BLOCK } from './shared-index/run-codec';
export { journalHorizonOf } from './journal-horizon';
export type { JournalHorizon } from './journal-horizon';
export { OriginLog } from './tlog/origin-log';
export type { LeafLookup, OriginLogOptions } from './tlog/origin-log';
export { readOriginTree, tlogEntries } from './tlog/origin-tree';
export type { KeptCheckpoint, OriginTree } from './tlog/origin-tree';
export { encodeTlogEntry, parseTlogEntry } from './tlog/tlog-entry';
export type { LeafRef, LeafTopic, TlogEntry } from './tlog/tlog-entry';
export { verifyReceipt } from './tlog/verify-receipt';
export type { VerifyOutcome, VerifyReceiptOptions } from './tlog/verify-receipt';
export { auditOriginLog, journalHashes } from './tlog/verify-log';
export type { LogAudit } from './tlog/verify-log';
