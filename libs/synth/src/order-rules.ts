import type { MarketRuleField } from '@app/events';

/**
 * Order rules of the synthetic venues (docs/semantics.md section 13), one style per venue. Each
 * style has the shape of a family of real venues' spot rules (a lot filter with a minimum
 * notional, a fine lot with a minimum size, eight lot decimals with an order minimum, a minimum
 * order value, coarse lots with a market-order cap, significant digits without a step). For BTC,
 * ETH and USDC the numbers are of the same order as real venues', none copied; for SOL and XRP
 * the steps and minimums are those real venues publish in their market lists (a lot of 0.01 SOL
 * and 1 XRP with a minimum notional on the lot-filter venues, 0.000001 lots with 0.01 SOL / 1 XRP
 * minimums on the fine-lot ones, 0.0002 BTC minimum order value on XRP/BTC), the rest of the same
 * order.
 */
export type OrderRules = Readonly<Record<MarketRuleField, number | null>>;

type Style = Readonly<Record<string, OrderRules>>;

const rules = (
  amountStep: number | null,
  minAmount: number | null,
  minCost: number | null,
  maxAmount: number | null,
): OrderRules => ({ amountStep, minAmount, minCost, maxAmount });

/** Per market symbol; a market missing from a style has no rules. */
const STYLES: readonly Style[] = [
  // 0: a lot filter and a minimum notional of 5 (0.0001 BTC on the BTC pairs), market orders capped.
  {
    'BTC/USDT': rules(0.00001, 0.00001, 5, 100),
    'BTC/USDC': rules(0.00001, 0.00001, 5, 100),
    'ETH/USDT': rules(0.0001, 0.0001, 5, 2000),
    'ETH/USDC': rules(0.0001, 0.0001, 5, 2000),
    'ETH/BTC': rules(0.0001, 0.0001, 0.0001, 2000),
    'USDC/USDT': rules(1, 1, 5, 5_000_000),
    'SOL/USDT': rules(0.01, 0.01, 5, 50_000),
    'SOL/USDC': rules(0.01, 0.01, 5, 50_000),
    'SOL/BTC': rules(0.01, 0.01, 0.0001, 50_000),
    'XRP/USDT': rules(1, 1, 5, 5_000_000),
    'XRP/USDC': rules(1, 1, 5, 5_000_000),
    'XRP/BTC': rules(1, 1, 0.0001, 5_000_000),
  },
  // 1: a fine lot and a minimum size, no minimum value.
  {
    'BTC/USDT': rules(1e-8, 0.00001, null, null),
    'BTC/USDC': rules(1e-8, 0.00001, null, null),
    'ETH/USDT': rules(0.000001, 0.0001, null, null),
    'ETH/USDC': rules(0.000001, 0.0001, null, null),
    'ETH/BTC': rules(0.000001, 0.0001, null, null),
    'USDC/USDT': rules(0.0001, 1, null, null),
    'SOL/USDT': rules(0.000001, 0.01, null, null),
    'SOL/USDC': rules(0.000001, 0.01, null, null),
    'SOL/BTC': rules(0.0001, 0.01, null, null),
    'XRP/USDT': rules(0.000001, 1, null, null),
    'XRP/USDC': rules(0.0001, 1, null, null),
    'XRP/BTC': rules(0.001, 1, null, null),
  },
  // 2: eight lot decimals, an order minimum in base and a small cost minimum.
  {
    'BTC/USDT': rules(1e-8, 0.0001, 0.5, null),
    'BTC/USDC': rules(1e-8, 0.0001, 0.5, null),
    'ETH/USDT': rules(1e-8, 0.002, 0.5, null),
    'ETH/USDC': rules(1e-8, 0.002, 0.5, null),
    'ETH/BTC': rules(1e-8, 0.002, 0.00001, null),
    'USDC/USDT': rules(1e-8, 5, 0.5, null),
    'SOL/USDT': rules(1e-8, 0.1, 0.5, null),
    'SOL/USDC': rules(1e-8, 0.1, 0.5, null),
    'SOL/BTC': rules(1e-8, 0.1, 0.00001, null),
    'XRP/USDT': rules(1e-8, 5, 0.5, null),
    'XRP/USDC': rules(1e-8, 5, 0.5, null),
    'XRP/BTC': rules(1e-8, 5, 0.00001, null),
  },
  // 3: a minimum order value of 10 (0.0002 BTC on the BTC pairs).
  {
    'BTC/USDT': rules(1e-8, null, 10, null),
    'BTC/USDC': rules(1e-8, null, 10, null),
    'ETH/USDT': rules(1e-8, null, 10, null),
    'ETH/USDC': rules(1e-8, null, 10, null),
    'ETH/BTC': rules(1e-8, null, 0.0002, null),
    'USDC/USDT': rules(0.00001, null, 10, null),
    'SOL/USDT': rules(1e-8, null, 10, null),
    'SOL/USDC': rules(1e-8, null, 10, null),
    'SOL/BTC': rules(1e-8, null, 0.0002, null),
    'XRP/USDT': rules(1e-8, null, 10, null),
    'XRP/USDC': rules(1e-8, null, 10, null),
    'XRP/BTC': rules(1e-8, null, 0.0002, null),
  },
  // 4: a small venue: coarse lots, a minimum of 10 and a cap on one market order.
  {
    'BTC/USDT': rules(0.0001, 0.0001, 10, 0.25),
    'BTC/USDC': rules(0.0001, 0.0001, 10, 0.25),
    'ETH/USDT': rules(0.001, 0.01, 10, 5),
    'ETH/USDC': rules(0.001, 0.01, 10, 5),
    'ETH/BTC': rules(0.001, 0.01, 0.0002, 5),
    'USDC/USDT': rules(1, 10, 10, 100_000),
    'SOL/USDT': rules(0.01, 0.1, 10, 150),
    'SOL/USDC': rules(0.01, 0.1, 10, 150),
    'SOL/BTC': rules(0.01, 0.1, 0.0002, 150),
    'XRP/USDT': rules(1, 10, 10, 8000),
    'XRP/USDC': rules(1, 10, 10, 8000),
    'XRP/BTC': rules(1, 10, 0.0002, 8000),
  },
  // 5: significant digits (no fixed step) with a minimum size.
  {
    'BTC/USDT': rules(null, 0.00004, null, null),
    'BTC/USDC': rules(null, 0.00004, null, null),
    'ETH/USDT': rules(null, 0.0008, null, null),
    'ETH/USDC': rules(null, 0.0008, null, null),
    'ETH/BTC': rules(null, 0.0008, null, null),
    'USDC/USDT': rules(null, 4, null, null),
    'SOL/USDT': rules(null, 0.04, null, null),
    'SOL/USDC': rules(null, 0.04, null, null),
    'SOL/BTC': rules(null, 0.04, null, null),
    'XRP/USDT': rules(null, 4, null, null),
    'XRP/USDC': rules(null, 4, null, null),
    'XRP/BTC': rules(null, 4, null, null),
  },
];

/**
 * The rules of `symbol` on the venue of index `index` in `tier`: two styles per tier, alternating
 * by index (no random draw, so the rest of a seeded market is the same with or without rules).
 */
export function orderRules(tier: 1 | 2 | 3, index: number, symbol: string): OrderRules | null {
  const style = STYLES[(tier - 1) * 2 + (index % 2)];
  return style?.[symbol] ?? null;
}
