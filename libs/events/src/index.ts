export type {
  BookRecord,
  EventRecord,
  Level,
  MarketRecord,
  MarketRuleField,
  RecordType,
  VenueRecord,
} from './records';
export { MARKET_RULE_FIELDS, recordKey } from './records';
export { RecordError } from './record-error';
export type { RecordErrorCode } from './record-error';
export { parseRecord, parseRecordLine } from './parse-record';
export type { ParseResult } from './parse-record';
export { JOURNAL_TOPICS, RECORD_TOPICS, STREAM_LEDGER, TLOG, TOPICS, topicName, topicOf } from './topics';
export type { JournalTopic, RecordTopic, TopicName } from './topics';
export { byCodeUnit } from './order';
