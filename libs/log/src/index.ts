export { EventLog } from './event-log';
export type { AppendEntry, LogEntry, PositionVector } from './event-log';
export type { RecordSink } from './record-sink';
