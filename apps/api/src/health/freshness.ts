import type { BookView } from '@app/books';
import { CLOCK_SKEW_TOLERANCE_MS } from '@app/routing';

/**
 * Whether a book may route at `now` (docs/semantics.md "Freshness"): in sync, at most staleBookMs
 * old, and not stamped more than CLOCK_SKEW_TOLERANCE_MS ahead of the clock.
 */
export function isFresh(book: BookView, now: number, staleBookMs: number): boolean {
  return (
    book.inSync && now - book.receivedAt <= staleBookMs && book.receivedAt - now <= CLOCK_SKEW_TOLERANCE_MS
  );
}
