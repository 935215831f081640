import type { Level } from '@app/events';
import { exponential, gaussian, between, type Random } from './random';

export interface SimBookSpec {
  readonly tick: number;
  /** Levels kept per side. */
  readonly levels: number;
  readonly halfSpread: number;
  /** Mean size of the top level, base units. */
  readonly size: number;
  /** Gap between adjacent levels, in ticks: drawn from [minStep, maxStep] (thin venues have sparse books). */
  readonly minStep: number;
  readonly maxStep: number;
}

interface Lvl {
  t: number;
  a: number;
}

/** What one update changed: the delta record's sides. */
export interface SimChange {
  readonly bids: Level[];
  readonly asks: Level[];
}

/**
 * One venue's book as the venue itself holds it: integer tick prices, `levels` per side around a
 * moving mid, never crossed (bids strictly below asks). Updates touch mostly the top levels, the
 * way real L2 feeds do, and report exactly the levels they changed.
 */
export class SimBook {
  private readonly bids: Lvl[] = [];
  private readonly asks: Lvl[] = [];
  private readonly decimals: number;
  /** The mid the book was last quoted around. */
  quotedMid = 0;

  constructor(
    private readonly spec: SimBookSpec,
    private readonly rand: Random,
  ) {
    this.decimals = Math.max(0, Math.round(-Math.log10(spec.tick)));
  }

  /** Build a full book around `mid`. */
  reset(mid: number): void {
    this.bids.length = 0;
    this.asks.length = 0;
    const [bidTop, askTop] = this.tops(mid);
    let b = bidTop;
    let a = askTop;
    for (let k = 0; k < this.spec.levels; k++) {
      if (b > 0) this.bids.push({ t: b, a: this.amount(k) });
      this.asks.push({ t: a, a: this.amount(k) });
      b -= between(this.rand, this.spec.minStep, this.spec.maxStep);
      a += between(this.rand, this.spec.minStep, this.spec.maxStep);
    }
    this.quotedMid = mid;
  }

  /** Move the book to `mid` and churn a few levels near the top; returns the changed levels. */
  update(mid: number): SimChange {
    const bidCh = new Map<number, number>();
    const askCh = new Map<number, number>();
    const [bidTop, askTop] = this.tops(mid);
    while (this.bids.length > 0 && this.bids[0]!.t > bidTop) bidCh.set(this.bids.shift()!.t, 0);
    while (this.asks.length > 0 && this.asks[0]!.t < askTop) askCh.set(this.asks.shift()!.t, 0);
    // A market maker usually, not always, steps in at the new top.
    if (this.bids.length === 0 || (this.bids[0]!.t < bidTop && this.rand() < 0.8))
      this.insert(this.bids, bidCh, { t: bidTop, a: this.amount(0) }, 0);
    if (this.asks.length === 0 || (this.asks[0]!.t > askTop && this.rand() < 0.8))
      this.insert(this.asks, askCh, { t: askTop, a: this.amount(0) }, 0);
    const churn = 1 + Math.floor(this.rand() * 3);
    for (let i = 0; i < churn; i++) {
      const buy = this.rand() < 0.5;
      const side = buy ? this.bids : this.asks;
      const ch = buy ? bidCh : askCh;
      const k = Math.min(side.length - 1, Math.floor(exponential(this.rand, 2.5)));
      if (k < 0) continue;
      const lvl = side[k]!;
      if (k > 0 && side.length > 2 && this.rand() < 0.12) {
        side.splice(k, 1);
        ch.set(lvl.t, 0);
      } else {
        lvl.a = this.amount(k);
        ch.set(lvl.t, lvl.a);
      }
    }
    this.refill(this.bids, bidCh, -1);
    this.refill(this.asks, askCh, 1);
    this.quotedMid = mid;
    return { bids: this.levels(bidCh, -1), asks: this.levels(askCh, 1) };
  }

  /** The whole book as snapshot sides (bids descending, asks ascending). */
  snapshot(): SimChange {
    return {
      bids: this.bids.map((l) => [this.price(l.t), l.a] as const),
      asks: this.asks.map((l) => [this.price(l.t), l.a] as const),
    };
  }

  private tops(mid: number): [number, number] {
    const bidTop = Math.floor((mid * (1 - this.spec.halfSpread)) / this.spec.tick);
    const askTop = Math.max(bidTop + 1, Math.ceil((mid * (1 + this.spec.halfSpread)) / this.spec.tick));
    return [bidTop, askTop];
  }

  private insert(side: Lvl[], ch: Map<number, number>, lvl: Lvl, at: number): void {
    side.splice(at, 0, lvl);
    ch.set(lvl.t, lvl.a);
  }

  /** Keep exactly `levels` levels: drop the deepest, or add deeper ones. */
  private refill(side: Lvl[], ch: Map<number, number>, dir: 1 | -1): void {
    while (side.length > this.spec.levels) ch.set(side.pop()!.t, 0);
    while (side.length < this.spec.levels) {
      const t = side[side.length - 1]!.t + dir * between(this.rand, this.spec.minStep, this.spec.maxStep);
      if (t <= 0) return;
      const lvl = { t, a: this.amount(side.length) };
      side.push(lvl);
      ch.set(t, lvl.a);
    }
  }

  private levels(ch: Map<number, number>, dir: 1 | -1): Level[] {
    return [...ch.entries()].sort((x, y) => (x[0] - y[0]) * dir).map(([t, a]) => [this.price(t), a] as const);
  }

  private price(t: number): number {
    return +(t * this.spec.tick).toFixed(this.decimals);
  }

  /** Size of level k: deeper levels rest more size; lognormal noise; 4 significant digits. */
  private amount(k: number): number {
    return +(this.spec.size * (0.5 + 0.12 * k) * Math.exp(0.5 * gaussian(this.rand))).toPrecision(4);
  }
}
