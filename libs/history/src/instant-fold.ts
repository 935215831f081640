import { BookCache, withoutListings, type MarketsView } from '@app/books';
import type { EventRecord } from '@app/events';
import { lostListings, type RecordAt } from '@app/live-feed';
import type { RecordSource } from './record-sources';
import { isBase } from './versioned-scan';

/** One fold key's records in log order, from the earliest base a later instant may still need. */
interface Chain {
  recs: EventRecord[];
  /** Position (counted per key from its first record) of recs[0]. */
  start: number;
  /** Position of the record whose state the cache holds (-1: none yet), its receivedAt, the record. */
  cur: number;
  curAt: number;
  curRecord: EventRecord | null;
  /** Positions of the records read but stamped after the latest instant (held back). */
  held: number[];
  /** Least receivedAt among `held` (Infinity: none). */
  heldMin: number;
  /** The best record admitted since the last settle (-1: none). */
  fresh: number;
  /** Position of the latest base in recs (-1: none). */
  lastBase: number;
}

/** The fold key of a record: a book, a market, a venue. */
function keyOf(r: EventRecord): string {
  return r.type === 'venue' ? `v|${r.exchangeId}` : `${r.type}|${r.exchangeId}|${r.symbol}`;
}

/**
 * The books at successive instants t1 <= t2 <= ...: the definition every reader of past books
 * shares (asOf rebuilds, replays, backtests), a versioned read: at t, each book is its state after
 * its record with the greatest receivedAt <= t (ties: the later position), that state computed by
 * folding its records in log order (events.md sequence rules); markets and venues likewise.
 * receivedAt need not grow along a source: a record stamped after t is held back, and when a later
 * instant admits it, its book moves to the state after it: forwards by applying the records
 * between, or back (an older recording appended later) by folding again from its latest base.
 * rebuildBooks with asOf computes the same state for one instant by random access, which
 * feed/time-backwards.int.spec.ts checks against an independent fold.
 */
export class InstantFold {
  readonly cache = new BookCache();
  private readonly heads: { source: RecordSource; done: boolean }[];
  private readonly chains = new Map<string, Chain>();
  /** Chains with records held back. */
  private readonly open = new Set<Chain>();
  private applied = 0;
  private newest = -Infinity;
  private oldest = Infinity;

  constructor(
    sources: readonly RecordSource[],
    private readonly chunk = 4096,
  ) {
    this.heads = sources.map((source) => ({ source, done: false }));
  }

  /**
   * What the solver may read at instant `t` (the latest advanced to): the cache without the
   * markets whose market or venue record at t may be an entry the log lost to damage (the
   * versioned rule of docs/operations-log.md "A lost market or venue record"); the cache itself
   * when the sources lost nothing.
   */
  routable(t: number): MarketsView {
    const losses = this.heads.flatMap((h) => (h.source.lost === undefined ? [] : [h.source.lost]));
    const gaps = losses.flatMap((l) => l.gaps);
    if (gaps.length === 0) return this.cache;
    const at = (key: string): RecordAt | undefined => {
      const r = this.chains.get(key)?.curRecord ?? null;
      if (r === null) return undefined;
      for (const l of losses) {
        const offset = l.offsetOf(r);
        if (offset !== undefined) return { offset, at: r.receivedAt };
      }
      return undefined;
    };
    const withheld = lostListings(
      this.cache,
      losses.length,
      gaps,
      { market: (ex, symbol) => at(`market|${ex}|${symbol}`), venue: (ex) => at(`v|${ex}`) },
      t,
    );
    return withoutListings(this.cache, withheld);
  }

  /** Records at or before the latest instant folded so far (each counted once). */
  get folded(): number {
    return this.applied;
  }

  /** receivedAt range of the records folded so far (null before any). */
  get span(): { readonly first: number; readonly last: number } | null {
    return this.applied === 0 ? null : { first: this.oldest, last: this.newest };
  }

  /** Fold every source's records up to instant `t` (inclusive); returns how many records were new. */
  async advanceTo(t: number): Promise<number> {
    const before = this.applied;
    for (const head of this.heads) {
      while (!head.done) {
        const records = await head.source.take(this.chunk, t);
        if (records === null) head.done = true;
        if (records === null || records.length === 0) break;
        const touched = new Set<Chain>();
        for (const r of records) touched.add(this.add(r, t));
        // Settled chunk by chunk, so a long stretch up to t is folded as it is read, not buffered.
        for (const chain of touched) this.settle(chain, t);
      }
    }
    // Chains whose held-back records this instant admits.
    for (const chain of [...this.open]) if (chain.heldMin <= t) this.settle(chain, t);
    return this.applied - before;
  }

  private add(r: EventRecord, t: number): Chain {
    const key = keyOf(r);
    let chain = this.chains.get(key);
    if (chain === undefined) {
      chain = {
        recs: [],
        start: 0,
        cur: -1,
        curAt: -Infinity,
        curRecord: null,
        held: [],
        heldMin: Infinity,
        fresh: -1,
        lastBase: -1,
      };
      this.chains.set(key, chain);
    }
    const pos = chain.start + chain.recs.length;
    chain.recs.push(r);
    if (isBase(r)) chain.lastBase = pos;
    if (r.receivedAt <= t) {
      this.count(r);
      if (chain.fresh < 0 || !this.beats(chain, chain.fresh, pos)) chain.fresh = pos;
    } else {
      chain.held.push(pos);
      if (r.receivedAt < chain.heldMin) chain.heldMin = r.receivedAt;
      this.open.add(chain);
    }
    return chain;
  }

  /** Whether the record at position a beats the one at b: greater receivedAt, ties to the later. */
  private beats(chain: Chain, a: number, b: number): boolean {
    const ra = chain.recs[a - chain.start]!.receivedAt;
    const rb = chain.recs[b - chain.start]!.receivedAt;
    return ra > rb || (ra === rb && a > b);
  }

  /** Move one key to its state at t: after its best record admitted so far. */
  private settle(chain: Chain, t: number): void {
    let best = chain.fresh;
    chain.fresh = -1;
    if (chain.heldMin <= t) {
      const keep: number[] = [];
      let min = Infinity;
      for (const h of chain.held) {
        const r = chain.recs[h - chain.start]!;
        if (r.receivedAt <= t) {
          this.count(r);
          if (best < 0 || this.beats(chain, h, best)) best = h;
        } else {
          keep.push(h);
          if (r.receivedAt < min) min = r.receivedAt;
        }
      }
      chain.held = keep;
      chain.heldMin = min;
      if (keep.length === 0) this.open.delete(chain);
    }
    if (best < 0) return;
    const at = chain.recs[best - chain.start]!.receivedAt;
    if (chain.cur >= 0 && !(at > chain.curAt || (at === chain.curAt && best > chain.cur))) return;
    this.move(chain, best);
    this.prune(chain);
  }

  /** Put the cache's state of the key at the state after the record at position x. */
  private move(chain: Chain, x: number): void {
    let from: number;
    if (chain.cur >= 0 && x > chain.cur && chain.cur + 1 >= chain.start) from = chain.cur + 1;
    else {
      // Back, or forward past what was kept: fold again from the latest base at or before x.
      from = chain.start;
      for (let p = x; p >= chain.start; p--)
        if (isBase(chain.recs[p - chain.start]!)) {
          from = p;
          break;
        }
      const first = chain.recs[from - chain.start]!;
      if (chain.cur >= 0 && !isBase(first)) {
        // No base to start from (the chain is whole from the key's first record): start afresh.
        if (first.type === 'book') this.cache.resetBook(first.exchangeId, first.symbol);
        if (first.type === 'venue') {
          this.cache.apply({ ...first, reconnectCount: 0 });
          from++;
        }
      }
    }
    for (let p = from; p <= x; p++) this.cache.apply(chain.recs[p - chain.start]!);
    chain.cur = x;
    chain.curRecord = chain.recs[x - chain.start]!;
    chain.curAt = chain.curRecord.receivedAt;
  }

  /** Drop the records no later instant can need: before the latest base and every held one's base. */
  private prune(chain: Chain): void {
    if (chain.lastBase <= chain.start) return;
    let keep = chain.lastBase;
    for (const h of chain.held) {
      if (h >= chain.lastBase) continue;
      let b = chain.start;
      for (let p = h; p > chain.start; p--)
        if (isBase(chain.recs[p - chain.start]!)) {
          b = p;
          break;
        }
      if (b < keep) keep = b;
    }
    if (keep <= chain.start) return;
    chain.recs = chain.recs.slice(keep - chain.start);
    chain.start = keep;
  }

  private count(r: EventRecord): void {
    this.applied++;
    if (r.receivedAt > this.newest) this.newest = r.receivedAt;
    if (r.receivedAt < this.oldest) this.oldest = r.receivedAt;
  }
}
