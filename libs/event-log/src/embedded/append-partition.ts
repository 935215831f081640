import type { AppendEntry } from '../event-log';
import { fileError } from '../log-error';
import { PartialWrite, type PartitionWriter } from './partition-writer';
import type { MarkBatch } from './snapshot-index';
import type { Writers } from './topic-writers';

/**
 * Append `entries[indices[..]]` to partition `p`: marks first (see snapshot-index.ts), then the
 * frames, then (policy 'always') fdatasync. On failure throws a LogError whose `appended` lists
 * every entry of the batch that is in the log anyway; `appended` collects them as it goes.
 */
export function appendPartition(
  w: Writers,
  p: number,
  entries: readonly AppendEntry[],
  indices: readonly number[],
  appended: number[],
  always: boolean,
): void {
  const writer = w.partitions[p]!;
  const marks = w.marks[p]!;
  const first = writer.nextOffset;
  let batch: MarkBatch | null = null;
  try {
    batch = marks === null ? null : marks.mark(entries, indices, first);
    if (batch !== null && always) marks.sync();
    writer.append(entries, indices);
  } catch (e) {
    const frames = e instanceof PartialWrite ? e.frames : 0;
    if (batch !== null) marks.rollback(batch, first + frames);
    for (let j = 0; j < frames; j++) appended.push(indices[j]!);
    if (frames > 0 && always) trySync(writer);
    const cause = e instanceof PartialWrite ? e.error : e;
    throw fileError(cause, `append to ${writer.dir}`, { appended: [...appended] });
  }
  if (always) {
    try {
      writer.sync();
    } catch (e) {
      // Written (readers may see them) but not known to be on disk: not acknowledged.
      throw fileError(e, `fdatasync of ${writer.dir}`, { appended: [...appended] });
    }
  }
  for (const i of indices) appended.push(i);
}

function trySync(writer: PartitionWriter): void {
  try {
    writer.sync();
  } catch {
    // Best effort for the whole frames of a failed write; the append already failed.
  }
}
