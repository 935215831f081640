export type { JournalConfig, JournalPositions, QuoteKind, QuoteRecord } from './quote-record';
export { JournalError } from './journal-error';
export type { JournalErrorCode } from './journal-error';
export { journalRecord, recordedRouting, utf8Length } from './journal-record';
export type { JournalInput, Sha256 } from './journal-record';
export { parseQuoteRecord, parseQuoteRecordLine } from './parse-quote-record';
export type { QuoteParse } from './parse-quote-record';
export { jsonDiff } from './json-diff';
export type { JsonChange } from './json-diff';
