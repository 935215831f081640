import type { Fill, WalkTape } from './walk';

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
  /** What ended this take: 0 the level ran out, 1 the pinned amount was met, 2 the cap was reached. */
  readonly stop: 0 | 1 | 2;
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
    const side = fill.venue.levels!;
    let takes = out.get(fill);
    if (takes === undefined) {
      takes = [];
      out.set(fill, takes);
    }
    const before = takes.at(-1);
    if (before !== undefined && (before.stop !== 0 || before.base !== before.available))
      throw new Error(`walk tape out of step: ${fill.venue.exchangeId} took level ${before.level} in part`);
    const level = takes.length;
    takes.push({
      seq: k / 3,
      level,
      price: side.price(level),
      available: side.amount(level),
      base: tape[k + 1] as number,
      stop: tape[k + 2] as 0 | 1 | 2,
    });
  }
  return out;
}
