import type { BookRecord, EventRecord, MarketRecord, VenueRecord } from '@app/events';
import { TIERS, venueProfiles, type VenueProfile } from './profiles';
import { between, exponential, gaussian, seeded, type Random } from './random';
import { ReferencePrices } from './reference';
import { SimBook } from './sim-book';

/** What to generate. Everything is an argument: the same spec gives the same records. */
export interface MarketGenSpec {
  readonly seed: number;
  /** Epoch ms of the first record. */
  readonly startAt: number;
  readonly durationMs: number;
  readonly venues?: number;
  /** Multiplies every book's update rate (1 = the committed replay-data's rates). */
  readonly rateScale?: number;
  /** A book gets a periodic snapshot this often (staggered per book). */
  readonly snapshotEveryMs?: number;
  /** Expected sequence gaps per minute across the whole market (each followed by a snapshot). */
  readonly gapsPerMinute?: number;
  /** Expected venue disconnects per minute across the whole market. */
  readonly reconnectsPerMinute?: number;
  /**
   * The SOL and XRP markets (ALT_MARKETS; default true). They have random streams of their own, so
   * with `false` the records are exactly those of the six markets with them left out.
   */
  readonly altMarkets?: boolean;
}

export const DEFAULT_GEN = {
  venues: 60,
  rateScale: 1,
  snapshotEveryMs: 30_000,
  gapsPerMinute: 6,
  reconnectsPerMinute: 1,
  altMarkets: true,
} as const;

/** Salts of the SOL and XRP markets' random streams (listings, books, updates; reference prices). */
const ALT_SALT = 0xa17;
const ALT_REF_SALT = 0xa17 ^ 0x5eed;

/** The generator's time step; records get a sub-step jitter so receivedAt is not on a grid. */
const STEP_MS = 10;
/** A book re-quotes as soon as its mid drifts this far from where its venue should quote. */
const MAX_DRIFT = 0.0003;
/** Each venue's mid stays within this fraction of the reference (arbitrage bound). */
const MAX_DEVIATION = 0.00015;
/** Longest synthetic outage; some outlast the default staleBookMs (10 s) so stale books show up. */
const OUTAGE_MAX_MS = 15_000;

interface Book {
  readonly venue: Venue;
  /** Every draw this book makes (timing, deviation, jitter) comes from this stream. */
  readonly rand: Random;
  readonly symbol: string;
  readonly base: string;
  readonly quote: string;
  readonly sim: SimBook;
  readonly rate: number;
  seq: number;
  deviation: number;
  nextUpdateAt: number;
  nextSnapshotAt: number;
  readonly snapshotEveryMs: number;
  /** The next delta is sent after a lost one (a sequence gap). */
  loseNext: boolean;
  /** A gap was emitted: the venue's snapshot follows at this time. */
  repairAt: number | null;
}

interface Venue {
  readonly profile: VenueProfile;
  readonly books: Book[];
  connected: boolean;
  reconnectCount: number;
  reconnectAt: number;
}

/**
 * A seeded synthetic market of `venues` venues over MARKETS and ALT_MARKETS: venue and market
 * records, initial snapshots, then deltas, periodic snapshots, gaps (repaired by a snapshot) and
 * reconnects, in receivedAt order. Pure: no clock, no Math.random. The six MARKETS draw from one
 * stream, the SOL and XRP markets from another (their listings, book seeds, update times and
 * gaps), so adding them left every record of the six markets as it was.
 */
export function* generateMarket(spec: MarketGenSpec): Generator<EventRecord> {
  const o = { ...DEFAULT_GEN, ...spec };
  checkSpec(o);
  const rand = seeded(o.seed);
  const altRand = seeded(o.seed ^ ALT_SALT);
  const ref = new ReferencePrices(seeded(o.seed ^ 0x5eed), seeded(o.seed ^ ALT_REF_SALT));
  const profiles = venueProfiles(rand, o.venues, o.altMarkets ? altRand : undefined);
  const venues: Venue[] = profiles.map((profile) => ({
    profile,
    books: [],
    connected: true,
    reconnectCount: 0,
    reconnectAt: 0,
  }));
  const t0 = o.startAt;
  for (const v of venues) {
    yield venueRecord(v, t0, null);
    const tier = TIERS[v.profile.tier];
    const listed = [
      ...v.profile.markets.map((m) => ({ ...m, rand })),
      ...v.profile.altMarkets.map((m) => ({ ...m, rand: altRand })),
    ];
    for (const { market, takerFeeRate, rules, rand: r } of listed) {
      const m: MarketRecord = {
        v: 1,
        type: 'market',
        exchangeId: v.profile.exchangeId,
        symbol: market.symbol,
        base: market.base,
        quote: market.quote,
        takerFeeRate,
        ...rules,
        receivedAt: t0,
      };
      yield m;
      const refMid = ref.mid(market.base, market.quote);
      const ticks = (f: number): number => Math.max(1, Math.round((refMid * f) / market.tick));
      const shape = {
        tick: market.tick,
        levels: tier.levels,
        halfSpread: tier.halfSpread,
        size: market.size * tier.sizeFactor,
        minStep: ticks(tier.spacing[0]),
        maxStep: ticks(tier.spacing[1]),
      };
      const sim = new SimBook(shape, seeded(r() * 2 ** 32));
      const book: Book = {
        venue: v,
        rand: r,
        symbol: market.symbol,
        base: market.base,
        quote: market.quote,
        sim,
        rate: tier.rate * o.rateScale,
        seq: 0,
        deviation: 0,
        nextUpdateAt: 0,
        nextSnapshotAt: 0,
        snapshotEveryMs: o.snapshotEveryMs,
        loseNext: false,
        repairAt: null,
      };
      book.nextUpdateAt = t0 + exponential(r, 1000 / book.rate);
      v.books.push(book);
    }
  }
  const all = venues.flatMap((v) => v.books);
  for (const b of all) {
    yield snapshot(b, ref, t0);
    // Stagger periodic snapshots so they do not all land in the same instant.
    b.nextSnapshotAt = t0 + Math.floor(b.rand() * o.snapshotEveryMs);
  }
  // Gaps are drawn per stream: the six markets' books from `rand` at the given rate, the SOL and
  // XRP books from `altRand` at the same rate per book.
  const books = all.filter((b) => b.rand === rand);
  const altBooks = all.filter((b) => b.rand === altRand);
  const gapP = (o.gapsPerMinute / 60_000) * STEP_MS;
  const altGapP = (gapP * altBooks.length) / Math.max(1, books.length);
  const dropP = (o.reconnectsPerMinute / 60_000) * STEP_MS;
  const end = t0 + o.durationMs;
  for (let t = t0 + STEP_MS; t < end; t += STEP_MS) {
    ref.step(STEP_MS);
    const out: EventRecord[] = [];
    // No gap or outage is left open at the end: each is repaired within the recording.
    const late = t + OUTAGE_MAX_MS >= end;
    if (rand() < dropP && !late) disconnect(venues[Math.floor(rand() * venues.length)]!, t, rand, out);
    if (rand() < gapP && !late) books[Math.floor(rand() * books.length)]!.loseNext = true;
    if (altBooks.length > 0 && altRand() < altGapP && !late)
      altBooks[Math.floor(altRand() * altBooks.length)]!.loseNext = true;
    for (const v of venues) {
      if (!v.connected) {
        if (t >= v.reconnectAt) reconnect(v, ref, t, out);
        continue;
      }
      for (const b of v.books) {
        if (b.repairAt !== null && t >= b.repairAt) {
          out.push(snapshot(b, ref, jitter(t, b.rand)));
          continue;
        }
        if (t >= b.nextSnapshotAt) {
          out.push(snapshot(b, ref, jitter(t, b.rand)));
          continue;
        }
        const due = t >= b.nextUpdateAt;
        if (!due && Math.abs(target(b, ref) / b.sim.quotedMid - 1) <= MAX_DRIFT) continue;
        if (due) b.nextUpdateAt = t + exponential(b.rand, 1000 / b.rate);
        // A lost message: the venue moved on, we see the next sequence and must resync.
        if (b.loseNext && b.repairAt === null) {
          b.sim.update(mid(b, ref));
          b.seq++;
          b.repairAt = t + between(b.rand, 200, 1500);
        }
        b.loseNext = false;
        out.push(delta(b, ref, jitter(t, b.rand)));
      }
    }
    // Stable sort: equal receivedAt keep venue order, so the output is a pure function of the seed.
    out.sort((x, y) => x.receivedAt - y.receivedAt);
    yield* out;
  }
}

function checkSpec(o: Required<MarketGenSpec>): void {
  const bad = (name: string, why: string): never => {
    throw new RangeError(`market generator: ${name} ${why}`);
  };
  if (!Number.isSafeInteger(o.seed)) bad('seed', `must be an integer, got ${o.seed}`);
  if (!Number.isSafeInteger(o.startAt) || o.startAt < 0) bad('startAt', `must be epoch ms, got ${o.startAt}`);
  if (!Number.isSafeInteger(o.durationMs) || o.durationMs <= 0)
    bad('durationMs', `must be a positive integer, got ${o.durationMs}`);
  if (!Number.isInteger(o.venues) || o.venues < 1 || o.venues > 100)
    bad('venues', `must be 1..100, got ${o.venues}`);
  if (!(o.rateScale > 0 && o.rateScale <= 100)) bad('rateScale', `must be in (0, 100], got ${o.rateScale}`);
  if (!(o.snapshotEveryMs >= 1000)) bad('snapshotEveryMs', `must be >= 1000, got ${o.snapshotEveryMs}`);
  if (!(o.gapsPerMinute >= 0) || !(o.reconnectsPerMinute >= 0))
    bad('gapsPerMinute/reconnectsPerMinute', 'must be >= 0');
}

function jitter(t: number, rand: Random): number {
  return t + Math.floor(rand() * STEP_MS);
}

/** Where venue `b` should quote now: the reference plus its own small, bounded deviation. */
function target(b: Book, ref: ReferencePrices): number {
  return ref.mid(b.base, b.quote) * (1 + b.deviation);
}

function mid(b: Book, ref: ReferencePrices): number {
  b.deviation = Math.max(
    -MAX_DEVIATION,
    Math.min(MAX_DEVIATION, 0.7 * b.deviation + 0.00005 * gaussian(b.rand)),
  );
  return target(b, ref);
}

function stamp(b: Book, receivedAt: number): number | null {
  return b.venue.profile.hasTimestamp ? receivedAt - b.venue.profile.latencyMs : null;
}

function snapshot(b: Book, ref: ReferencePrices, at: number): BookRecord {
  b.sim.reset(mid(b, ref));
  b.seq++;
  b.repairAt = null;
  b.nextSnapshotAt = at + b.snapshotEveryMs;
  const s = b.sim.snapshot();
  return {
    v: 1,
    type: 'book',
    exchangeId: b.venue.profile.exchangeId,
    symbol: b.symbol,
    snapshot: true,
    bids: s.bids,
    asks: s.asks,
    sequence: b.seq,
    exchangeTimestamp: stamp(b, at),
    receivedAt: at,
  };
}

function delta(b: Book, ref: ReferencePrices, at: number): BookRecord {
  const ch = b.sim.update(mid(b, ref));
  b.seq++;
  return {
    v: 1,
    type: 'book',
    exchangeId: b.venue.profile.exchangeId,
    symbol: b.symbol,
    snapshot: false,
    bids: ch.bids,
    asks: ch.asks,
    sequence: b.seq,
    exchangeTimestamp: stamp(b, at),
    receivedAt: at,
  };
}

function venueRecord(v: Venue, at: number, lastError: string | null): VenueRecord {
  return {
    v: 1,
    type: 'venue',
    exchangeId: v.profile.exchangeId,
    certified: v.profile.certified,
    connected: v.connected,
    lastError,
    receivedAt: at,
    reconnectCount: v.reconnectCount,
  };
}

function disconnect(v: Venue, t: number, rand: Random, out: EventRecord[]): void {
  if (!v.connected) return;
  v.connected = false;
  v.reconnectAt = t + between(rand, 2_000, OUTAGE_MAX_MS);
  out.push(venueRecord(v, t, 'websocket closed by venue (synthetic outage)'));
}

function reconnect(v: Venue, ref: ReferencePrices, t: number, out: EventRecord[]): void {
  v.connected = true;
  v.reconnectCount++;
  out.push(venueRecord(v, t, null));
  for (const b of v.books) out.push(snapshot(b, ref, t));
}
