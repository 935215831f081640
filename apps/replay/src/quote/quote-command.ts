import type { EventLog } from '@app/log';
import { parseArgs, UsageError } from '../cli/args';
import { findQuote } from '@app/audit';
import { formatDiff, replayQuote } from '@app/audit';

export interface CommandIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/**
 * `quote <requestId>`: print the recomputed response on stdout, the verdict on stderr; exit 0
 * only when the bytes hash to the recorded SHA-256, 1 when they differ, 3 when the requestId is
 * not in the journal.
 */
export async function quoteCommand(
  argv: readonly string[],
  openLog: (args: ReturnType<typeof parseArgs>) => EventLog,
  io: CommandIo,
): Promise<number> {
  const args = parseArgs(argv, ['data-dir']);
  if (args.positional.length !== 1) throw new UsageError('usage: quote <requestId> [--data-dir DIR]');
  const requestId = args.positional[0]!;
  const t0 = performance.now();
  const log = openLog(args);
  try {
    const found = await findQuote(log, requestId);
    if (found === null) {
      io.err(`no journal record for requestId ${JSON.stringify(requestId)}`);
      return 3;
    }
    const replay = await replayQuote(log, found.record);
    const ms = performance.now() - t0;
    io.out(`${replay.body}\n`);
    const s = replay.stats;
    const tick =
      found.tick === undefined ? '' : ` (frame of tick quotes/${found.tick.partition}@${found.tick.offset})`;
    const where = `quotes/${found.partition}@${found.offset}${tick}; ${s.books} books from ${s.bookRecordsFolded} records (${s.bookEntriesRead} entries read), ${s.venueRecordsFolded} venue records; ${ms.toFixed(0)} ms`;
    for (const note of replay.notes) io.err(`note: ${note}`);
    if (replay.identical) {
      io.err(`identical: sha256 ${replay.sha256} (${where})`);
      return 0;
    }
    io.err(`DIFFERENT: recorded sha256 ${found.record.responseSha256}, replayed ${replay.sha256} (${where})`);
    for (const line of formatDiff(replay.diff)) io.err(line);
    return 1;
  } finally {
    await log.close();
  }
}
