import { existsSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { HealthRegistry } from '../log-health';
import { COMPACT_SUFFIX, fsyncDir, readRetainedFrom } from './retention-file';
import { indexFile, listSegments, segmentFile } from './segment-files';
import { segmentEnd } from './writer-chain';

/**
 * Finish what a retention pass interrupted by a crash left (the writer calls this on open): drop
 * half-written compacted files, and delete segments that the compacted first segment already
 * covers (it ends at the horizon; the originals below it were due for deletion). Nothing is
 * deleted unless the first segment really reaches past them, so an interruption before the
 * compacted segment replaced the first one loses nothing.
 */
export function finishRetention(dir: string, where: string, health: HealthRegistry): void {
  if (!existsSync(dir)) return;
  for (const f of readdirSync(dir)) if (f.endsWith(COMPACT_SUFFIX)) unlinkSync(join(dir, f));
  const retained = readRetainedFrom(dir);
  const bases = listSegments(dir);
  if (retained === 0 || bases.length < 3) return;
  const first = bases[0]!;
  const covered = Math.min(retained, segmentEnd(dir, first).offset);
  const stale = bases.filter((b) => b > first && b < covered && b !== bases[bases.length - 1]);
  if (stale.length === 0) return;
  for (const b of stale) {
    unlinkSync(segmentFile(dir, b));
    if (existsSync(indexFile(dir, b))) unlinkSync(indexFile(dir, b));
  }
  fsyncDir(dir);
  health.note(
    `${where}: finished an interrupted retention pass: removed ${stale.length} segment(s) below offset ${covered} already covered by the compacted segment`,
  );
}
