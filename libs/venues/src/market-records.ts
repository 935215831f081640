import type { EventRecord, MarketRecord } from '@app/events';
import type { CcxtProExchange } from './ccxt-venue';
import { chooseTakerFee } from './fees';
import { marketRules } from './market-rules';

/**
 * The market records of a venue's watched `symbols` (docs/events.md): base, quote, taker fee
 * (fees.ts) and order rules (market-rules.ts) from the markets ccxt loaded. `missingFee` names the
 * markets with no valid taker fee (their records carry null).
 */
export function marketRecords(
  exchange: CcxtProExchange,
  exchangeId: string,
  symbols: readonly string[],
  receivedAt: number,
): { records: EventRecord[]; missingFee: string[] } {
  const markets = exchange.markets ?? {};
  const records: EventRecord[] = [];
  const missingFee: string[] = [];
  for (const symbol of symbols) {
    const m = markets[symbol]!;
    const fee = chooseTakerFee(exchangeId, m.taker);
    if (fee.rate === null) missingFee.push(symbol);
    const record: MarketRecord = {
      v: 1,
      type: 'market',
      exchangeId,
      symbol,
      base: m.base,
      quote: m.quote,
      takerFeeRate: fee.rate,
      ...marketRules(exchange, m),
      receivedAt,
    };
    records.push(record);
  }
  return { records, missingFee };
}
