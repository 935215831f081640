import type { Fill, WalkTape } from './walk';
import { isRuledFill, type RuledStop } from './ruled-leg';

/** One level a walk took from, read off the walk tape. */
export interface LevelTake {
  /** Order of the take within the solve: a merged walk interleaves venues. */
  readonly seq: number;
  /** Index of the level on the walked side, 0 = best. */
  readonly level: number;
  readonly price: number;
  /** Base units the level offered. */
  readonly available: number;
  /** Base units taken. */
  readonly base: number;
  /**
   * What ended this take: 0 the level ran out, 1 the pinned amount was met, 2 the cap was reached;
   * with venue rules also 3 the maximum was reached, 4 the level's rest waits for a whole step.
   */
  readonly stop: RuledStop;
  /** The leg's base and raw cost after this take, as the walk computed them. */
  readonly runningBase: number;
  readonly runningCost: number;
}

/**
 * The takes of every fill a solve's walks made, in take order. A take's level is its rank within
 * its fill, since walks consume a book's levels in order and take every level but a fill's last
 * one whole; that is checked here. Prices and offered amounts are read from the fill's book side,
 * which cannot have moved: the tape is read right after the synchronous solve that wrote it.
 */
export function readTape(tape: WalkTape): Map<Fill, LevelTake[]> {
  const out = new Map<Fill, LevelTake[]>();
  for (let k = 0; k + 2 < tape.length; k += 3) {
    const fill = tape[k] as Fill;
    let takes = out.get(fill);
    if (takes === undefined) {
      takes = [];
      out.set(fill, takes);
    }
    if (isRuledFill(fill) && (fill.venue.rules?.stepUnits ?? 0) > 0) {
      steppedTake(takes, fill, k / 3, tape[k + 1] as number, tape[k + 2] as number);
      continue;
    }
    const side = fill.venue.levels!;
    const before = takes.at(-1);
    const base = tape[k + 1] as number;
    if (before !== undefined && before.stop === 3 && before.base < before.available) {
      // A floor the fill search laid (merged-ruled.ts) ended inside a level: the walk goes on there.
      // If the walk took the level's rest, the level is whole: the floor's piece and the rest, each
      // as the walk computed it, need not add up to it to the last bit. The running sums are the walk's.
      const stop = tape[k + 2] as RuledStop;
      takes[takes.length - 1] = {
        ...before,
        base: stop === 0 ? before.available : before.base + base,
        stop,
        runningBase: before.runningBase + base,
        runningCost: before.runningCost + base * before.price,
      };
      continue;
    }
    if (before !== undefined && (before.stop !== 0 || before.base !== before.available))
      throw new Error(`walk tape out of step: ${fill.venue.exchangeId} took level ${before.level} in part`);
    const level = takes.length;
    const available = side.amount(level);
    const stop = tape[k + 2] as RuledStop;
    takes.push({
      seq: k / 3,
      level,
      price: side.price(level),
      available,
      // A level the walk ran out is whole. Once a floor ended inside a level of a market without a
      // step (above), the leg can sit a unit in the last place past the book's prefix, and the
      // walk's piece of each later level is that level less the dust: the running sums stay the walk's.
      base: stop === 0 ? available : base,
      stop,
      runningBase: (before?.runningBase ?? 0) + base,
      runningCost: (before?.runningCost ?? 0) + base * side.price(level),
    });
  }
  return out;
}

/**
 * A stepped take (ruled-leg.ts) brings the leg to `at` base units on level `code >> 3`: the
 * levels before it are now whole in the leg, and that level holds the rest. Rows are per level, so
 * a level a step spanned shows once, with the take that first reached it; running totals are the
 * book's prefix sums, computed as the walk computed them.
 */
function steppedTake(takes: LevelTake[], fill: Fill, seq: number, at: number, code: number): void {
  const side = fill.venue.levels!;
  const level = code >> 3;
  const stop = (code & 7) as RuledStop;
  let cumBase = 0;
  let cumCost = 0;
  for (let i = 0; i < level; i++) {
    const available = side.amount(i);
    cumBase += available;
    cumCost += available * side.price(i);
    const row = { level: i, price: side.price(i), available, base: available, stop: 0 as const };
    const seen = takes[i];
    takes[i] = { ...row, seq: seen?.seq ?? seq, runningBase: cumBase, runningCost: cumCost };
  }
  const price = side.price(level);
  takes[level] = {
    seq: takes[level]?.seq ?? seq,
    level,
    price,
    available: side.amount(level),
    base: at - cumBase,
    stop,
    runningBase: at,
    runningCost: cumCost + (at - cumBase) * price,
  };
}
