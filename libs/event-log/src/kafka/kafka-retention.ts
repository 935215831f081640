import { ConfigResourceTypes, type Admin } from 'kafkajs';
import type { TopicName } from '@app/events';
import type { RetentionPolicy } from '../embedded/retention';

/** A snapshot period must fit this many times into a topic's retention (see retentionProblem). */
export const SNAPSHOTS_PER_RETENTION = 10;

/**
 * Config entries for a topic the service creates: books and quotes get retention.ms and
 * retention.bytes from the service's retention (-1 where a bound is off); venues, small and folded
 * from its start, is kept whole (retention.ms -1) instead of the broker's default week.
 */
export function topicRetentionEntries(
  topic: TopicName,
  policy: RetentionPolicy | undefined,
): { name: string; value: string }[] {
  // venues: every market record is needed; tlog: every checkpoint's tree is rebuilt from it.
  if (topic === 'venues' || topic === 'tlog') return [{ name: 'retention.ms', value: '-1' }];
  if (policy === undefined) return [];
  return [
    { name: 'retention.ms', value: String(policy.maxAgeMs ?? -1) },
    { name: 'retention.bytes', value: String(policy.maxBytes ?? -1) },
  ];
}

/** A topic's retention.ms and retention.bytes as the broker has them (-1 = unbounded). */
export async function describeRetention(admin: Admin, name: string): Promise<{ ms: number; bytes: number }> {
  const res = await admin.describeConfigs({
    includeSynonyms: false,
    resources: [{ type: ConfigResourceTypes.TOPIC, name, configNames: ['retention.ms', 'retention.bytes'] }],
  });
  const entries = res.resources[0]?.configEntries ?? [];
  const value = (n: string): number => Number(entries.find((e) => e.configName === n)?.configValue ?? -1);
  return { ms: value('retention.ms'), bytes: value('retention.bytes') };
}

/**
 * Why a topic's retention is too short for its snapshot period, or null. Kafka deletes whole
 * segments without regard to snapshots, so every book must get a fresh snapshot well inside the
 * retention or its rebuild loses its base: at least SNAPSHOTS_PER_RETENTION periods.
 */
export function retentionProblem(
  topicName: string,
  retentionMs: number,
  snapshotEveryMs: number,
): string | null {
  if (retentionMs < 0 || retentionMs >= SNAPSHOTS_PER_RETENTION * snapshotEveryMs) return null;
  return `Kafka topic ${topicName} has retention.ms=${retentionMs}, under ${SNAPSHOTS_PER_RETENTION} snapshot periods (${SNAPSHOTS_PER_RETENTION} x ${snapshotEveryMs} ms): books would lose their snapshots before new ones are written. Raise the topic's retention.ms (kafka-configs --alter --add-config retention.ms=...) or LOG_RETENTION_MS for new topics`;
}
