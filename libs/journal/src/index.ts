export type {
  FrameRecord,
  JournalConfig,
  JournalEntryRecord,
  JournalPositions,
  JournalRequest,
  QuoteKind,
  QuoteRecord,
} from './quote-record';
export { JournalError } from './journal-error';
export type { JournalErrorCode } from './journal-error';
export { frameAsQuote, journalRecord, recordedRouting, utf8Length } from './journal-record';
export type { JournalInput, Sha256 } from './journal-record';
export { journalParser } from './parse-quote-record';
export type {
  JournalEntryParse,
  JournalParser,
  QuoteParse,
  RequestCheck,
  RequestValidator,
} from './parse-quote-record';
export {
  CONFIG_DEFAULTS_V2,
  RECORD_DEFAULTS_V2,
  REQUEST_DEFAULTS_V2,
  encodeFrameRecord,
  encodeQuoteRecord,
} from './compact';
export { jsonDiff } from './json-diff';
export type { JsonChange } from './json-diff';
