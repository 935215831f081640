import { DEFAULT_RULE, type VenueRule } from './venue-rule';
import { BATCHED_VENUE_RULES } from './venue-quirks-batched';
import { ONE_BOOK_VENUE_RULES } from './venue-quirks-one-book';
import { OPT_IN_VENUE_RULES } from './venue-quirks-opt-in';

/**
 * Each venue's rules: how much it takes per subscribe request and connection, its deepest book
 * channel, how often it pushes, how a bad book of it is resynced, and what ccxt does oddly there
 * (docs/venues.md "Venue rules" lists them with their sources). Kept in three parts by how a
 * venue takes subscriptions, in exchangeId order here. Pacing is ccxt's: each subscribe message
 * waits rateLimit x options.ws.cost ms behind the previous one on its connection (base/Exchange.js
 * watch, client.throttle); docs/venues.md lists the figure.
 */
export const VENUE_RULES: Readonly<Record<string, VenueRule>> = Object.freeze(
  Object.fromEntries(
    [
      ...Object.entries(BATCHED_VENUE_RULES),
      ...Object.entries(ONE_BOOK_VENUE_RULES),
      ...Object.entries(OPT_IN_VENUE_RULES),
    ].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  ),
);

/** The rules of `exchangeId` (the table's entry, else DEFAULT_RULE). */
export function ruleOf(exchangeId: string): VenueRule {
  return VENUE_RULES[exchangeId] ?? DEFAULT_RULE;
}

/** Silence timeout derived from a venue's normal update interval: 600 updates' worth, within [60 s, 10 min]. */
export function defaultSilenceMs(rule: VenueRule): number {
  return Math.min(600_000, Math.max(60_000, rule.updateMs * 600));
}
