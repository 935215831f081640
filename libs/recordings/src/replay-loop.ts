import type { EventLog } from '@app/event-log';
import { parseRecordLine, RECORD_TOPICS, type EventRecord } from '@app/events';
import { RecordingReader } from './replay-files';

/** What looping needs to know about a recording before playing it. */
export interface RecordingScan {
  readonly records: number;
  readonly skipped: number;
  readonly firstAt: number;
  readonly lastAt: number;
  /** The highest book sequence in it (each pass is re-sequenced above the previous one). */
  readonly maxSequence: number;
}

/** One pass over the recording's files (a chunk per file in memory, as the replay itself). */
export function scanRecording(files: readonly string[]): RecordingScan {
  let records = 0;
  let skipped = 0;
  let firstAt = Infinity;
  let lastAt = -Infinity;
  let maxSequence = 0;
  const reader = new RecordingReader(files, () => skipped++);
  try {
    for (let chunk = reader.take(4096); chunk.length > 0; chunk = reader.take(4096)) {
      for (const r of chunk) {
        records++;
        if (r.receivedAt < firstAt) firstAt = r.receivedAt;
        if (r.receivedAt > lastAt) lastAt = r.receivedAt;
        if (r.type === 'book' && r.sequence > maxSequence) maxSequence = r.sequence;
      }
    }
  } finally {
    reader.close();
  }
  return { records, skipped, firstAt, lastAt, maxSequence };
}

/**
 * A record moved `shift` ms later (receivedAt, and a book's exchangeTimestamp) and, for a book,
 * `seqOffset` higher in sequence: a looped pass reads like a new stretch of the same feed.
 */
export function shiftRecord(record: EventRecord, shift: number, seqOffset: number): EventRecord {
  if (shift === 0 && seqOffset === 0) return record;
  switch (record.type) {
    case 'book':
      return {
        ...record,
        sequence: record.sequence + seqOffset,
        exchangeTimestamp: record.exchangeTimestamp === null ? null : record.exchangeTimestamp + shift,
        receivedAt: record.receivedAt + shift,
      };
    case 'market':
    case 'venue':
      return { ...record, receivedAt: record.receivedAt + shift };
  }
}

/**
 * The newest receivedAt in the log's book, market and venue partitions (their last entries; the
 * log appends in receipt order), or null when they are empty. A looped demo starts after it.
 */
export async function newestReceivedAt(log: EventLog): Promise<number | null> {
  let newest: number | null = null;
  for (const topic of RECORD_TOPICS) {
    const hwm = await log.highWatermarks(topic);
    for (let p = 0; p < hwm.length; p++) {
      const end = hwm[p]!;
      // The last few entries: a malformed one at the very end is skipped like the fold skips it.
      for (const e of (await log.read(topic, p, Math.max(0, end - 16), 16)).reverse()) {
        const parsed = parseRecordLine(e.value);
        if (!parsed.ok) continue;
        newest = newest === null ? parsed.record.receivedAt : Math.max(newest, parsed.record.receivedAt);
        break;
      }
    }
  }
  return newest;
}
