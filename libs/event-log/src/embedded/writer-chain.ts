import { closeSync, fstatSync, openSync } from 'node:fs';
import { LogError } from '../log-error';
import type { HealthRegistry } from '../log-health';
import { SegmentChain, frameAt } from './segment-chain';
import { scanSegment } from './segment-scan';
import { readIndex, segmentFile } from './segment-files';

/**
 * Before a writer appends to the last segment file of a partition, check that it continues the
 * log: its base must be where the segment before it ends. A file named like a segment that does
 * not (garbage, an empty file with a wrong name, a copy starting inside the previous segment)
 * would make the writer continue at the wrong offset, so the writer refuses, naming the file.
 * A last segment that starts past the previous one's end (the previous was truncated) is
 * reported as damage and appended to. Returns the base of the segment to append to.
 */
export function checkChain(
  dir: string,
  bases: readonly number[],
  topic: string,
  partition: number,
  health: HealthRegistry,
): number {
  if (bases.length <= 1) return bases[0] ?? 0;
  const where = `${topic}/${partition}`;
  const chain = new SegmentChain(dir, where, health);
  try {
    const last = bases[bases.length - 1]!;
    let prev: number | undefined;
    for (let i = bases.length - 2; i >= 0 && prev === undefined; i--)
      if (chain.state(bases[i]!) !== 'stray') prev = bases[i];
    if (prev === undefined) return last;
    const end = segmentEnd(dir, prev);
    const state = chain.state(last);
    const file = segmentFile(dir, last);
    const fix = `it is not part of the log: move it out of ${dir} and start again`;
    if (state === 'stray') throw new LogError('corrupt', `${file} holds no frame of offset ${last}; ${fix}`);
    if (last < end.offset)
      throw new LogError(
        'corrupt',
        `${file} starts at offset ${last}, inside ${segmentFile(dir, prev)} (which runs to ${end.offset}); ${fix}`,
      );
    if (last > end.offset) {
      if (state === 'empty')
        throw new LogError(
          'corrupt',
          `${file} is empty and named for offset ${last}, but the log ends at ${end.offset}; ${fix}`,
        );
      health.damaged({
        topic,
        partition,
        fromOffset: end.offset,
        toOffset: last,
        file: segmentFile(dir, prev),
        position: end.position,
        bytes: end.size - end.position,
        reason: `segment ends at offset ${end.offset} but the next one starts at ${last} (truncated or missing data)`,
      });
    }
    return last;
  } finally {
    chain.close();
  }
}

/** Where the valid frames of a sealed segment end (damage inside it is reported by the readers). */
export function segmentEnd(dir: string, base: number): { offset: number; position: number; size: number } {
  const fd = openSync(segmentFile(dir, base), 'r');
  try {
    const size = fstatSync(fd).size;
    const index = readIndex(dir, base, size);
    let i = index.length - 1;
    while (i >= 0 && !frameAt(fd, index[i]!.position, index[i]!.offset)) i--;
    const end = scanSegment(fd, size, index[i] ?? { offset: base, position: 0 }, () => undefined);
    return { ...end, size };
  } finally {
    closeSync(fd);
  }
}
