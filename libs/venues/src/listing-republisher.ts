import { byCodeUnit, type EventRecord, type MarketRecord, type VenueRecord } from '@app/events';

/**
 * Every `everyMs` (LISTING_REPUBLISH_MS), the latest market record of every market and the latest
 * venue record of every venue the ingestor has written are written again, stamped with the clock:
 * a market or venue record lost to damage in the log is repaired within that time, as a book's
 * periodic snapshot repairs a book. Readers keep a venue's market out of routing from the damage
 * until the repair arrives (docs/operations-log.md "A lost market or venue record").
 */
export class ListingRepublisher {
  /** `exchangeId \0 m \0 symbol` and `exchangeId \0 v`: sorted, a venue's markets then its venue record. */
  private readonly latest = new Map<string, MarketRecord | VenueRecord>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly push: (records: EventRecord[]) => void,
    private readonly everyMs: number,
    private readonly now: () => number,
  ) {}

  /** Keep the market and venue records among `records` (every batch the ingestor writes). */
  note(records: readonly EventRecord[]): void {
    for (const r of records) {
      if (r.type === 'market') this.latest.set(`${r.exchangeId}\u0000m\u0000${r.symbol}`, r);
      else if (r.type === 'venue') this.latest.set(`${r.exchangeId}\u0000v`, r);
    }
  }

  start(): void {
    if (this.everyMs <= 0 || this.timer !== null) return;
    this.timer = setInterval(() => this.republish(), this.everyMs);
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** Write every kept record again, stamped now, in venue order; returns how many. */
  republish(): number {
    if (this.latest.size === 0) return 0;
    const receivedAt = this.now();
    const out = [...this.latest.keys()]
      .sort(byCodeUnit)
      .map((key): EventRecord => ({ ...this.latest.get(key)!, receivedAt }));
    this.push(out);
    return out.length;
  }
}
