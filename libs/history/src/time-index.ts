import { parseRecordLine, type EventRecord, type TopicName } from '@app/events';
import { nextTurn, type EventLog, type LogEntry } from '@app/event-log';
import type { VenuesGap } from '@app/live-feed';

/** Offsets per block of the time index: block i covers offsets [i*BLOCK, (i+1)*BLOCK). */
export const TIME_BLOCK = 256;
const READ_CHUNK = 4096;

/** Where one fold key's records lie in a partition (the time index's per-key summary). */
export interface KeyTimes {
  /** Offset of the key's first record. */
  first: number;
  /** The key's record with the greatest receivedAt (ties: the later offset). */
  bestAt: number;
  bestOffset: number;
  /**
   * A venue's reconnectCount where it changes along the log (a venue record may omit it; the
   * fold keeps the last one): the versioned read takes it from here instead of folding back.
   */
  counts?: { readonly offset: number; readonly value: number }[];
}

/**
 * The fold key of a record as the time index and the versioned reads name it: a book by its log
 * key (`exchangeId|symbol`), a market `market|exchangeId|symbol`, a venue `venue|exchangeId`
 * (market and venue records share the venues topic, keyed there by exchangeId).
 */
export function foldKeyOf(r: EventRecord): string {
  switch (r.type) {
    case 'book':
      return `${r.exchangeId}|${r.symbol}`;
    case 'market':
      return `market|${r.exchangeId}|${r.symbol}`;
    case 'venue':
      return `venue|${r.exchangeId}`;
  }
}

/**
 * receivedAt bounds of one partition, per block of TIME_BLOCK offsets, and per fold key where its
 * records lie. receivedAt need not grow along a partition (several ingestors with skewed clocks, a
 * clock step, an older recording appended later), so a block keeps both its min and its max: a
 * reader skips every block whose min is after the instant it wants (the suffix minima give by
 * binary search the offset after which no record is at or before it), and the prefix maxima tell
 * when no block below an offset can hold a later-stamped record.
 */
export class PartitionTimes {
  /** Per block: least and greatest receivedAt of its well-formed entries (Infinity/-Infinity when none). */
  readonly min: number[] = [];
  readonly max: number[] = [];
  /** Per fold key: its first record and its greatest-stamped record. */
  readonly keys = new Map<string, KeyTimes>();
  /** Venues topic: offsets never read (lost to damage) and the time of the entry before each. */
  private readonly holes: VenuesGap[] = [];
  /** Venues topic: the last entry read (its offset and time). */
  private lastEntry = -1;
  private lastAt = -Infinity;
  /** Offsets below this are indexed. */
  end = 0;
  /** First offset the log still held when indexing began (> 0 once retention removed older ones). */
  first: number | null = null;
  private suffixMin: number[] | null = null;
  private prefixMax: number[] | null = null;

  /** Least receivedAt of the partition (Infinity when it holds no record). */
  get least(): number {
    let m = Infinity;
    for (const v of this.min) if (v < m) m = v;
    return m;
  }

  /**
   * End (exclusive) of the last block that holds a record at or before `t`: no record from there
   * on is. Binary search over the suffix minima, which never decrease.
   */
  readableEnd(t: number): number {
    const s = (this.suffixMin ??= suffixMinima(this.min));
    let lo = 0;
    let hi = s.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (s[mid]! <= t) lo = mid + 1;
      else hi = mid;
    }
    return Math.min(this.end, lo * TIME_BLOCK);
  }

  /** Whether block `b` may hold a record at or before `t` (unindexed blocks may). */
  mayHold(b: number, t: number): boolean {
    return b >= this.min.length || this.min[b]! <= t;
  }

  /** Greatest receivedAt in blocks 0..b (-Infinity for b < 0; Infinity past the indexed blocks). */
  maxUpTo(b: number): number {
    if (b < 0) return -Infinity;
    const m = (this.prefixMax ??= prefixMaxima(this.max));
    return b < m.length ? m[b]! : Infinity;
  }

  /**
   * The gaps below `upTo` of a venues partition (docs/operations-log.md "A lost market or venue
   * record"), the entries not yet read at its end included.
   */
  venuesGaps(partition: number, upTo: number): VenuesGap[] {
    const out: VenuesGap[] = [];
    for (const g of this.holes)
      if (g.from < upTo) out.push({ partition, from: g.from, to: Math.min(g.to, upTo), after: g.after });
    if (upTo > this.lastEntry + 1)
      out.push({ partition, from: this.lastEntry + 1, to: upTo, after: this.lastAt });
    return out;
  }

  /** @internal An entry of the venues topic read at `offset` (valid or not: it fills its place). */
  venuesEntry(offset: number, at: number | null): void {
    if (offset > this.lastEntry + 1)
      this.holes.push({ partition: -1, from: this.lastEntry + 1, to: offset, after: this.lastAt });
    this.lastEntry = offset;
    if (at !== null) this.lastAt = at;
  }

  /** @internal */
  note(offset: number, at: number, key: string, reconnectCount?: number): void {
    const b = Math.floor(offset / TIME_BLOCK);
    while (this.min.length <= b) {
      this.min.push(Infinity);
      this.max.push(-Infinity);
    }
    if (at < this.min[b]!) this.min[b] = at;
    if (at > this.max[b]!) this.max[b] = at;
    this.suffixMin = null;
    this.prefixMax = null;
    let k = this.keys.get(key);
    if (k === undefined) this.keys.set(key, (k = { first: offset, bestAt: at, bestOffset: offset }));
    else if (at > k.bestAt || (at === k.bestAt && offset > k.bestOffset)) {
      k.bestAt = at;
      k.bestOffset = offset;
    }
    if (reconnectCount !== undefined && k.counts?.at(-1)?.value !== reconnectCount)
      (k.counts ??= []).push({ offset, value: reconnectCount });
  }
}

function prefixMaxima(max: readonly number[]): number[] {
  const out = new Array<number>(max.length);
  let m = -Infinity;
  for (let i = 0; i < max.length; i++) out[i] = m = Math.max(m, max[i]!);
  return out;
}

function suffixMinima(min: readonly number[]): number[] {
  const out = new Array<number>(min.length);
  let m = Infinity;
  for (let i = min.length - 1; i >= 0; i--) out[i] = m = Math.min(m, min[i]!);
  return out;
}

/**
 * The time index of a log's record topics, built by reading each partition once and extended
 * as the log grows (the log is append-only, so what is indexed stays true). Held in memory by
 * the process that reads (the API builds it in the background at start, then reads only the new tail).
 */
export class TimeIndex {
  private readonly parts = new Map<string, PartitionTimes>();
  private readonly pending = new Map<string, Promise<PartitionTimes>>();

  constructor(private readonly log: EventLog) {}

  /** The index of one partition, covering at least the offsets below `upTo`. */
  async partition(topic: TopicName, partition: number, upTo: number): Promise<PartitionTimes> {
    const id = `${topic}/${partition}`;
    let p = this.parts.get(id);
    if (p === undefined) this.parts.set(id, (p = new PartitionTimes()));
    if (p.end >= upTo) return p;
    // One catch-up at a time per partition: concurrent asOf requests share it.
    for (let running = this.pending.get(id); running !== undefined; running = this.pending.get(id))
      await running;
    if (p.end >= upTo) return p;
    const job = this.catchUp(topic, partition, p, upTo);
    this.pending.set(id, job);
    try {
      return await job;
    } finally {
      this.pending.delete(id);
    }
  }

  private async catchUp(topic: TopicName, partition: number, p: PartitionTimes, upTo: number) {
    for (let from = p.end; from < upTo;) {
      const entries = await this.log.read(topic, partition, from, Math.min(READ_CHUNK, upTo - from));
      await nextTurn();
      if (entries.length === 0) break;
      p.first ??= entries[0]!.offset;
      for (const e of entries) {
        if (e.offset >= upTo) break;
        const timed = topic === 'books' ? bookTimes(e) : recordTimes(e);
        if (timed !== null) p.note(e.offset, timed.at, timed.key, timed.reconnectCount);
        if (topic === 'venues') p.venuesEntry(e.offset, timed?.at ?? null);
      }
      from = Math.min(upTo, entries[entries.length - 1]!.offset + 1);
    }
    p.end = Math.max(p.end, upTo);
    return p;
  }
}

/** A books entry's time and fold key (its log key) without parsing it when its text allows. */
function bookTimes(e: LogEntry): { at: number; key: string; reconnectCount?: number } | null {
  const at = receivedAtOf(e.value);
  return at === null ? null : { at, key: e.key };
}

/** A venues entry's time and fold key: parsed (a small topic; the key needs the record's type). */
function recordTimes(e: LogEntry): { at: number; key: string; reconnectCount?: number } | null {
  const parsed = parseRecordLine(e.value);
  if (!parsed.ok) return null;
  const r = parsed.record;
  const at = r.receivedAt;
  const key = foldKeyOf(r);
  return r.type === 'venue' && r.reconnectCount !== undefined
    ? { at, key, reconnectCount: r.reconnectCount }
    : { at, key };
}

/** A venue's reconnectCount after its record at `offset` (the last one given at or before it). */
export function reconnectCountAt(kt: KeyTimes, offset: number): number {
  let value = 0;
  for (const c of kt.counts ?? []) {
    if (c.offset > offset) break;
    value = c.value;
  }
  return value;
}

const RECEIVED_AT = /"receivedAt"\s*:\s*(-?\d+)(?=\s*[,}])/g;

/**
 * An entry's receivedAt, read without parsing the record when the text names it once: a bare `"`
 * never occurs inside a JSON string, so the match is the record's own key. Otherwise the record
 * is parsed (malformed entries are skipped by every fold, so they bound nothing). A malformed
 * entry read the fast way only widens a block's bounds, which never hides a record.
 */
export function receivedAtOf(value: string): number | null {
  RECEIVED_AT.lastIndex = 0;
  const first = RECEIVED_AT.exec(value);
  if (first !== null && RECEIVED_AT.exec(value) === null) {
    const at = Number(first[1]);
    if (Number.isSafeInteger(at)) return at;
  }
  const parsed = parseRecordLine(value);
  return parsed.ok ? parsed.record.receivedAt : null;
}

const shared = new WeakMap<EventLog, TimeIndex>();

/** The one time index of `log` in this process. */
export function timeIndexOf(log: EventLog): TimeIndex {
  let index = shared.get(log);
  if (index === undefined) shared.set(log, (index = new TimeIndex(log)));
  return index;
}

/**
 * Build the time index of `log`'s record topics up to their current ends, in the background (the
 * API at start, so the first asOf does not pay for reading the whole log; it yields between chunks).
 */
export async function warmTimeIndex(log: EventLog): Promise<void> {
  const index = timeIndexOf(log);
  for (const topic of ['books', 'venues'] as const) {
    const ends = await log.highWatermarks(topic);
    for (const [p, end] of ends.entries()) await index.partition(topic, p, end);
  }
}
