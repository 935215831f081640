export { QuoteJournal } from './quote-journal';
export type { FrameEntry, JournalEntry, JournalMode, QuoteJournalOptions } from './quote-journal';
export { sha256Hex } from './sha256';
export { rebuildBooks } from './rebuild-books';
export type { RebuildStats } from './rebuild-books';
export { positionsAt } from './as-of';
export type { AsOfCut } from './as-of';
