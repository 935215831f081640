import { BookPipeline } from './book-pipeline';
import { createVenue } from './ccxt-venue';
import type { IngestorOptions, VenueSettings } from './options';
import type { RecordWriter } from './record-writer';
import { emptyCounters, type VenueCounters, type VenueHealth } from './venue-counters';
import { VenueConnection } from './venue-connection';

/**
 * One venue (docs/venues.md "Resilience"): its connection (venue-connection.ts: markets, watch
 * loops, backoff, breaker, Retry-After, contained errors) and its book pipeline
 * (book-pipeline.ts: slots, publish, integrity checks, silence timers, resyncs), each owning its
 * state and telling the other through its typed events (venue-events.ts). This wires them.
 */
export class VenueRunner {
  private connection: VenueConnection | null = null;
  private pipeline: BookPipeline | null = null;

  constructor(
    private readonly venue: VenueSettings,
    private readonly opts: IngestorOptions,
    /** The ingestor's one queue into the log (shared by every venue). */
    private readonly writes: RecordWriter,
  ) {}

  get exchangeId(): string {
    return this.venue.exchangeId;
  }

  /** Construct the exchange and start in the background; never waits for the venue. */
  start(): void {
    const { exchange, certified, sourceFiles } = createVenue(this.venue.exchangeId, this.venue.ccxt);
    const connection = new VenueConnection(exchange, certified, this.venue, this.opts, this.writes);
    const pipeline = new BookPipeline(exchange, this.venue, this.opts, this.writes);
    const heard = connection.events;
    heard.on('planned', (plan) => pipeline.planned(plan));
    heard.on('resolved', (result, client) => pipeline.observe(result, client));
    if (pipeline.checksMessages) heard.on('handled', (message, client) => pipeline.message(message, client));
    heard.on('subscribing', (group) => pipeline.subscribing(group));
    heard.on('unsubscribed', (group) => pipeline.unsubscribed(group));
    heard.on('integrityFailed', (group, kind, e) => pipeline.integrityFailed(group, kind, e));
    heard.on('groupLost', (group) => pipeline.groupLost(group));
    heard.on('parked', (until) => pipeline.parked(until));
    heard.on('unparked', () => pipeline.unparked());
    const told = pipeline.events;
    told.on('published', (group, receivedAt, batch) => connection.published(group, receivedAt, batch));
    told.on('closeConnection', (client, groups, reason) => connection.close(client, groups, reason));
    told.on('closeAllConnections', (reason) => connection.closeAll(reason));
    this.connection = connection;
    this.pipeline = pipeline;
    connection.start(sourceFiles);
  }

  async stop(): Promise<void> {
    this.pipeline?.stop();
    await this.connection?.stop();
  }

  /** Books of this venue lost records on the way to the log: their next record is a snapshot. */
  lost(symbols: Iterable<string>): void {
    this.pipeline?.lost(symbols);
  }

  /** After a log outage: publish a fresh snapshot of every book, so every cache resynchronises. */
  republishAll(): void {
    this.pipeline?.republishAll();
  }

  /** The venue's state for /metrics and the summary line. */
  health(): VenueHealth {
    const { connection, pipeline } = this;
    const now = this.opts.now();
    const parkedUntil = connection?.failures.breaker.parkedUntil ?? null;
    const state =
      connection === null
        ? 'starting'
        : parkedUntil !== null && parkedUntil > now
          ? 'parked'
          : connection.failures.status.isConnected
            ? 'connected'
            : 'connecting';
    return {
      exchangeId: this.venue.exchangeId,
      state,
      parkedUntil: state === 'parked' ? parkedUntil : null,
      books: pipeline?.books ?? 0,
      goodBooks: pipeline?.goodBooks ?? 0,
      counters: this.counters,
    };
  }

  /** What went wrong on the venue so far, in the order of emptyCounters() (the summary line prints them so). */
  get counters(): VenueCounters {
    return { ...emptyCounters(), ...this.connection?.failures.counters, ...this.pipeline?.counters() };
  }
}
