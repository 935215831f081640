import { ListingRepublisher } from './listing-republisher';
import type { IngestorOptions } from './options';
import { RecordWriter } from './record-writer';
import type { VenueHealth } from './venue-counters';
import { VenueRunner } from './venue-runner';

/**
 * Live venues into book, market and venue records. Each venue runs on its own: one that is down
 * at start is retried with backoff while the others stream. All write through one RecordWriter,
 * which rides out log outages (docs/operations-log.md "Faults").
 */
export class Ingestor {
  private readonly runners = new Map<string, VenueRunner>();
  private started = false;
  private next: NodeJS.Immediate | null = null;
  readonly writer: RecordWriter;
  readonly republisher: ListingRepublisher;

  constructor(private readonly options: IngestorOptions) {
    this.republisher = new ListingRepublisher(
      (records) => this.writer.push(records),
      options.listingRepublishMs,
      options.now,
    );
    this.writer = new RecordWriter({
      sink: options.sink,
      logger: options.logger,
      budgetBytes: options.bufferBytes,
      backoff: { initialMs: 200, maxMs: 5_000 },
      random: options.random,
      now: options.now,
      onLost: (books) => {
        const byVenue = new Map<string, string[]>();
        for (const key of books) {
          const bar = key.indexOf('|');
          const list = byVenue.get(key.slice(0, bar)) ?? [];
          list.push(key.slice(bar + 1));
          byVenue.set(key.slice(0, bar), list);
        }
        for (const [venue, symbols] of byVenue) this.runners.get(venue)?.lost(symbols);
      },
      onRecovered: () => {
        for (const r of this.runners.values()) r.republishAll();
      },
      onPush: (records) => this.republisher.note(records),
    });
  }

  /**
   * Start every venue in the background; returns at once (venues connect on their own). One venue
   * per turn of the event loop: constructing a ccxt exchange costs about 20 ms of CPU, and sixty in
   * one go held a server sharing the process (npm start) from answering for over a second.
   */
  start(): void {
    if (this.started) throw new Error('Ingestor already started');
    this.started = true;
    this.startFrom(0);
    this.republisher.start();
  }

  private startFrom(i: number): void {
    const venue = this.options.venues[i];
    if (venue === undefined) return;
    const runner = new VenueRunner(venue, this.options, this.writer);
    try {
      runner.start();
      this.runners.set(venue.exchangeId, runner);
    } catch (e) {
      // A venue that cannot even be constructed must not stop the others.
      this.options.logger.error('venue not started', { exchangeId: venue.exchangeId, error: String(e) });
    }
    this.next = setImmediate(() => this.startFrom(i + 1));
  }

  /** Every started venue's state and counters, in start order (/metrics, the summary line). */
  health(): VenueHealth[] {
    return [...this.runners.values()].map((r) => r.health());
  }

  /** Close every venue connection and write what they produced (giving up after `timeoutMs` of refusals). */
  async stop(timeoutMs = 5_000): Promise<void> {
    if (this.next !== null) clearImmediate(this.next);
    this.next = null;
    this.republisher.stop();
    await Promise.all([...this.runners.values()].map((r) => r.stop()));
    this.runners.clear();
    await this.writer.close(timeoutMs);
  }
}
