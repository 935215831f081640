import { expect } from 'vitest';
import type { Level } from '@app/events';
import type { WebSocket } from 'ws';
import { waitFor, type MemorySink, type RawBook } from './memory-sink';
import type { VenueReplay } from './venue-setups';

/**
 * The prices a depth-limited REST snapshot covers (its worst bid and worst ask): past them the
 * venue's answer says nothing, so a book synced from it is only comparable inside them.
 */
export interface Band {
  readonly bid: number;
  readonly ask: number;
}

/** What one book of a real-traffic proof must equal, and how much of the capture it must have carried. */
export interface ProvenBook {
  readonly fold: RawBook;
  readonly band?: Band;
  /** Delta records the book must have published (the capture's updates reached the log). */
  readonly minDeltas: number;
}

/** A real-traffic proof: the mock serving the capture, the VENUES_CONFIG entry, the expectations. */
export interface Proof extends Omit<VenueReplay, 'expected' | 'done'> {
  readonly books: ReadonlyMap<string, ProvenBook>;
  /** Given the ingestor's sink once it runs (a mock that paces itself on what the client has). */
  readonly attach?: (sink: MemorySink) => void;
}

/** A venue checked against a capture: proven (served as recorded) or on translated frames. */
export interface CaptureProof {
  readonly exchangeId: string;
  /** The capture and its date, as docs/venues.md's table names it. */
  readonly capture: string;
  /** What was reshaped to today's protocol (translated frames only; proofs serve the capture as recorded). */
  readonly translated?: string;
  readonly start: () => Promise<Proof>;
}

/** The expectations map of a proof. */
export const books = (entries: readonly [string, ProvenBook][]): ReadonlyMap<string, ProvenBook> =>
  new Map(entries);

/** Published depth per side (the ingestor's default, DEFAULT_DEPTH). */
const DEPTH = 500;

/**
 * Wait until every book published and the ingestor went quiet, then check each folded book
 * against the independent fold: the same levels (inside the band where the venue's snapshot was
 * depth-limited), in sync, contiguous sequences, and at least `minDeltas` delta records.
 */
export async function expectFolded(sink: MemorySink, proof: Proof): Promise<void> {
  const { exchangeId, books } = proof;
  await waitFor(`every ${exchangeId} book`, () =>
    [...books.keys()].every((s) => sink.books(exchangeId, s).length > 0),
  );
  await waitFor(`${exchangeId} deltas`, () =>
    [...books].every(([s, b]) => sink.books(exchangeId, s).filter((r) => !r.snapshot).length >= b.minDeltas),
  );
  await waitFor('the ingestor to go quiet', () => Date.now() - sink.lastWriteAt > 400);
  for (const [symbol, expected] of books) {
    const got = sink.levels(exchangeId, symbol);
    expect(got?.inSync, symbol).toBe(true);
    const want = expected.fold.top(DEPTH);
    if (expected.band === undefined) {
      expect({ bids: got?.bids, asks: got?.asks }, symbol).toEqual(want);
    } else {
      const { bid, ask } = expected.band;
      const bids = inBand(got?.bids ?? [], (p) => p >= bid);
      const asks = inBand(got?.asks ?? [], (p) => p <= ask);
      // ccxt trims a side to its depth from the worst end only: what it shows is a prefix.
      expect(bids, `${symbol} bids inside the snapshot's band`).toEqual(
        inBand(want.bids, (p) => p >= bid).slice(0, bids.length),
      );
      expect(asks, `${symbol} asks inside the snapshot's band`).toEqual(
        inBand(want.asks, (p) => p <= ask).slice(0, asks.length),
      );
      expect(Math.min(bids.length, asks.length), `${symbol} levels compared`).toBeGreaterThanOrEqual(10);
    }
    const records = sink.books(exchangeId, symbol);
    expect(records.map((b) => b.sequence)).toEqual(records.map((_, i) => i + 1));
  }
}

function inBand(levels: readonly Level[], keep: (price: number) => boolean): Level[] {
  return levels.filter(([p]) => keep(p));
}

/** The worst prices of a snapshot's sides: the band a fold started from it can be compared in. */
export function bandOf(
  bids: readonly (readonly [string, string])[],
  asks: readonly (readonly [string, string])[],
): Band {
  return {
    bid: Math.min(...bids.map(([p]) => Number(p))),
    ask: Math.max(...asks.map(([p]) => Number(p))),
  };
}

/**
 * Send frames `perTick` at a time, one batch per macrotask (a venue's frames arrive in network
 * reads of several); stops when the socket closes. `after` runs once everything was sent.
 */
export async function sendBatched(
  socket: WebSocket,
  frames: readonly string[],
  perTick = 4,
  after?: () => void,
): Promise<void> {
  for (let i = 0; i < frames.length; i += perTick) {
    if (socket.readyState !== socket.OPEN) return;
    for (const f of frames.slice(i, i + perTick)) socket.send(f);
    await new Promise((r) => setTimeout(r, 1));
  }
  after?.();
}
