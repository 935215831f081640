import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RECORD_TOPICS, type TopicName } from '@app/events';
import { decodeEntry, readRange } from '@app/feed';
import type { EventLog } from '@app/log';
import { parseArgs, requiredFlag, UsageError, type Args } from '../cli/args';
import { progressBar } from '../cli/progress';

export interface RecordContext {
  readonly cwd: string;
  readonly err: (line: string) => void;
  readonly stderrIsTty: boolean;
}

const CHUNK = 10_000;

/**
 * `record --out DIR`: one events.md JSON Lines file per topic-partition (`venues-00.jsonl`,
 * `books-00.jsonl`, ...), each in offset order, up to the high-water marks seen at start. The
 * entries are copied byte for byte; an entry that is not a valid record is left out and counted.
 * `--replay DIR` accepts the directory as it is.
 */
export async function recordCommand(
  argv: readonly string[],
  openLog: (args: Args) => EventLog,
  ctx: RecordContext,
): Promise<number> {
  const args = parseArgs(argv, ['out', 'data-dir']);
  if (args.positional.length > 0)
    throw new UsageError(`record takes no positional arguments, got '${args.positional[0]}'`);
  const out = resolve(ctx.cwd, requiredFlag(args, 'out'));
  mkdirSync(out, { recursive: true });
  const log = openLog(args);
  try {
    const ends = new Map<TopicName, number[]>();
    for (const t of RECORD_TOPICS) ends.set(t, await log.highWatermarks(t));
    const total = [...ends.values()].flat().reduce((a, b) => a + b, 0);
    const bar = progressBar('record', total, ctx.stderrIsTty);
    let copied = 0;
    let skipped = 0;
    let files = 0;
    for (const topic of RECORD_TOPICS) {
      const hwm = ends.get(topic)!;
      for (let p = 0; p < hwm.length; p++) {
        const fd = openSync(join(out, `${topic}-${String(p).padStart(2, '0')}.jsonl`), 'w');
        files++;
        try {
          for await (const entries of readRange(log, topic, p, 0, hwm[p]!, CHUNK)) {
            const lines: string[] = [];
            for (const e of entries) {
              const decoded = decodeEntry(e);
              if (decoded.ok) lines.push(e.value);
              else {
                skipped++;
                ctx.err(`skipped invalid entry ${topic}/${p}@${e.offset}: ${decoded.skipped.problem}`);
              }
            }
            if (lines.length > 0) writeSync(fd, `${lines.join('\n')}\n`);
            copied += lines.length;
            bar.update(copied + skipped);
          }
        } finally {
          closeSync(fd);
        }
      }
    }
    bar.finish();
    ctx.err(
      `recorded ${copied} records into ${files} files in ${out}${skipped > 0 ? `; ${skipped} invalid entries left out` : ''}`,
    );
    return 0;
  } finally {
    await log.close();
  }
}
