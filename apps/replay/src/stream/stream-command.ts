import { Command } from 'commander';
import { configOption } from '@app/config';
import { findStream, journalLookup, replayQuote, type StreamFrame } from '@app/audit';
import type { EventLog } from '@app/event-log';
import { frameAsQuote, type StreamCloseRecord, type StreamOpenRecord } from '@app/journal';
import type { CliContext } from '../cli/context';
import { logConfig, openReadLog } from '../cli/open-log';

interface StreamOptions {
  readonly dataDir?: string;
  readonly verify?: boolean;
  readonly json?: boolean;
  readonly scan?: boolean;
}

const HELP = `
Lists what the journal holds of one v2 stream (GET /stream, or /stream/route with envelope=v2):
its open record (the normalised request; the resume point the client claimed and the verdict it
was given), each frame in seq order (seq, tick, ticksSkipped, the tick's cause and the markets
that moved, the frame's requestId and the SHA-256 of its result bytes) and its close (last seq,
reason). The open and close are found by the streamId (through the requestId indexes unless
--scan); the frames by reading the whole stream topic. A seq missing between 1 and the last one
is reported. --verify replays each frame as 'replay quote <requestId>' does and says whether the
bytes are identical.

stdout: one line per record (--json: one JSON text per line: the stream_open record, one of
type frame per frame, the stream_close record).
stderr: the summary (frames, seq gaps, with --verify how many are identical).
Exit status: 0 the stream's frames are contiguous (and with --verify each is identical); 1 a seq
is missing or past the close's last seq, a frame cannot be read or replayed, or differs; 3
nothing is journalled for the streamId; 2 usage.

Examples:
  route-service replay stream 9b1d6c2e-...
  route-service replay stream 9b1d6c2e-... --verify
  route-service replay stream 9b1d6c2e-... --json --data-dir /var/lib/route/.data`;

/** `stream <streamId>`: list (and with --verify reproduce) a v2 stream's journalled frames. */
export function registerStream(program: Command, ctx: CliContext, done: (code: number) => void): void {
  program
    .command('stream')
    .summary("list a v2 stream's journalled open, frames and close; --verify replays every frame")
    .description('List the open record, every frame and the close of a v2 stream from the journal.')
    .argument('<streamId>', 'the streamId the server sent in `subscribed`')
    .addOption(configOption('replay', 'data-dir'))
    .option('--verify', "replay every frame (as 'replay quote' does) and compare its bytes")
    .option('--json', 'one JSON text per line instead of text')
    .option('--scan', 'find the open and close by reading their partition instead of the requestId index')
    .addHelpText('after', HELP)
    .action(async (streamId: string, o: StreamOptions) => done(await stream(streamId, o, ctx)));
}

async function stream(streamId: string, o: StreamOptions, ctx: CliContext): Promise<number> {
  const log = openReadLog(o.dataDir, ctx);
  const index = o.scan === true ? undefined : journalLookup(log, logConfig(o.dataDir, ctx).dataDir);
  try {
    const s = await findStream(log, streamId, index);
    if (s.open === null && s.close === null && s.frames.length === 0) {
      ctx.err(
        `no journal record of stream ${JSON.stringify(streamId)} (not a v2 streamId, or past the journal's retention)`,
      );
      return s.problems.length > 0 ? 1 : 3;
    }
    const print = (line: object, text: string): void =>
      ctx.out(`${o.json === true ? JSON.stringify(line) : text}\n`);
    let bad = s.problems.length;
    for (const p of s.problems) ctx.err(`problem: ${p}`);
    if (s.open !== null) print(s.open, openLine(s.open));
    let identical = 0;
    for (const f of s.frames) {
      const verdict = o.verify === true ? await verify(log, f) : null;
      if (verdict === 'identical') identical++;
      else if (verdict !== null || 'problem' in f.tick) bad++;
      print(frameJson(f, verdict), frameLine(f, verdict));
    }
    if (s.close !== null) print(s.close, closeLine(s.close));
    const missing = gaps(s.frames, s.close?.lastSeq ?? null);
    const late = s.close === null ? [] : s.frames.filter((f) => f.frame.stream.seq > s.close!.lastSeq);
    const verified = o.verify === true ? `, ${identical} of ${s.frames.length} identical` : '';
    ctx.err(
      `stream ${streamId}: ${s.frames.length} frame(s)${verified}; ${s.open === null ? 'no open record' : 'opened'}, ${s.close === null ? 'no close record (still open, or the service stopped)' : `closed at seq ${s.close.lastSeq}`}${missing.length > 0 ? `; seq missing from the journal: ${missing.join(', ')}` : ''}${late.length > 0 ? `; seq past the close: ${late.map((f) => f.frame.stream.seq).join(', ')}` : ''}`,
    );
    return bad > 0 || missing.length > 0 || late.length > 0 ? 1 : 0;
  } finally {
    await log.close();
  }
}

/** Replay a frame through its tick, as `replay quote` does: `identical`, or why not. */
async function verify(log: EventLog, f: StreamFrame): Promise<string> {
  if ('problem' in f.tick) return `not reproducible: ${f.tick.problem}`;
  const replay = await replayQuote(log, frameAsQuote(f.tick.record, f.frame));
  return replay.identical
    ? 'identical'
    : `DIFFERENT: recorded sha256 ${f.frame.responseSha256}, replayed ${replay.sha256}`;
}

/** The seqs from 1 to the last one (the close's or the highest journalled, whichever is higher) without a frame. */
function gaps(frames: readonly StreamFrame[], lastSeq: number | null): number[] {
  const seen = new Set(frames.map((f) => f.frame.stream.seq));
  const last = Math.max(lastSeq ?? 0, ...seen);
  const out: number[] = [];
  for (let seq = 1; seq <= last; seq++) if (!seen.has(seq)) out.push(seq);
  return out;
}

const iso = (ms: number): string => new Date(ms).toISOString();

function openLine(r: StreamOpenRecord): string {
  const q = r.request;
  const resume =
    r.resume === null || r.verdict === null
      ? 'no resume'
      : `resume ${r.resume.streamId}.${r.resume.seq}: ${r.verdict.resumed ? `resumed, missedFrames ${r.verdict.missedFrames}` : `refused (${r.verdict.reason})`}`;
  return `open  ${iso(r.at)} id ${r.id} on /${r.path}: ${q.from}->${q.to} ${q.amount} (exact ${q.exactSide}, ${q.strategy}); ${resume}`;
}

function frameJson(f: StreamFrame, verdict: string | null): object {
  const { seq, tick, ticksSkipped } = f.frame.stream;
  return {
    type: 'frame',
    seq,
    tick,
    ticksSkipped,
    cause: 'problem' in f.tick ? null : (f.tick.record.cause ?? null),
    requestId: f.frame.requestId,
    resultSha256: f.frame.responseSha256,
    at: `stream/${f.at.partition}@${f.at.offset}`,
    ...('problem' in f.tick ? { problem: f.tick.problem } : {}),
    ...(verdict === null ? {} : { verify: verdict }),
  };
}

function frameLine(f: StreamFrame, verdict: string | null): string {
  const { seq, tick, ticksSkipped } = f.frame.stream;
  const cause = 'problem' in f.tick ? f.tick.problem : causeText(f.tick.record.cause);
  return `frame seq ${seq} tick ${tick} skipped ${ticksSkipped} ${cause} requestId ${f.frame.requestId} sha256 ${f.frame.responseSha256}${verdict === null ? '' : ` ${verdict}`}`;
}

function causeText(
  cause: { readonly kind: string; readonly markets: readonly string[] } | undefined,
): string {
  if (cause === undefined) return 'cause -';
  return `cause ${cause.kind}${cause.markets.length > 0 ? ` (${cause.markets.join(',')})` : ''}`;
}

function closeLine(r: StreamCloseRecord): string {
  return `close ${iso(r.at)} lastSeq ${r.lastSeq} reason ${r.reason}`;
}
