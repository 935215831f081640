import { createReadStream, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { byCodeUnit, parseRecordLine, type EventRecord } from '@app/events';

/** A file, or every *.jsonl of a directory sorted by name (the --replay contract). */
export function replayFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  const names = readdirSync(path)
    .filter((n) => n.endsWith('.jsonl'))
    .sort(byCodeUnit);
  if (names.length === 0) throw new Error(`--replay: no *.jsonl files in ${path}`);
  return names.map((n) => join(path, n));
}

/** A line that could not be read as a record: skipped, never applied in part (events.md). */
export interface SkippedLine {
  readonly file: string;
  readonly line: number;
  readonly problem: string;
}

interface Head {
  readonly index: number;
  readonly lines: AsyncIterator<string>;
  record: EventRecord | null;
  lineNo: number;
}

/**
 * The records of `files` merged by receivedAt (ties: earlier file, then file order). Each file is
 * read line by line, so memory holds one record per file, not the recording.
 */
export async function* mergedRecords(
  files: readonly string[],
  onSkip: (s: SkippedLine) => void,
): AsyncGenerator<EventRecord> {
  const heads: Head[] = files.map((file, index) => ({
    index,
    lines: createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })[
      Symbol.asyncIterator
    ](),
    record: null,
    lineNo: 0,
  }));
  const advance = async (h: Head): Promise<void> => {
    h.record = null;
    for (;;) {
      const next = await h.lines.next();
      if (next.done === true) return;
      h.lineNo++;
      const text = next.value.trim();
      if (text === '') continue;
      const parsed = parseRecordLine(text);
      if (parsed.ok) {
        h.record = parsed.record;
        return;
      }
      onSkip({ file: files[h.index]!, line: h.lineNo, problem: parsed.error.message });
    }
  };
  await Promise.all(heads.map(advance));
  for (;;) {
    let best: Head | null = null;
    for (const h of heads)
      if (h.record !== null && (best === null || h.record.receivedAt < best.record!.receivedAt)) best = h;
    if (best === null) return;
    yield best.record!;
    await advance(best);
  }
}
