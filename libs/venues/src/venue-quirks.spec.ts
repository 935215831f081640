import { describe, expect, it } from 'vitest';
import { DEFAULT_VENUES } from './default-venues';
import { VENUE_RULES } from './venue-quirks';
import { BATCHED_VENUE_RULES } from './venue-quirks-batched';
import { ONE_BOOK_VENUE_RULES } from './venue-quirks-one-book';
import { OPT_IN_VENUE_RULES } from './venue-quirks-opt-in';

describe('the venue rules table in its three parts', () => {
  it('files each venue under how it takes subscriptions', () => {
    for (const [id, r] of Object.entries(BATCHED_VENUE_RULES)) expect(r.perRequest, id).toBeGreaterThan(1);
    for (const [id, r] of Object.entries(ONE_BOOK_VENUE_RULES)) expect(r.perRequest, id).toBe(1);
    for (const [id, r] of Object.entries(OPT_IN_VENUE_RULES)) {
      expect(r.credentials ?? r.noDefaultMarket, id).toBeDefined();
      expect(DEFAULT_VENUES, id).not.toContain(id);
    }
  });

  it('holds every venue of the parts once, in exchangeId order', () => {
    const parts = [BATCHED_VENUE_RULES, ONE_BOOK_VENUE_RULES, OPT_IN_VENUE_RULES].flatMap((p) =>
      Object.keys(p),
    );
    expect(new Set(parts).size).toBe(parts.length);
    expect(Object.keys(VENUE_RULES)).toEqual([...parts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    for (const id of parts) expect(Object.isFrozen(VENUE_RULES[id]), id).toBe(true);
  });
});
