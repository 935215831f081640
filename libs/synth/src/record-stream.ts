import {
  recordKey,
  type BookRecord,
  type EventRecord,
  type Level,
  type MarketRecord,
  type VenueRecord,
} from '@app/events';
import type { AppendEntry } from '@app/event-log';
import { seeded } from './random';

/** Log entries for records, snapshots marked (what logSink appends). */
export function toEntries(records: readonly EventRecord[]): AppendEntry[] {
  return records.map((r) => ({
    key: recordKey(r),
    value: JSON.stringify(r),
    snapshot: r.type === 'book' && r.snapshot,
  }));
}

/** A synthetic but valid record stream: markets and venues first, then book snapshots and deltas. */
export interface StreamSpec {
  readonly venues: number;
  readonly symbolsPerVenue: number;
  /** Book records to generate (snapshots included). */
  readonly bookRecords: number;
  /** Levels per side in snapshots; levels per record in deltas (split across sides). */
  readonly levels: number;
  /** A book gets a snapshot every this many of its records (its first record is always one). */
  readonly snapshotEvery: number;
  /** receivedAt of the first record; later records advance by `stepMs`. */
  readonly startAt: number;
  readonly stepMs?: number;
  readonly seed?: number;
}

/** Deterministic PRNG (mulberry32): the same spec gives the same bytes. */
const rng = seeded;

const BASES = ['BTC', 'ETH', 'SOL', 'XRP', 'ADA', 'DOGE', 'DOT', 'LTC', 'AVAX', 'LINK', 'ATOM', 'TRX'];

export function venueId(i: number): string {
  return `venue${String(i).padStart(2, '0')}`;
}

/** Market and venue records for every generated book. */
export function listingRecords(spec: StreamSpec): EventRecord[] {
  const out: EventRecord[] = [];
  for (let v = 0; v < spec.venues; v++) {
    const exchangeId = venueId(v);
    const venue: VenueRecord = {
      v: 1,
      type: 'venue',
      exchangeId,
      certified: true,
      connected: true,
      lastError: null,
      receivedAt: spec.startAt,
    };
    out.push(venue);
    for (let s = 0; s < spec.symbolsPerVenue; s++) {
      const base = BASES[s % BASES.length]! + (s >= BASES.length ? String(s) : '');
      const market: MarketRecord = {
        v: 1,
        type: 'market',
        exchangeId,
        symbol: `${base}/USDT`,
        base,
        quote: 'USDT',
        takerFeeRate: 0.001,
        receivedAt: spec.startAt,
      };
      out.push(market);
    }
  }
  return out;
}

/** Book records, interleaved across books in a seeded random order, each book in sequence. */
export function* bookRecords(spec: StreamSpec): Generator<BookRecord> {
  const random = rng(spec.seed ?? 42);
  const books = spec.venues * spec.symbolsPerVenue;
  const seq = new Array<number>(books).fill(0);
  const mids = Array.from({ length: books }, (_, i) => 100 + (i % 97) * 10);
  const step = spec.stepMs ?? 1;
  for (let i = 0; i < spec.bookRecords; i++) {
    const b = Math.floor(random() * books);
    const v = Math.floor(b / spec.symbolsPerVenue);
    const s = b % spec.symbolsPerVenue;
    const base = BASES[s % BASES.length]! + (s >= BASES.length ? String(s) : '');
    const snapshot = seq[b]! % spec.snapshotEvery === 0;
    const mid = mids[b]!;
    const tick = 0.01;
    let bids: Level[];
    let asks: Level[];
    if (snapshot) {
      bids = Array.from(
        { length: spec.levels },
        (_, k) => [round(mid - tick * (k + 1)), round(1 + random() * 5)] as const,
      );
      asks = Array.from(
        { length: spec.levels },
        (_, k) => [round(mid + tick * (k + 1)), round(1 + random() * 5)] as const,
      );
    } else {
      bids = [];
      asks = [];
      for (let k = 0; k < spec.levels; k++) {
        const depth = 1 + Math.floor(random() * spec.levels);
        const amount = random() < 0.2 ? 0 : round(random() * 5 + 0.001);
        if (k % 2 === 0) bids.push([round(mid - tick * depth), amount]);
        else asks.push([round(mid + tick * depth), amount]);
      }
    }
    yield {
      v: 1,
      type: 'book',
      exchangeId: venueId(v),
      symbol: `${base}/USDT`,
      snapshot,
      bids,
      asks,
      sequence: seq[b]!,
      exchangeTimestamp: null,
      receivedAt: spec.startAt + i * step,
    };
    seq[b] = seq[b]! + 1;
  }
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
