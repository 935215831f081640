import { byCodeUnit, type EventRecord, type TopicName } from '@app/events';
import type { EventLog, LogEntry, TurnBudget } from '@app/event-log';
import { decodeEntry } from '@app/live-feed';
import { foldKeyOf, receivedAtOf, TIME_BLOCK, type KeyTimes, type PartitionTimes } from './time-index';

/**
 * A record after which nothing older of its key matters: a book snapshot, any market record, a
 * venue record that carries reconnectCount (a venue record may omit it; the fold keeps the last one).
 */
export function isBase(r: EventRecord): boolean {
  return r.type === 'book' ? r.snapshot : r.type === 'market' || r.reconnectCount !== undefined;
}

/** The first time window searched back from the instant; it doubles until every key is found. */
const FIRST_WINDOW_MS = 2_000;
/** Blocks read in one call when folding back from a target (grows from 1 up to this). */
const MAX_RUN_BLOCKS = 32;

export interface Version {
  readonly at: number;
  readonly offset: number;
}

/** Whether version a beats b: the greater receivedAt, ties to the later position. */
const beats = (a: Version, b: Version | null): boolean =>
  b === null || a.at > b.at || (a.at === b.at && a.offset > b.offset);

/**
 * Blocks of one partition below `upTo`, each read from the log at most once per scan; a books
 * entry is named by its log key, a venues entry decoded once to learn its fold key.
 */
class Blocks {
  private readonly cache = new Map<number, LogEntry[]>();
  private readonly decoded = new Map<number, EventRecord | null>();
  entriesRead = 0;

  constructor(
    private readonly log: EventLog,
    private readonly topic: TopicName,
    private readonly partition: number,
    private readonly upTo: number,
  ) {}

  has(b: number): boolean {
    return this.cache.has(b);
  }

  /** Entries of block b (ascending), reading the run [from, b] of blocks not read yet in one go. */
  async block(b: number, from = b): Promise<LogEntry[]> {
    const hit = this.cache.get(b);
    if (hit !== undefined) return hit;
    let lo = b;
    while (lo > from && !this.cache.has(lo - 1)) lo--;
    const end = Math.min(this.upTo, (b + 1) * TIME_BLOCK);
    for (let k = lo; k <= b; k++) this.cache.set(k, []);
    for (let next = lo * TIME_BLOCK; next < end;) {
      const entries = await this.log.read(this.topic, this.partition, next, end - next);
      if (entries.length === 0) break;
      for (const e of entries) {
        if (e.offset >= end) break;
        this.cache.get(Math.floor(e.offset / TIME_BLOCK))?.push(e);
        this.entriesRead++;
      }
      const last = entries[entries.length - 1]!.offset;
      if (last >= end - 1) break;
      next = last + 1;
    }
    return this.cache.get(b)!;
  }

  /** The record of an entry (null: not a valid record), parsed once. */
  record(e: LogEntry): EventRecord | null {
    let r = this.decoded.get(e.offset);
    if (r === undefined) {
      const d = decodeEntry(e);
      r = d.ok ? d.record : null;
      this.decoded.set(e.offset, r);
    }
    return r;
  }

  /** receivedAt of an entry (books: without parsing when the text allows; checked when folded). */
  timeOf(e: LogEntry): number | null {
    if (this.topic === 'books') return receivedAtOf(e.value);
    return this.record(e)?.receivedAt ?? null;
  }

  foldKey(e: LogEntry): string | null {
    if (this.topic === 'books') return e.key;
    const r = this.record(e);
    return r === null ? null : foldKeyOf(r);
  }
}

interface KeyScan {
  readonly times: KeyTimes;
  /** Offsets found not to hold a valid record of the key (never a target again). */
  readonly bad: Set<number>;
  target: Version | null;
}

/**
 * The versioned read of one partition (docs/replay.md "The books at an instant"): for each key of
 * `keys` with a record below `upTo` stamped at or before `t`, the record with the greatest
 * receivedAt (ties: the later position) and the records of the key from its latest base at or
 * before that record up to it, in log order: folding them gives the state after that record.
 * Keys with no such record are left out; a venue's is its record alone (its reconnectCount, when
 * it omits one, is the caller's to take from the index). The time index bounds what is read: a key whose
 * greatest-stamped record qualifies is found at once; the others are searched in time windows
 * back from t, reading only the blocks whose receivedAt range meets the window.
 */
export async function versionedScan(
  log: EventLog,
  topic: TopicName,
  partition: number,
  upTo: number,
  t: number,
  times: PartitionTimes,
  keys: ReadonlyMap<string, KeyTimes>,
  turn: TurnBudget,
): Promise<{
  records: Map<string, EventRecord[]>;
  /** Per key read, where its record at t lies (its receivedAt and offset). */
  targets: Map<string, Version>;
  entriesRead: number;
}> {
  const blocks = new Blocks(log, topic, partition, upTo);
  const scans = new Map<string, KeyScan>();
  for (const [key, kt] of keys)
    if (kt.first < upTo) scans.set(key, { times: kt, bad: new Set(), target: null });
  const records = new Map<string, EventRecord[]>();
  for (let pending = scans; pending.size > 0;) {
    await findTargets(blocks, times, t, upTo, pending, turn);
    pending = await foldBack(blocks, pending, records, turn);
  }
  const targets = new Map<string, Version>();
  for (const key of records.keys()) targets.set(key, scans.get(key)!.target!);
  return { records, targets, entriesRead: blocks.entriesRead };
}

/** Set each key's target: its greatest-stamped record at or before t below upTo (none: dropped). */
async function findTargets(
  blocks: Blocks,
  times: PartitionTimes,
  t: number,
  upTo: number,
  scans: Map<string, KeyScan>,
  turn: TurnBudget,
): Promise<void> {
  const searching = new Map<string, { scan: KeyScan; cand: Version | null }>();
  let lowest = Infinity;
  for (const [key, scan] of scans) {
    const { bestAt, bestOffset, first } = scan.times;
    if (bestOffset < upTo && bestAt <= t && !scan.bad.has(bestOffset))
      scan.target = { at: bestAt, offset: bestOffset };
    else {
      searching.set(key, { scan, cand: null });
      lowest = Math.min(lowest, first);
    }
  }
  if (searching.size === 0) return;
  const top = Math.floor((Math.min(upTo, times.readableEnd(t)) - 1) / TIME_BLOCK);
  const bottom = Math.floor(lowest / TIME_BLOCK);
  const scanned = new Set<number>();
  for (let window = FIRST_WINDOW_MS; ; window *= 2) {
    const lo = t - window <= times.least ? -Infinity : t - window;
    for (let b = top; b >= bottom; b--) {
      // No block at or below b holds a record stamped at or after lo.
      if (times.maxUpTo(b) < lo) break;
      if (scanned.has(b) || !times.mayHold(b, t) || times.max[b]! < lo) continue;
      scanned.add(b);
      // Read the run of wanted blocks below b in the same call.
      let from = b;
      while (from > bottom && times.mayHold(from - 1, t) && times.max[from - 1]! >= lo && from > b - 31)
        from--;
      for (const e of await blocks.block(b, from)) {
        if (turn.due()) await turn.next();
        const key = blocks.foldKey(e);
        const s = key === null ? undefined : searching.get(key);
        if (s === undefined || s.scan.bad.has(e.offset)) continue;
        const at = blocks.timeOf(e);
        if (at === null || at > t) continue;
        const v = { at, offset: e.offset };
        if (beats(v, s.cand)) s.cand = v;
      }
    }
    // Every block meeting [lo, t] is read: a candidate stamped at or after lo cannot be beaten.
    for (const [key, s] of searching)
      if (lo === -Infinity || (s.cand !== null && s.cand.at >= lo)) {
        if (s.cand === null) scans.delete(key);
        else s.scan.target = s.cand;
        searching.delete(key);
      }
    if (searching.size === 0) return;
  }
}

/**
 * Read back from each target to the key's latest base at or before it, in log order. Returns the
 * keys whose target turned out not to be a valid record (searched again without it).
 */
async function foldBack(
  blocks: Blocks,
  scans: Map<string, KeyScan>,
  out: Map<string, EventRecord[]>,
  turn: TurnBudget,
): Promise<Map<string, KeyScan>> {
  const retry = new Map<string, KeyScan>();
  const order = [...scans].filter(([, s]) => s.target !== null);
  order.sort((a, b) => b[1].target!.offset - a[1].target!.offset || byCodeUnit(a[0], b[0]));
  const active = new Map<string, { scan: KeyScan; recs: EventRecord[] }>();
  let next = 0;
  let run = 1;
  for (let b = Infinity; next < order.length || active.size > 0; b--) {
    if (active.size === 0) {
      b = Math.min(b, Math.floor(order[next]![1].target!.offset / TIME_BLOCK));
      run = 1;
    }
    while (next < order.length && Math.floor(order[next]![1].target!.offset / TIME_BLOCK) >= b) {
      const [key, scan] = order[next++]!;
      active.set(key, { scan, recs: [] });
    }
    const entries = await blocks.block(b, Math.max(0, b - run + 1));
    run = Math.min(MAX_RUN_BLOCKS, run * 2);
    for (let i = entries.length - 1; i >= 0; i--) {
      if (turn.due()) await turn.next();
      const e = entries[i]!;
      const key = blocks.foldKey(e);
      const a = key === null ? undefined : active.get(key);
      if (a === undefined || e.offset > a.scan.target!.offset) continue;
      const r = blocks.record(e);
      if (r === null) {
        if (e.offset === a.scan.target!.offset) {
          // The index read its time without parsing it: not a record, so not a version.
          a.scan.bad.add(e.offset);
          a.scan.target = null;
          retry.set(key!, a.scan);
          active.delete(key!);
        }
        continue;
      }
      a.recs.push(r);
      // A venue record is taken alone: the caller gives it its reconnectCount from the index.
      if (isBase(r) || r.type === 'venue') {
        out.set(key!, a.recs.reverse());
        active.delete(key!);
      }
    }
    // Below a key's first record nothing of it is left: fold from its first record.
    for (const [key, a] of active)
      if (b * TIME_BLOCK <= a.scan.times.first) {
        out.set(key, a.recs.reverse());
        active.delete(key);
      }
    if (b <= 0 && active.size > 0) {
      for (const [key, a] of active) out.set(key, a.recs.reverse());
      active.clear();
    }
  }
  return retry;
}
