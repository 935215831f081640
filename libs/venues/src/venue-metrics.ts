import { Counter, Gauge, type Registry } from 'prom-client';
import { VENUE_EVENTS, type VenueHealth } from './venue-counters';

const STATES = ['starting', 'connecting', 'connected', 'parked'] as const;

/**
 * The ingestor's venue metrics in `registry` (the ingestor process's own /metrics, or npm start's
 * beside the API's; docs/venues.md "Metrics"), read from `health()` at each scrape:
 * - `ingestor_venue_events_total{venue,event}`: escapes, failures, badBooks, gaps,
 *   checksumFailures, stalls, bookResyncs, connectionResyncs, rateLimited, parks;
 * - `ingestor_venue_state{venue,state}`: 1 for the venue's state (starting, connecting,
 *   connected, parked), 0 for the others;
 * - `ingestor_venue_books{venue}` and `ingestor_venue_good_books{venue}`.
 */
export function registerVenueMetrics(registry: Registry, health: () => readonly VenueHealth[]): void {
  const registers = [registry];
  let cached: { at: number; value: readonly VenueHealth[] } | null = null;
  const current = (): readonly VenueHealth[] => {
    const t = performance.now();
    if (cached === null || t - cached.at > 100) cached = { at: t, value: health() };
    return cached.value;
  };
  const last = new Map<string, number>();
  new Counter({
    name: 'ingestor_venue_events_total',
    help: 'Per venue: contained escapes, failed subscriptions, withheld bad books, sequence gaps, checksum failures, silent books, book and connection resyncs, rate-limit answers, parks.',
    labelNames: ['venue', 'event'],
    registers,
    collect() {
      for (const v of current())
        for (const event of VENUE_EVENTS) {
          const key = `${v.exchangeId}|${event}`;
          const value = v.counters[event];
          const before = last.get(key) ?? 0;
          // Every label set is shown, zeros included, so a dashboard sees the venue before its first fault.
          this.inc({ venue: v.exchangeId, event }, Math.max(0, value - before));
          last.set(key, Math.max(before, value));
        }
    },
  });
  new Gauge({
    name: 'ingestor_venue_state',
    help: '1 for the venue state (starting, connecting, connected, parked by the circuit breaker), 0 for the others.',
    labelNames: ['venue', 'state'],
    registers,
    collect() {
      this.reset();
      for (const v of current())
        for (const s of STATES) this.set({ venue: v.exchangeId, state: s }, v.state === s ? 1 : 0);
    },
  });
  new Gauge({
    name: 'ingestor_venue_books',
    help: 'Books the venue watches.',
    labelNames: ['venue'],
    registers,
    collect() {
      this.reset();
      for (const v of current()) this.set({ venue: v.exchangeId }, v.books);
    },
  });
  new Gauge({
    name: 'ingestor_venue_good_books',
    help: 'Books whose last publish was a good book (not withheld, not resynchronising).',
    labelNames: ['venue'],
    registers,
    collect() {
      this.reset();
      for (const v of current()) this.set({ venue: v.exchangeId }, v.goodBooks);
    },
  });
}
