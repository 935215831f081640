export { QuoteJournal } from './quote-journal';
export type { JournalEntry, JournalMode, QuoteJournalOptions } from './quote-journal';
export { sha256Hex } from './sha256';
