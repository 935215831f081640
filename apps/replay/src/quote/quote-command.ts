import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EventLog } from '@app/log';
import { parseArgs, UsageError } from '../cli/args';
import { findQuote, formatDiff, replayQuote, type QuoteReplay } from '@app/audit';

export interface CommandIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/** The response file's bytes are hashed as they are: read them as UTF-8 text without changes. */
const MAX_RESPONSE_FILE = 64 * 1024 * 1024;

/**
 * `quote <requestId> [--response FILE]`: print the recomputed response on stdout, the verdict on
 * stderr; exit 0 only when the bytes hash to the recorded SHA-256, 1 when they differ, 3 when the
 * requestId is not in the journal. FILE is the response as the client received it: the field
 * diff is taken against it (once its hash matches the record) when the record holds no response.
 */
export async function quoteCommand(
  argv: readonly string[],
  openLog: (args: ReturnType<typeof parseArgs>) => EventLog,
  io: CommandIo,
  cwd = process.cwd(),
): Promise<number> {
  const args = parseArgs(argv, ['data-dir', 'response']);
  if (args.positional.length !== 1)
    throw new UsageError('usage: quote <requestId> [--response FILE] [--data-dir DIR]');
  const requestId = args.positional[0]!;
  const responseFile = args.flags.get('response');
  const received = responseFile === undefined ? undefined : readResponse(resolve(cwd, responseFile));
  const t0 = performance.now();
  const log = openLog(args);
  try {
    const found = await findQuote(log, requestId);
    if (found === null) {
      io.err(
        `no journal record for requestId ${JSON.stringify(requestId)} (replays and the demo journal into ./.data-replay: add --data-dir .data-replay for those)`,
      );
      return 3;
    }
    const replay = await replayQuote(log, found.record, received === undefined ? {} : { received });
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
    const r = found.record;
    io.err(
      `DIFFERENT: recorded sha256 ${r.responseSha256}, replayed ${replay.sha256} (recorded ${r.responseBytes} bytes, replayed ${replay.bytes}; ${where})`,
    );
    for (const line of explainDiff(replay, requestId)) io.err(line);
    return 1;
  } finally {
    await log.close();
  }
}

/** The field diff, or why there is none and what the auditor can do to get one. */
function explainDiff(replay: QuoteReplay, requestId: string): string[] {
  if (replay.diffBasis !== null) {
    const against = replay.diffBasis === 'received' ? 'the response file' : 'the stored response';
    return [`fields that differ (${against} -> replayed):`, ...formatDiff(replay.diff)];
  }
  return [
    'no field diff: the record holds the response hash and length, not the response (the journal ran without JOURNAL_RESPONSES=true).',
    `To see which fields differ: pass the response as the client received it, \`quote ${requestId} --response <file>\` (checked against the recorded hash, then diffed),`,
    'or run the service with JOURNAL_RESPONSES=true so that new records keep the whole response.',
  ];
}

function readResponse(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--response: cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (text.length > MAX_RESPONSE_FILE) throw new UsageError(`--response: ${path} is larger than 64 MiB`);
  return text;
}
