import { JOURNAL_TOPICS, type JournalTopic } from '@app/events';
import { partitionFor, type EventLog } from '@app/event-log';

/** Where retention has cut one journal partition. */
export interface JournalHorizon {
  readonly topic: JournalTopic;
  readonly partition: number;
  /** The first offset kept (0 when retention removed nothing). */
  readonly retainedFrom: number;
  /** calculatedAt of the first record kept that has one, or null (nothing removed, or none readable). */
  readonly at: number | null;
}

/** Entries read after the horizon offset to find one with a time. */
const WINDOW = 64;

/**
 * The journal's retention horizon where `requestId` would be: its partition of each journal topic,
 * the first offset kept there and when its first kept record was calculated. A record of that id
 * answered before the horizon has been removed by retention (LOG_RETENTION_MS, LOG_RETENTION_BYTES).
 */
export async function journalHorizonOf(log: EventLog, requestId: string): Promise<JournalHorizon[]> {
  const out: JournalHorizon[] = [];
  for (const topic of JOURNAL_TOPICS) {
    const partition = partitionFor(requestId, await log.partitions(topic));
    const retainedFrom = (await log.retainedFrom(topic))[partition] ?? 0;
    let at: number | null = null;
    if (retainedFrom > 0)
      for (const e of await log.read(topic, partition, retainedFrom, WINDOW)) {
        at = timeOf(e.value);
        if (at !== null) break;
      }
    out.push({ topic, partition, retainedFrom, at });
  }
  return out;
}

function timeOf(value: string): number | null {
  try {
    const t = (JSON.parse(value) as { calculatedAt?: unknown }).calculatedAt;
    return typeof t === 'number' && Number.isFinite(t) ? t : null;
  } catch {
    return null;
  }
}
