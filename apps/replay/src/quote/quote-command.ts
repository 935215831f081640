import { errorMessage } from '@app/retry';
import { UsageError } from '@app/config';
import { resolve } from 'node:path';
import { configOption } from '@app/config';
import { Command, Option } from 'commander';
import {
  findQuotes,
  findStreamEnds,
  formatDiff,
  journalHorizonOf,
  journalLookup,
  replayQuote,
  type JournalLookups,
  type JournalOccurrence,
  type KeyEntries,
  type KeyLookup,
  type QuoteReplay,
} from '@app/audit';
import type { EventLog } from '@app/event-log';
import { integer } from '../cli/args';
import type { CliContext } from '../cli/context';
import { readCapped } from '../cli/read-capped';
import { logConfig, openReadLog } from '../cli/open-log';

interface QuoteOptions {
  readonly dataDir?: string;
  readonly occurrence?: number;
  readonly list?: boolean;
  readonly response?: string;
  readonly scan?: boolean;
}

/** The response file's bytes are hashed as they are: read as UTF-8 text without changes. */
const MAX_RESPONSE_FILE = 64 * 1024 * 1024;

const HELP = `
Each requestId is looked up in the journal (the quotes topic for REST answers, the stream topic
for stream frames) through the requestId indexes (on Kafka the ones the API replicas publish beside
the journal, readable from any machine; on the embedded log the ones in the data directory), then
the entries the indexes do not cover yet; --scan reads the requestId's whole journal partitions
instead (same answer, slower). Every journal record it has is listed (a client
may reuse an x-request-id, so one id can have several quotes, numbered #1 oldest first) and each
is replayed unless --occurrence picks one. Ids come from the arguments, or one per line from
standard input when none is given or one is '-' (blank lines and lines starting with # skipped).

stdout: each recomputed response, one JSON text per line. stderr: per replay 'identical: sha256
...' or 'DIFFERENT: ...' with both hashes and lengths, and a field-level diff against the stored
response (journal run with JOURNAL_RESPONSES=true) or against --response FILE, the response as the
client received it (used once its hash matches the record).
Exit status: 0 every replay identical; 1 one differs or cannot be replayed; 3 a requestId is not
journalled (and none differs; when retention has removed older records, the message names the
journal's horizon); 2 usage.

Examples:
  route-service replay quote 4f1c2d...
  route-service replay quote id-1 id-2 --data-dir /var/lib/route/.data
  grep -o '"requestId":"[^"]*"' client.log | cut -d'"' -f4 | route-service replay quote -
  route-service replay quote reused-id --list
  route-service replay quote reused-id --occurrence 2
  route-service replay quote 4f1c2d... --response saved-answer.json`;

/** `quote [requestIds...]`: replay journalled quotes byte for byte. */
export function registerQuote(program: Command, ctx: CliContext, done: (code: number) => void): void {
  program
    .command('quote')
    .summary('recompute journalled quotes; exit 0 only when every one is byte-identical')
    .description('Rebuild the books each journalled quote saw, re-solve it, and compare the bytes.')
    .argument('[requestIds...]', "requestIds to replay ('-' or none: read them from stdin)")
    .addOption(configOption('replay', 'data-dir'))
    .addOption(
      new Option('--occurrence <n>', 'replay only the n-th record of each requestId (1 = oldest)').argParser(
        integer(1, 1_000_000),
      ),
    )
    .option('--list', 'list every journal record of each requestId without replaying')
    .option('--response <file>', 'the response as the client received it: the field diff is taken against it')
    .option('--scan', "read the requestId's whole journal partition instead of the requestId index")
    .addHelpText('after', HELP)
    .action(async (ids: string[], o: QuoteOptions) => done(await quote(ids, o, ctx)));
}

async function requestIds(args: readonly string[], ctx: CliContext): Promise<string[]> {
  if (args.length > 0 && !args.includes('-')) return [...args];
  const text = await ctx.stdin();
  if (text === null)
    throw new UsageError(
      'quote needs requestIds: as arguments, or one per line on standard input (quote - < ids.txt)',
    );
  const fromStdin = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const ids = args.length === 0 ? fromStdin : args.flatMap((a) => (a === '-' ? fromStdin : [a]));
  if (ids.length === 0) throw new UsageError('quote: no requestIds on standard input');
  return ids;
}

async function quote(args: readonly string[], o: QuoteOptions, ctx: CliContext): Promise<number> {
  const ids = await requestIds(args, ctx);
  const received = o.response === undefined ? undefined : readResponse(resolve(ctx.cwd, o.response));
  const log = openReadLog(o.dataDir, ctx);
  // The requestId index (read only here; what it lacks is scanned), unless --scan.
  const index = o.scan === true ? undefined : journalLookup(log, logConfig(o.dataDir, ctx).dataDir);
  let worst = 0;
  try {
    for (const id of ids) {
      const code = await quoteOne(log, index, id, o, ctx, ids.length > 1, received);
      // A difference outranks a missing id, which outranks success.
      if (code === 1 || (code === 3 && worst === 0)) worst = code;
    }
  } finally {
    await log.close();
  }
  if (ids.length > 1) ctx.err(`${ids.length} requestIds: exit ${worst}`);
  return worst;
}

/** Where an entry is: `<topic>/<partition>@<offset>`. */
function at(o: { readonly topic: string; readonly partition: number; readonly offset: number }): string {
  return `${o.topic}/${o.partition}@${o.offset}`;
}

function describe(o: JournalOccurrence, k: number, n: number): string {
  const where = at(o);
  if (!o.ok) return `#${k}/${n} ${where}: ${o.problem}`;
  const r = o.record;
  const tick = o.tick === undefined ? '' : ` (frame of tick ${at(o.tick)})`;
  return `#${k}/${n} ${where}${tick}: ${r.kind} ${r.request.from}->${r.request.to} ${r.request.amount} ${r.request.strategy}, calculatedAt ${r.calculatedAt} (${new Date(r.calculatedAt).toISOString()}), status ${r.status ?? '-'}`;
}

async function quoteOne(
  log: EventLog,
  index: JournalLookups | undefined,
  id: string,
  o: QuoteOptions,
  ctx: CliContext,
  many: boolean,
  received: string | undefined,
): Promise<number> {
  const t0 = performance.now();
  const looked: KeyEntries[] = [];
  const found = await findQuotes(log, id, index === undefined ? undefined : recording(index, looked));
  const lookup =
    index === undefined
      ? 'journal partition read in full (--scan)'
      : `index: ${sum(looked, (l) => l.runs)} run(s) searched, ${sum(looked, (l) => l.scanned)} unindexed entries read`;
  if (found.length === 0) {
    ctx.err(await notFound(log, id));
    return 3;
  }
  const n = found.length;
  if (o.list === true) {
    for (const [i, occ] of found.entries()) ctx.out(`${id} ${describe(occ, i + 1, n)}\n`);
    return 0;
  }
  if (o.occurrence !== undefined && o.occurrence > n)
    throw new UsageError(`--occurrence ${o.occurrence}: requestId ${JSON.stringify(id)} has ${n} record(s)`);
  if (n > 1) {
    ctx.err(`requestId ${JSON.stringify(id)} was journalled ${n} times (a reused x-request-id):`);
    for (const [i, occ] of found.entries()) ctx.err(`  ${describe(occ, i + 1, n)}`);
  }
  const picked =
    o.occurrence === undefined
      ? found.map((f, i) => [f, i + 1] as const)
      : [[found[o.occurrence - 1]!, o.occurrence] as const];
  let worst = 0;
  for (const [occ, k] of picked) {
    const label = many || n > 1 ? `${id} #${k}/${n} ` : '';
    if (!occ.ok) {
      ctx.err(`NOT REPRODUCIBLE: ${label}${at(occ)}: ${occ.problem}`);
      worst = 1;
      continue;
    }
    const replay = await replayQuote(log, occ.record, received === undefined ? {} : { received });
    const ms = performance.now() - t0;
    ctx.out(`${replay.body}\n`);
    const s = replay.stats;
    const tick = occ.tick === undefined ? '' : ` (frame of tick ${at(occ.tick)})`;
    const where = `${at(occ)}${tick}; ${s.books} books from ${s.bookRecordsFolded} records (${s.bookEntriesRead} entries read), ${s.venueRecordsFolded} venue records; ${lookup}; ${ms.toFixed(0)} ms`;
    for (const note of replay.notes) ctx.err(`note: ${note}`);
    if (replay.identical) {
      ctx.err(`identical: ${label}sha256 ${replay.sha256} (${where})`);
      continue;
    }
    const r = occ.record;
    ctx.err(
      `DIFFERENT: ${label}recorded sha256 ${r.responseSha256}, replayed ${replay.sha256} (recorded ${r.responseBytes} bytes, replayed ${replay.bytes}; ${where})`,
    );
    for (const line of explainDiff(replay, id)) ctx.err(line);
    worst = 1;
  }
  return worst;
}

/**
 * Why an id has no record: when retention has cut the partitions it would be in, the journal's
 * horizon there (an id answered before it is gone); otherwise the likely wrong data directory.
 */
/** How much of the stream ledger's partition a not-found look-up reads for the hint (its newest entries). */
const STREAM_ID_LOOKUP = 65_536;

async function notFound(log: EventLog, id: string): Promise<string> {
  const cut = (await journalHorizonOf(log, id)).filter((h) => h.retainedFrom > 0);
  const head = `no journal record for requestId ${JSON.stringify(id)}`;
  // A v2 stream's id names its open and close, which are not results.
  const ends = await findStreamEnds(log, id, STREAM_ID_LOOKUP);
  if (ends.open !== null || ends.close !== null)
    return `${head}: ${JSON.stringify(id)} is a routestream.v2 stream, not a result (replay stream ${id} lists its frames)`;
  if (cut.length === 0)
    return `${head} (replays and the demo journal into ./.data-replay: add --data-dir .data-replay for those)`;
  const where = cut
    .map(
      (h) =>
        `${h.topic}/${h.partition} from offset ${h.retainedFrom}${h.at === null ? '' : `, calculatedAt ${h.at} (${new Date(h.at).toISOString()})`}`,
    )
    .join('; ');
  return `${head} within the journal's retention horizon: retention (LOG_RETENTION_MS, LOG_RETENTION_BYTES) has removed the oldest records of the partitions it would be in, which now start at ${where}. A quote answered before that is past the horizon and cannot be replayed.`;
}

/** `indexes`, noting what each look-up cost in `into` (for the verdict line). */
function recording(indexes: JournalLookups, into: KeyEntries[]): JournalLookups {
  const noted = (index: KeyLookup): KeyLookup => ({
    ...(index.topic === undefined ? {} : { topic: index.topic }),
    entries: async (key) => {
      const got = await index.entries(key);
      into.push(got);
      return got;
    },
  });
  return { quotes: noted(indexes.quotes), stream: noted(indexes.stream) };
}

const sum = <T>(xs: readonly T[], f: (x: T) => number): number => xs.reduce((s, x) => s + f(x), 0);

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
  try {
    return readCapped(path, MAX_RESPONSE_FILE);
  } catch (e) {
    throw new UsageError(`--response: cannot read ${path}: ${errorMessage(e)}`);
  }
}
