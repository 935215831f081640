/** A price level as served: [price, amount]. */
export type Level = [price: number, amount: number];

/** A book as served: bids best first (descending), asks best first (ascending). */
export interface ServedBook {
  readonly bids: readonly Level[];
  readonly asks: readonly Level[];
}

/** Levels per side of a served book. */
export const SERVED_DEPTH = 5;

const MID: Readonly<Record<string, number>> = {
  BTC: 65_000,
  ETH: 3_000,
  SOL: 150,
  XRP: 0.6,
  USDT: 1,
  USDC: 1,
};
const FIAT: Readonly<Record<string, number>> = {
  USD: 1,
  USDT: 1,
  USDC: 1,
  EUR: 0.9,
  BTC: 65_000,
  ETH: 3_000,
};

/** A plausible mid price for base/quote (the same every run). */
export function midOf(m: { readonly base: string; readonly quote: string }): number {
  const base = MID[m.base] ?? 10;
  const quote = FIAT[m.quote] ?? 1;
  return base / quote;
}

/** Round to 6 significant digits, so prices print the same on every side of the wire. */
function tidy(x: number): number {
  return Number(x.toPrecision(6));
}

/** The venue's good book for a market: SERVED_DEPTH levels a side around its mid, 1 bp apart. */
export function bookOf(m: { readonly base: string; readonly quote: string }): ServedBook {
  const mid = midOf(m);
  const step = mid * 0.0001;
  const bids: Level[] = [];
  const asks: Level[] = [];
  for (let i = 0; i < SERVED_DEPTH; i++) {
    bids.push([tidy(mid - step * (i + 1)), 1 + i]);
    asks.push([tidy(mid + step * (i + 1)), 1 + i]);
  }
  return { bids, asks };
}

/** One change: the amount of the best bid toggles between two values (the book stays valid). */
export function changeOf(state: { book: ServedBook }): { bids: Level[]; asks: Level[] } {
  const [price, amount] = state.book.bids[0]!;
  const next: Level = [price, amount === 1 ? 1.5 : 1];
  state.book = { bids: [next, ...state.book.bids.slice(1)], asks: state.book.asks };
  return { bids: [next], asks: [] };
}
