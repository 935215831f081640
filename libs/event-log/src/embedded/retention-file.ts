import { closeSync, existsSync, fsyncSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LogFiles } from './log-files';

/**
 * `<partition>/retention.json` = {"retainedFrom": H}: every entry at or after offset H is in the
 * log; below it only what retention kept (each book's latest snapshot and what follows it) in the
 * compacted first segment. Written before any file is replaced, so a reader that meets a segment
 * missing below H knows retention removed it (not damage).
 */
export const retentionFile = (dir: string): string => join(dir, 'retention.json');

/** The partition's retention horizon offset (0: retention never removed anything). */
export function readRetainedFrom(dir: string): number {
  const path = retentionFile(dir);
  if (!existsSync(path)) return 0;
  try {
    const v = (JSON.parse(readFileSync(path, 'utf8')) as { retainedFrom?: unknown }).retainedFrom;
    return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0;
  } catch {
    return 0; // a torn write cannot happen (rename), so this is a hand edit: assume nothing removed
  }
}

/** Atomically record a new horizon offset (tmp file, fdatasync, rename, directory fsync). */
export function writeRetainedFrom(files: LogFiles, dir: string, offset: number): void {
  files.replaceFileSync(retentionFile(dir), `${JSON.stringify({ retainedFrom: offset })}\n`);
  fsyncDir(dir);
}

/** Make renames and unlinks in `dir` durable. */
export function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Suffix of the compacted segment and index while they are being written. */
export const COMPACT_SUFFIX = '.compact';
