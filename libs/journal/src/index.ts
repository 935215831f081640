export type {
  FrameRecord,
  FrameStream,
  JournalConfig,
  JournalEntryRecord,
  JournalValue,
  JournalPositions,
  JournalRequest,
  QuoteKind,
  QuoteRecord,
  StreamCloseRecord,
  StreamOpenRecord,
  StreamRequest,
  StreamResumePoint,
  StreamResumeVerdict,
  TickCause,
  TickCauseKind,
} from './quote-record';
export { CLOSE_REASONS, RESUME_REFUSALS, TICK_CAUSES } from './quote-record';
export { encodeStreamClose, encodeStreamOpen } from './stream-record';
export { JournalError } from './journal-error';
export type { JournalErrorCode } from './journal-error';
export { frameAsQuote, journalRecord, recordedRouting, utf8Length } from './journal-record';
export type { JournalInput, Sha256 } from './journal-record';
export { journalParser } from './parse-quote-record';
export type {
  JournalEntryParse,
  JournalValueParse,
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
