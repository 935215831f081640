import type { BookResync } from './book-resync';
import type { BookSlot } from './book-slot';
import type { BookSlots } from './book-slots';
import type { CcxtClient, CcxtProExchange } from './ccxt-venue';
import { INTEGRITY_CHECKS, integrityView, type IntegrityCheck, type IntegrityView } from './integrity';
import type { IngestorOptions, VenueSettings } from './options';
import type { SubscriptionGroup } from './subscription-plan';
import type { VenueCounters } from './venue-counters';

/**
 * A venue's book checks (docs/venues.md "Resilience"): the ingestor's own integrity check on every
 * message ccxt handled (integrity.ts, unless VENUES_CONFIG `checksum: false`; checksums over the
 * book sampled per `checksumEveryMs`), ccxt's own checks that rejected a watch, and the per-book
 * silence timeout. Each resynchronises only the books it found broken.
 */
export class BookWatchdog {
  readonly counters: Pick<VenueCounters, 'gaps' | 'checksumFailures' | 'stalls'> = {
    gaps: 0,
    checksumFailures: 0,
    stalls: 0,
  };
  private readonly check: IntegrityCheck | null;
  private readonly view: IntegrityView | null;

  constructor(
    exchange: CcxtProExchange,
    private readonly venue: VenueSettings,
    private readonly opts: Pick<IngestorOptions, 'clock' | 'logger'>,
    private readonly slots: BookSlots,
    private readonly resync: BookResync,
  ) {
    const make = venue.checksum ? INTEGRITY_CHECKS[venue.exchangeId] : undefined;
    this.check = make === undefined ? null : make({ everyMs: venue.checksumEveryMs, now: opts.clock });
    this.view = make === undefined ? null : integrityView(exchange);
  }

  /** Whether the venue has an integrity check of the ingestor's own (then `message` must see every message). */
  get checks(): boolean {
    return this.check !== null;
  }

  /**
   * The venue's integrity check on a message ccxt just handled. A fault withholds the book before
   * the publish this message scheduled runs (publishing is a microtask after ccxt's resolve), then
   * resyncs it: one book, or for a connection-wide sequence every book the connection carried.
   */
  message(message: unknown, client: CcxtClient): void {
    if (this.check === null) return;
    const fault = this.check.after(message, client, this.view!);
    if (fault === null) return;
    this.counters[fault.kind === 'gap' ? 'gaps' : 'checksumFailures']++;
    const hit =
      fault.symbol === null
        ? this.slots.carriedBy(client)
        : [this.slots.get(fault.symbol)].filter((s): s is BookSlot => s !== undefined);
    this.opts.logger.warn(`${fault.kind === 'gap' ? 'sequence gap' : 'checksum mismatch'}; resynchronising`, {
      exchangeId: this.venue.exchangeId,
      symbols: hit.map((s) => s.symbol),
      error: fault.detail,
    });
    for (const slot of hit) for (const s of this.slots.fedBy(slot.source)) s.withhold();
    if (fault.symbol === null && hit[0] !== undefined)
      this.resync.connection(hit[0], `sequence gap: ${fault.detail}`);
    else for (const slot of hit) this.resync.book(slot, `${slot.symbol}: ${fault.kind} (${fault.detail})`);
  }

  /** ccxt's own gap or checksum check rejected `group`'s watch. */
  rejected(group: SubscriptionGroup, kind: 'gap' | 'checksum', e: unknown): void {
    this.counters[kind === 'gap' ? 'gaps' : 'checksumFailures']++;
    this.resync.integrityFailed(group, e);
  }

  /** Every book silent past its timeout is resubscribed (a venue that acknowledges and goes quiet). */
  silence(): void {
    const t = this.opts.clock();
    const limit = this.venue.silenceMs;
    for (const slot of this.slots.values()) {
      // A book not yet rebuilt since its (re)subscription gets twice as long: venues that load
      // books over REST fetch them one after another behind ccxt's pacing.
      const allowed = slot.good ? limit : 2 * limit;
      if (slot.isAlias || t - slot.heardAt < allowed) continue;
      if (slot.resyncSince !== null && t - slot.resyncSince < allowed) continue;
      this.counters.stalls++;
      slot.heardAt = t;
      this.opts.logger.warn('book silent past its timeout; resubscribing it', {
        exchangeId: this.venue.exchangeId,
        symbol: slot.symbol,
        silenceMs: limit,
      });
      // A resync that itself went silent escalates to the connection.
      this.resync.book(slot, `${slot.symbol}: silent for ${limit} ms`, slot.resyncSince !== null);
    }
  }
}
