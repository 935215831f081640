import type { BookResync, ResyncContext } from './book-resync';
import type { BookSlot } from './book-slot';
import type { CcxtClient } from './ccxt-venue';
import { INTEGRITY_CHECKS, integrityView, type IntegrityCheck, type IntegrityView } from './integrity';

/**
 * A venue's book checks (docs/venues.md "Resilience"): the ingestor's own integrity check on every
 * message ccxt handled (integrity.ts, unless VENUES_CONFIG `checksum: false`; checksums over the
 * book sampled per `checksumEveryMs`), and the per-book
 * silence timeout. Either resynchronises only the books it found broken.
 */
export class BookWatchdog {
  private readonly check: IntegrityCheck | null;
  private readonly view: IntegrityView | null;

  constructor(
    private readonly ctx: ResyncContext,
    private readonly resync: BookResync,
    /** True while the venue is parked: its silent books are expected then. */
    private readonly parked: () => boolean,
  ) {
    const make = ctx.venue.checksum ? INTEGRITY_CHECKS[ctx.venue.exchangeId] : undefined;
    this.check =
      make === undefined ? null : make({ everyMs: ctx.venue.checksumEveryMs, now: ctx.opts.clock });
    this.view = make === undefined ? null : integrityView(ctx.exchange);
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
    const { ctx } = this;
    if (ctx.stopped() || this.check === null) return;
    const fault = this.check.after(message, client, this.view!);
    if (fault === null) return;
    ctx.counters[fault.kind === 'gap' ? 'gaps' : 'checksumFailures']++;
    const hit =
      fault.symbol === null
        ? [...ctx.slots.values()].filter((s) => !s.isAlias && s.client === client)
        : [ctx.slots.get(fault.symbol)].filter((s): s is BookSlot => s !== undefined);
    ctx.opts.logger.warn(`${fault.kind === 'gap' ? 'sequence gap' : 'checksum mismatch'}; resynchronising`, {
      exchangeId: ctx.venue.exchangeId,
      symbols: hit.map((s) => s.symbol),
      error: fault.detail,
    });
    for (const slot of hit) for (const s of ctx.feeds.get(slot.source) ?? []) s.withhold();
    if (fault.symbol === null && hit[0] !== undefined)
      this.resync.connection(hit[0], `sequence gap: ${fault.detail}`);
    else for (const slot of hit) this.resync.book(slot, `${slot.symbol}: ${fault.kind} (${fault.detail})`);
  }

  /** Every book silent past its timeout is resubscribed (a venue that acknowledges and goes quiet). */
  silence(): void {
    const { ctx } = this;
    if (ctx.stopped() || this.parked()) return;
    const t = ctx.opts.clock();
    const limit = ctx.venue.silenceMs;
    for (const slot of ctx.slots.values()) {
      // A book not yet rebuilt since its (re)subscription gets twice as long: venues that load
      // books over REST fetch them one after another behind ccxt's pacing.
      const allowed = slot.good ? limit : 2 * limit;
      if (slot.isAlias || t - slot.heardAt < allowed) continue;
      if (slot.resyncSince !== null && t - slot.resyncSince < allowed) continue;
      ctx.counters.stalls++;
      slot.heardAt = t;
      ctx.opts.logger.warn('book silent past its timeout; resubscribing it', {
        exchangeId: ctx.venue.exchangeId,
        symbol: slot.symbol,
        silenceMs: limit,
      });
      // A resync that itself went silent escalates to the connection.
      this.resync.book(slot, `${slot.symbol}: silent for ${limit} ms`, slot.resyncSince !== null);
    }
  }
}
