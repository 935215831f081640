export { feedReplay, LOOP_GAP_MS } from './replay-feeder';
export type { ReplayOptions, ReplayProgress, ReplaySummary } from './replay-feeder';
export { newestReceivedAt, scanRecording, shiftRecord } from './replay-loop';
export type { RecordingScan } from './replay-loop';
export { RecordingReader, replayFiles } from './replay-files';
export type { SkippedLine } from './replay-files';
