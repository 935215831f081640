import type { IngestorOptions } from './options';
import { VenueRunner } from './venue-runner';

/**
 * Live venues into book, market and venue records. Each venue runs on its own: one that is down
 * at start is retried with backoff while the others stream.
 */
export class Ingestor {
  private readonly runners: VenueRunner[] = [];
  private started = false;

  constructor(private readonly options: IngestorOptions) {}

  /** Start every venue in the background; returns at once (venues connect on their own). */
  start(): void {
    if (this.started) throw new Error('Ingestor already started');
    this.started = true;
    for (const venue of this.options.venues) {
      const runner = new VenueRunner(venue, this.options);
      try {
        runner.start();
        this.runners.push(runner);
      } catch (e) {
        // A venue that cannot even be constructed must not stop the others.
        this.options.logger.error('venue not started', { exchangeId: venue.exchangeId, error: String(e) });
      }
    }
  }

  /** Close every venue connection and wait until all records produced so far are written. */
  async stop(): Promise<void> {
    await Promise.all(this.runners.map((r) => r.stop()));
    this.runners.length = 0;
  }
}
