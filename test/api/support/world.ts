import type { EventRecord } from '@app/events';
import { book, market, T0, venue } from '../../support/records';

/**
 * The small hand-computable world of the API tests (all books stamped T0; the clock is pinned at T0):
 * - BTC/USDT on alpha (fee 0.001, asks 100x1, 110x1; bids 99x1, 98x1) and beta (fee 0.002, ask 101x2, bid 97x2)
 * - ETH/BTC on alpha only (ask 0.05x10, bid 0.049x10): USDT->ETH exists only over the BTC bridge
 * - SOL/USDT on alpha, last book 60 s old: all_books_stale
 * - XRP/USDT on alpha, fresh but empty: no_liquidity
 * alpha is certified, beta is not.
 */
export function world(): EventRecord[] {
  return [
    venue('alpha', true),
    venue('beta', false),
    market('alpha', 'BTC/USDT', 0.001),
    market('beta', 'BTC/USDT', 0.002),
    market('alpha', 'ETH/BTC', 0.001),
    market('alpha', 'SOL/USDT', 0.001),
    market('alpha', 'XRP/USDT', 0.001),
    book(
      'alpha',
      'BTC/USDT',
      [
        [99, 1],
        [98, 1],
      ],
      [
        [100, 1],
        [110, 1],
      ],
    ),
    book('beta', 'BTC/USDT', [[97, 2]], [[101, 2]]),
    book('alpha', 'ETH/BTC', [[0.049, 10]], [[0.05, 10]]),
    book('alpha', 'SOL/USDT', [[20, 5]], [[21, 5]], 1, T0 - 60_000),
    book('alpha', 'XRP/USDT', [], []),
  ];
}
