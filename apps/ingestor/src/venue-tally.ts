import type { EventRecord } from '@app/events';
import type { RecordSink } from '@app/event-log';
import { venueSummary, type Fields } from '@app/telemetry';
import type { VenueHealth } from '@app/venues';

/** A book counts as fresh in the ingestor's summary when it published within this window. */
const FRESH_MS = 10_000;

interface Venue {
  connected: boolean;
  lastError: string | null;
  /** Last receivedAt per symbol. */
  readonly books: Map<string, number>;
}

/**
 * What the ingestor process has written, per venue, for its console summary: the last venue
 * record (connected, lastError) and when each book last published. Taps the sink, so it sees
 * exactly what reaches the log (the API process judges from the log itself).
 */
export class VenueTally {
  private readonly venues = new Map<string, Venue>();

  /** A sink that records what passes through it into the tally. */
  tap(sink: RecordSink): RecordSink {
    return { write: (records) => (this.observe(records), sink.write(records)) };
  }

  observe(records: readonly EventRecord[]): void {
    for (const r of records) {
      const v = this.venue(r.exchangeId);
      if (r.type === 'venue') {
        v.connected = r.connected;
        v.lastError = r.lastError;
      } else if (r.type === 'book') v.books.set(r.symbol, r.receivedAt);
    }
  }

  /** The one-line summary at wall-clock `now`; `health` (the ingestor's own view) says which venues are parked. */
  summary(
    now: number,
    health: readonly Pick<VenueHealth, 'exchangeId' | 'state'>[] = [],
  ): { message: string; fields: Fields } {
    const parked = new Set(health.filter((h) => h.state === 'parked').map((h) => h.exchangeId));
    const venues = [...this.venues].map(([exchangeId, v]) => ({
      exchangeId,
      connected: v.connected,
      books: v.books.size,
      freshBooks: [...v.books.values()].filter((at) => now - at <= FRESH_MS).length,
      lastError: v.lastError,
      parked: parked.has(exchangeId),
    }));
    return venueSummary({ status: 'ingestor', venues });
  }

  private venue(exchangeId: string): Venue {
    let v = this.venues.get(exchangeId);
    if (v === undefined)
      this.venues.set(exchangeId, (v = { connected: false, lastError: null, books: new Map() }));
    return v;
  }
}
