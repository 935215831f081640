export { QuoteJournal } from './quote-journal';
export type { FrameEntry, JournalEntry, JournalMode, QuoteJournalOptions } from './quote-journal';
export { sha256Hex } from './sha256';
export { findQuote } from './find-quote';
export type { FoundQuote } from './find-quote';
export { formatDiff, replayInput, replayQuote } from './replay-quote';
export type { DiffBasis, QuoteReplay, ReplayInput, ReplayQuoteOptions, Solve } from './replay-quote';
export { findQuotes, journalInRange } from './journal-scan';
export type { JournalOccurrence } from './journal-scan';
