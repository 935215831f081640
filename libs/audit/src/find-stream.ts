import { STREAM_LEDGER } from '@app/events';
import { partitionFor, type EventLog, type LogEntry } from '@app/event-log';
import type { FrameRecord, QuoteRecord, StreamCloseRecord, StreamOpenRecord } from '@app/journal';
import { indexOf } from './find-quote';
import { parseJournalValueLine } from './journal-parse';
import { scanPartition } from './journal-scan';
import type { JournalLookups, KeyLookup } from './key-lookup';

/** Where an entry of the `stream` topic is. */
export interface StreamAt {
  readonly partition: number;
  readonly offset: number;
}

/** One frame of a stream as journalled, with its tick's record (or why it has none). */
export interface StreamFrame {
  readonly at: StreamAt;
  readonly frame: FrameRecord & { readonly stream: NonNullable<FrameRecord['stream']> };
  readonly tick: { readonly at: StreamAt; readonly record: QuoteRecord } | { readonly problem: string };
}

/** What the journal holds of one v2 stream: its open and close (null: not journalled), its frames by seq. */
export interface JournalStream {
  readonly open: StreamOpenRecord | null;
  readonly close: StreamCloseRecord | null;
  readonly frames: readonly StreamFrame[];
  /** Entries of the stream's key that do not read as its open or close. */
  readonly problems: readonly string[];
}

/**
 * A v2 stream from the journal's `stream` topic (docs/replay.md "v2 streams"): its open and close
 * by key (through the index when given), its frames by reading the whole topic (a frame is keyed
 * by its own requestId; only entries whose text names the streamId are parsed), then each frame's
 * tick by key. Frames are in seq order (ties: journal order).
 */
export async function findStream(
  log: EventLog,
  streamId: string,
  index?: KeyLookup | JournalLookups,
): Promise<JournalStream> {
  const ix = indexOf(index, 'stream');
  const { open, close, problems } = await findStreamEnds(log, streamId);
  const found: { at: StreamAt; frame: StreamFrame['frame'] }[] = [];
  const n = await log.partitions('stream');
  for (let p = 0; p < n; p++)
    for await (const e of scanPartition(log, 'stream', p)) {
      if (!e.value.includes(streamId)) continue;
      const parsed = parseJournalValueLine(e.value);
      if (!parsed.ok || parsed.record.type !== 'quote_frame') continue;
      const frame = parsed.record;
      if (frame.stream?.streamId === streamId)
        found.push({ at: { partition: p, offset: e.offset }, frame: { ...frame, stream: frame.stream } });
    }
  found.sort((a, b) => a.frame.stream.seq - b.frame.stream.seq);
  const ticks = await ticksOf(log, new Set(found.map((f) => f.frame.tickId)), ix);
  const frames = found.map(({ at, frame }) => ({
    at,
    frame,
    tick: ticks.get(frame.tickId) ?? { problem: `its stream tick ${frame.tickId} is not in the journal` },
  }));
  return { open, close, frames, problems };
}

/** A stream's open and close records (the newest of each), and entries of its key that are neither. */
export interface StreamEnds {
  readonly open: StreamOpenRecord | null;
  readonly close: StreamCloseRecord | null;
  readonly problems: readonly string[];
}

/**
 * A stream's open and close from the stream ledger topic, by its key: its partition read newest
 * entries first, at most `scanLimit` of them (a service answering a resume reads only the recent
 * ledger: older closes are past the resume window).
 */
export async function findStreamEnds(
  log: EventLog,
  streamId: string,
  scanLimit = Infinity,
): Promise<StreamEnds> {
  let open: StreamOpenRecord | null = null;
  let close: StreamCloseRecord | null = null;
  const problems: string[] = [];
  for (const e of await keyed(log, streamId, scanLimit)) {
    const parsed = parseJournalValueLine(e.value);
    const r = parsed.ok ? parsed.record : null;
    if (r?.type === 'stream_open') open = r;
    else if (r?.type === 'stream_close') close = r;
    else
      problems.push(
        `${STREAM_LEDGER}/${e.partition}@${e.offset}: ${parsed.ok ? 'not a stream open or close' : parsed.error.message}`,
      );
  }
  return { open, close, problems };
}

const CHUNK = 4096;

/** Every entry keyed `key` in the stream ledger, oldest first, of the newest `limit` of its partition. */
async function keyed(log: EventLog, key: string, limit: number): Promise<LogEntry[]> {
  const p = partitionFor(key, await log.partitions(STREAM_LEDGER));
  const end = (await log.highWatermarks(STREAM_LEDGER))[p] ?? 0;
  const stop = Number.isFinite(limit) ? Math.max(0, end - limit) : 0;
  const out: LogEntry[] = [];
  for (let to = end; to > stop;) {
    const from = Math.max(stop, to - CHUNK);
    const entries = await log.read(STREAM_LEDGER, p, from, to - from);
    for (let i = entries.length - 1; i >= 0; i--) if (entries[i]!.key === key) out.push(entries[i]!);
    // Retention may have removed entries: go on below the first one actually read.
    to = entries.length > 0 && entries[0]!.offset < to ? Math.min(from, entries[0]!.offset) : from;
  }
  return out.reverse();
}

/** The newest record of each tick id: by key through the index, else in one pass over their partitions. */
async function ticksOf(
  log: EventLog,
  ids: ReadonlySet<string>,
  ix: KeyLookup | undefined,
): Promise<Map<string, StreamFrame['tick']>> {
  const entries = new Map<string, LogEntry>();
  if (ix !== undefined) {
    for (const id of ids) {
      const e = (await ix.entries(id)).entries.at(-1);
      if (e !== undefined) entries.set(id, e);
    }
  } else {
    const n = await log.partitions('stream');
    const partitions = new Set([...ids].map((id) => partitionFor(id, n)));
    for (const p of [...partitions].sort((a, b) => a - b))
      for await (const e of scanPartition(log, 'stream', p)) if (ids.has(e.key)) entries.set(e.key, e);
  }
  const out = new Map<string, StreamFrame['tick']>();
  for (const [id, e] of entries) {
    const parsed = parseJournalValueLine(e.value);
    const at = { partition: e.partition, offset: e.offset };
    out.set(
      id,
      parsed.ok && parsed.record.type === 'quote' && parsed.record.kind === 'stream_tick'
        ? { at, record: parsed.record }
        : {
            problem: `its stream tick ${id} at stream/${at.partition}@${at.offset} is not a valid stream tick record`,
          },
    );
  }
  return out;
}
