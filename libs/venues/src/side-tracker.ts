import * as ccxt from 'ccxt';
import { TouchedBand } from './sync-side';

type StoreArray = (this: unknown, delta: ArrayLike<unknown>) => unknown;
type Reset = (this: unknown, snapshot?: unknown) => unknown;

interface TapSide {
  storeArray: StoreArray;
  limit: unknown;
  store: unknown;
}

interface TapBook {
  bids: unknown;
  asks: unknown;
  reset: Reset;
  update: unknown;
  limit: unknown;
}

/**
 * ccxt 4.5's own book classes, whose every content change goes through `storeArray` (`store`
 * calls it), `reset` (empties the sides, then `storeArray`; `update` calls it) or `limit` (cuts
 * rows past the side's depth, which are never published). Indexed (order-level) sides can move
 * an order between prices, so they are never banded: their window is diffed whole.
 */
const known = (() => {
  const proto = ccxt.Exchange.prototype as unknown as Record<string, (s: object, d: number) => TapBook>;
  const plain = proto.orderBook!({}, 1);
  const counted = proto.countedOrderBook!({}, 1);
  const sides = [plain.bids, counted.bids] as TapSide[];
  return {
    storeArray: new Set<unknown>(sides.map((s) => s.storeArray)),
    store: new Set<unknown>(sides.map((s) => s.store)),
    limit: new Set<unknown>(sides.map((s) => s.limit)),
    reset: plain.reset,
    update: plain.update,
    bookLimit: plain.limit,
  };
})();

const bands = new WeakMap<object, TouchedBand>();
/** Resets seen per tapped book (a reset rebuilds the book from a fresh snapshot in place). */
const resets = new WeakMap<object, number>();
/** Books seen: true once their reset is tapped, false for classes that are never banded. */
const books = new WeakMap<object, boolean>();

/** The band of prices changed on `side` since it was last published; undefined if it is not tracked. */
export function touchedBand(side: object): TouchedBand | undefined {
  return bands.get(side);
}

/** How many times ccxt reset `book` in place since it was first tracked; undefined for an untapped book. */
export function resetCount(book: object): number | undefined {
  return resets.get(book);
}

/**
 * Start tracking the changes made to a ccxt book (idempotent; call it whenever the book is seen,
 * so sides ccxt replaces get tracked too). Changes made before tracking began make the first
 * band `whole`. A book or side of any other class is left alone and is always diffed whole.
 */
export function trackBook(book: object): void {
  let tapped = books.get(book);
  if (tapped === undefined) {
    tapped = tapReset(book as TapBook);
    books.set(book, tapped);
  }
  if (!tapped) return;
  trackSide((book as TapBook).bids);
  trackSide((book as TapBook).asks);
}

function tapReset(book: TapBook): boolean {
  if (book.reset !== known.reset || book.update !== known.update || book.limit !== known.bookLimit)
    return false;
  const reset = book.reset;
  resets.set(book, 0);
  Object.defineProperty(book, 'reset', {
    configurable: true,
    writable: true,
    enumerable: false,
    value(this: TapBook, snapshot?: unknown): unknown {
      // reset empties both sides without storeArray: no band can describe that.
      markWhole(this.bids);
      markWhole(this.asks);
      resets.set(this, (resets.get(this) ?? 0) + 1);
      return reset.call(this, snapshot);
    },
  });
  return true;
}

function markWhole(side: unknown): void {
  if (typeof side === 'object' && side !== null) {
    const band = bands.get(side);
    if (band !== undefined) band.whole = true;
  }
}

function trackSide(side: unknown): void {
  if (typeof side !== 'object' || side === null || bands.has(side)) return;
  const s = side as TapSide;
  if (!known.storeArray.has(s.storeArray) || !known.store.has(s.store) || !known.limit.has(s.limit)) return;
  const band = new TouchedBand();
  bands.set(side, band);
  const storeArray = s.storeArray;
  Object.defineProperty(side, 'storeArray', {
    configurable: true,
    writable: true,
    enumerable: false,
    value(this: unknown, delta: ArrayLike<unknown>): unknown {
      band.note(delta[0]);
      return storeArray.call(this, delta);
    },
  });
}
