import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { byCodeUnit, parseRecordLine, type EventRecord, type TopicName } from '@app/events';
import type { EventLog } from '@app/log';

export interface LoadedEvents {
  /** Every valid record, in receivedAt order (ties keep file order, then line order). */
  readonly records: EventRecord[];
  readonly files: number;
  readonly skipped: number;
  /** The first few problems, `file:line: message`. */
  readonly problems: string[];
}

/** A file, or every *.jsonl of a directory sorted by name: the same contract as --replay. */
export function eventFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  const names = readdirSync(path)
    .filter((n) => n.endsWith('.jsonl'))
    .sort(byCodeUnit);
  if (names.length === 0) throw new Error(`no *.jsonl files in ${path}`);
  return names.map((n) => join(path, n));
}

/** Read events.md JSON Lines files; invalid lines are counted and skipped, never applied in part. */
export function loadEventFiles(path: string): LoadedEvents {
  const files = eventFiles(path);
  const records: EventRecord[] = [];
  const problems: string[] = [];
  let skipped = 0;
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    let line = 0;
    for (let pos = 0; pos < text.length;) {
      let nl = text.indexOf('\n', pos);
      if (nl < 0) nl = text.length;
      line++;
      const raw = text.slice(pos, nl).trim();
      pos = nl + 1;
      if (raw === '') continue;
      const parsed = parseRecordLine(raw);
      if (parsed.ok) records.push(parsed.record);
      else {
        skipped++;
        if (problems.length < 5) problems.push(`${file}:${line}: ${parsed.error.message}`);
      }
    }
  }
  return { records: inTimeOrder(records), files: files.length, skipped, problems };
}

/** Every book, market and venue record of the log up to its current end, in receivedAt order. */
export async function loadLogEvents(log: EventLog): Promise<LoadedEvents> {
  const records: EventRecord[] = [];
  const problems: string[] = [];
  let skipped = 0;
  let files = 0;
  const topics: TopicName[] = ['venues', 'books'];
  for (const topic of topics) {
    const hwm = await log.highWatermarks(topic);
    for (let p = 0; p < hwm.length; p++) {
      files++;
      for (let from = 0; from < hwm[p]!;) {
        const entries = await log.read(topic, p, from, Math.min(20_000, hwm[p]! - from));
        if (entries.length === 0) break;
        for (const e of entries) {
          const parsed = parseRecordLine(e.value);
          if (parsed.ok) records.push(parsed.record);
          else {
            skipped++;
            if (problems.length < 5) problems.push(`${topic}/${p}@${e.offset}: ${parsed.error.message}`);
          }
        }
        from = entries[entries.length - 1]!.offset + 1;
      }
    }
  }
  return { records: inTimeOrder(records), files, skipped, problems };
}

/** Stable sort by receivedAt, skipped when already ordered (a generated or single-partition file). */
function inTimeOrder(records: EventRecord[]): EventRecord[] {
  for (let i = 1; i < records.length; i++) {
    if (records[i]!.receivedAt < records[i - 1]!.receivedAt)
      return records.sort((a, b) => a.receivedAt - b.receivedAt);
  }
  return records;
}
