import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { configOption } from '@app/config';
import { RECORD_TOPICS, type TopicName } from '@app/events';
import { decodeEntry, readRange } from '@app/live-feed';
import { Command } from 'commander';
import type { CliContext } from '../cli/context';
import { openReadLog } from '../cli/open-log';

const CHUNK = 10_000;

const HELP = `
Writes one JSON Lines file per topic-partition (venues-00.jsonl, books-00.jsonl, ...), each in
offset order, copying the log's entries byte for byte up to the end of the log when it started.
An entry that is not a valid record is left out, counted and named. The directory is what
--replay takes: route-service start --replay DIR.

Example:
  route-service replay record --out my-recording/ --data-dir /srv/route/.data`;

/** `record --out DIR`: export the log's book, market and venue records as JSON Lines. */
export function registerRecord(program: Command, ctx: CliContext, done: (code: number) => void): void {
  program
    .command('record')
    .summary("copy the log's book/market/venue records to JSON Lines files --replay reads")
    .description('Export the event log as events.md JSON Lines, one file per topic-partition.')
    .requiredOption('--out <dir>', 'output directory (created if missing)')
    .addOption(configOption('replay', 'data-dir'))
    .addHelpText('after', HELP)
    .action(async (o: { out: string; dataDir?: string }) => done(await record(o, ctx)));
}

async function record(o: { out: string; dataDir?: string }, ctx: CliContext): Promise<number> {
  const log = openReadLog(o.dataDir, ctx);
  const out = resolve(ctx.cwd, o.out);
  try {
    mkdirSync(out, { recursive: true });
    const ends = new Map<TopicName, number[]>();
    for (const t of RECORD_TOPICS) ends.set(t, await log.highWatermarks(t));
    const total = [...ends.values()].flat().reduce((a, b) => a + b, 0);
    const bar = ctx.progress('record', total, 'entries');
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
            bar.update(copied + skipped, `${topic}-${String(p).padStart(2, '0')}`);
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
