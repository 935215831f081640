import type { EventRecord, TopicName } from '@app/events';
import { RECORD_TOPICS } from '@app/events';
import type { EventLog } from '@app/event-log';
import { decodeEntry, type OnSkipped, type VenuesGap } from '@app/live-feed';
import { RecordingReader, replayFiles, type SkippedLine } from '@app/recordings';
import { timeIndexOf, type PartitionTimes } from './time-index';

/** An ordered source of records (one log partition, or a recording), read in its order. */
export interface RecordSource {
  /**
   * Up to `max` next records; null once the source is exhausted; [] when the source knows that no
   * record at or before `until` lies ahead (a log partition's time index says so; a recording is
   * in receivedAt order). Records after `until` may come back too: the fold holds them back.
   */
  take(max: number, until: number): Promise<EventRecord[] | null>;
  /** A venues partition of a log: the entries it never received (lost to damage) so far. */
  readonly lost?: VenuesLoss;
}

/** What a venues partition source knows of entries it never received (docs/operations-log.md). */
export interface VenuesLoss {
  readonly gaps: readonly VenuesGap[];
  /** The offset a market or venue record it gave was read at. */
  offsetOf(record: EventRecord): number | undefined;
}

/**
 * One source per partition of the venues and books topics, from offset 0 up to `upTo` (default:
 * the high-water marks now). Bad entries are skipped and named, as every fold does.
 */
export async function logSources(
  log: EventLog,
  onSkipped: OnSkipped,
  upTo?: Partial<Record<TopicName, readonly number[]>>,
): Promise<RecordSource[]> {
  const out: RecordSource[] = [];
  for (const topic of RECORD_TOPICS) {
    const ends = upTo?.[topic] ?? (await log.highWatermarks(topic));
    ends.forEach((end, partition) => out.push(partitionSource(log, topic, partition, end, onSkipped)));
  }
  return out;
}

function partitionSource(
  log: EventLog,
  topic: TopicName,
  partition: number,
  end: number,
  onSkipped: OnSkipped,
): RecordSource {
  let next = 0;
  let times: PartitionTimes | null = null;
  // The venues topic: offsets never read are listing records lost to damage (lost-listings.ts).
  const gaps: VenuesGap[] = [];
  const offsets = new WeakMap<EventRecord, number>();
  let lastAt = -Infinity;
  let expected = 0;
  const lost: VenuesLoss = { gaps, offsetOf: (r) => offsets.get(r) };
  const seen = (offset: number, record: EventRecord | null): void => {
    if (offset > expected) gaps.push({ partition, from: expected, to: offset, after: lastAt });
    expected = offset + 1;
    if (record === null) return;
    lastAt = record.receivedAt;
    offsets.set(record, offset);
  };
  return {
    ...(topic === 'venues' ? { lost } : {}),
    async take(max: number, until: number): Promise<EventRecord[] | null> {
      times ??= await timeIndexOf(log).partition(topic, partition, end);
      for (;;) {
        if (next >= end) return null;
        // Past the last block holding a record at or before `until`, every record is later.
        const limit = Math.min(end, times.readableEnd(until));
        if (next >= limit) return [];
        const entries = await log.read(topic, partition, next, Math.min(max, limit - next));
        if (entries.length === 0) {
          if (topic === 'venues') seen(end, null);
          return null;
        }
        const records: EventRecord[] = [];
        for (const entry of entries) {
          if (entry.offset >= end) break;
          const decoded = decodeEntry(entry);
          if (topic === 'venues') seen(entry.offset, decoded.ok ? decoded.record : null);
          if (decoded.ok) records.push(decoded.record);
          else onSkipped(decoded.skipped);
        }
        // A range retention removed is passed over (the read starts later than asked).
        next = entries[entries.length - 1]!.offset + 1;
        if (records.length > 0) return records;
      }
    },
  };
}

/**
 * A recording (a JSON Lines file, or every *.jsonl of a directory, merged by receivedAt: the
 * --replay contract) as one source, taken in receivedAt order. Unreadable lines are skipped and named.
 */
export function fileSource(path: string, onSkipped: (line: SkippedLine) => void): RecordSource {
  const reader = new RecordingReader(replayFiles(path), onSkipped);
  let buffer: EventRecord[] = [];
  let at = 0;
  let exhausted = false;
  return {
    take(max: number, until: number): Promise<EventRecord[] | null> {
      if (at === buffer.length && !exhausted) {
        buffer = reader.take(max);
        at = 0;
        if (buffer.length === 0) {
          exhausted = true;
          reader.close();
        }
      }
      if (at === buffer.length) return Promise.resolve(null);
      const out: EventRecord[] = [];
      while (at < buffer.length && out.length < max && buffer[at]!.receivedAt <= until)
        out.push(buffer[at++]!);
      return Promise.resolve(out);
    },
  };
}
