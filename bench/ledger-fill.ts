import { randomUUID } from 'node:crypto';
import { STREAM_LEDGER } from '@app/events';
import { partitionFor, type EventLog } from '@app/event-log';
import { encodeStreamClose, encodeStreamOpen } from '@app/journal';
import { parseRouteQuery } from '@app/request';
import { floodQuery } from './stream-flood-queries';

const BATCH = 2000;

/**
 * Append `perPartition` records to each partition of the stream ledger: the open and the close
 * of closed streams, as the service writes them (real requests, one frame each), so a resume
 * lookup reads a ledger as full as a busy service's. Resolves with the number of partitions.
 */
export async function fillLedger(log: EventLog, perPartition: number): Promise<number> {
  const partitions = await log.partitions(STREAM_LEDGER);
  const parsed = parseRouteQuery(floodQuery(0), 'stream');
  if (!parsed.ok) throw new Error(`ledger fill: ${parsed.error}`);
  const request = parsed.params;
  const at = Date.now();
  const pending = Array.from({ length: partitions }, () => [] as { key: string; value: string }[]);
  const left = Array.from({ length: partitions }, () => perPartition);
  while (left.some((n) => n >= 2)) {
    const streamId = randomUUID();
    const p = partitionFor(streamId, partitions);
    if (left[p]! < 2) continue;
    left[p]! -= 2;
    const id = 's';
    pending[p]!.push(
      {
        key: streamId,
        value: encodeStreamOpen({ streamId, id, at, path: 'stream', request, resume: null, verdict: null }),
      },
      {
        key: streamId,
        value: encodeStreamClose({ streamId, id, at, lastSeq: 1, reason: 'closed', request }),
      },
    );
    if (pending[p]!.length >= BATCH) await log.append(STREAM_LEDGER, pending[p]!.splice(0));
  }
  for (const batch of pending) if (batch.length > 0) await log.append(STREAM_LEDGER, batch);
  return partitions;
}
