import { SYNTH_EPOCH } from '@app/synth';
import type { BookRecord, Level, MarketRecord, VenueRecord } from '@app/events';

/** Fixture clock: every fixture record is stamped relative to this instant. */
export const T0 = SYNTH_EPOCH;

export function market(
  exchangeId: string,
  symbol: string,
  takerFeeRate: number | null = 0.001,
): MarketRecord {
  const [base, quote] = symbol.split('/') as [string, string];
  return { v: 1, type: 'market', exchangeId, symbol, base, quote, takerFeeRate, receivedAt: T0 };
}

export function venue(exchangeId: string, certified = true, connected = true): VenueRecord {
  return { v: 1, type: 'venue', exchangeId, certified, connected, lastError: null, receivedAt: T0 };
}

export function book(
  exchangeId: string,
  symbol: string,
  bids: Level[],
  asks: Level[],
  sequence = 1,
  receivedAt = T0,
): BookRecord {
  return {
    v: 1,
    type: 'book',
    exchangeId,
    symbol,
    snapshot: true,
    bids,
    asks,
    sequence,
    exchangeTimestamp: null,
    receivedAt,
  };
}
