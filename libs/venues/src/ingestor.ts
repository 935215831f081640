import type { IngestorOptions } from './options';
import { VenueRunner } from './venue-runner';

/**
 * Live venues into book, market and venue records. Each venue runs on its own: one that is down
 * at start is retried with backoff while the others stream.
 */
export class Ingestor {
  private readonly runners: VenueRunner[] = [];
  private started = false;
  private next: NodeJS.Immediate | null = null;

  constructor(private readonly options: IngestorOptions) {}

  /**
   * Start every venue in the background; returns at once (venues connect on their own). One venue
   * per turn of the event loop: constructing a ccxt exchange costs about 20 ms of CPU, and sixty in
   * one go held a server sharing the process (npm start) from answering for over a second.
   */
  start(): void {
    if (this.started) throw new Error('Ingestor already started');
    this.started = true;
    this.startFrom(0);
  }

  private startFrom(i: number): void {
    const venue = this.options.venues[i];
    if (venue === undefined) return;
    const runner = new VenueRunner(venue, this.options);
    try {
      runner.start();
      this.runners.push(runner);
    } catch (e) {
      // A venue that cannot even be constructed must not stop the others.
      this.options.logger.error('venue not started', { exchangeId: venue.exchangeId, error: String(e) });
    }
    this.next = setImmediate(() => this.startFrom(i + 1));
  }

  /** Close every venue connection and wait until all records produced so far are written. */
  async stop(): Promise<void> {
    if (this.next !== null) clearImmediate(this.next);
    this.next = null;
    await Promise.all(this.runners.map((r) => r.stop()));
    this.runners.length = 0;
  }
}
