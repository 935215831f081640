import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { QuoteJournal } from '@app/audit';
import { RECORD_TOPICS } from '@app/events';
import type { BookFeed } from '@app/live-feed';
import type { EventLog } from '@app/event-log';
import type { StatusReport } from '../health/service-status';
import type { StreamStats } from '../stream/stream-hub';
import type { LimitStats } from '../limits/limits';

/** What the metrics read at each scrape. */
export interface MetricSources {
  readonly log: EventLog;
  readonly feed: BookFeed;
  readonly journal: QuoteJournal;
  readonly stream: () => StreamStats;
  readonly refusals: () => { readonly ipv4Only: number; readonly rateLimited: number };
  /** Open connections, and those reset to make room for a newcomer (edge/connection-budget.ts). */
  readonly connections?: () => { readonly open: number; readonly shed: number };
  readonly status: () => StatusReport;
  /** The rate limit and the stream cap (absent: in this process, nothing to report). */
  readonly limits?: () => LimitStats;
}

/** Latency buckets (seconds) from well under a millisecond to a few seconds. */
const LATENCY = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const HEALTH = ['starting', 'no_fresh_books', 'degraded', 'ok'] as const;

/**
 * The API's Prometheus metrics (prom-client, in a registry of their own; docs/operations-log.md
 * "Metrics"). Latencies are observed as they happen; everything else is read from the feed, the
 * log, the journal, the stream hub and the gate when scraped, so serving costs nothing extra.
 */
export class ApiMetrics {
  readonly registry = new Registry();
  private readonly quotes: Counter<'method' | 'status'>;
  private readonly routeSeconds: Histogram<'method'>;
  private readonly pushSeconds: Histogram;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.quotes = new Counter({
      name: 'route_quotes_total',
      help: 'GET/POST /route answers by HTTP status (200, 404, 501 are quotes; 400, 413, 429, 503 refusals).',
      labelNames: ['method', 'status'],
      registers,
    });
    this.routeSeconds = new Histogram({
      name: 'route_duration_seconds',
      help: 'GET/POST /route: from the request arriving to the response written.',
      labelNames: ['method'],
      buckets: LATENCY,
      registers,
    });
    this.pushSeconds = new Histogram({
      name: 'stream_push_delay_seconds',
      help: 'Stream: from the fold of a book change to the frame written to a subscriber (includes the 100 ms floor).',
      buckets: LATENCY,
      registers,
    });
    monotonic(
      'stream_frames_sent_total',
      'Stream frames written to sockets.',
      registers,
      () => sources.stream().framesSentTotal,
    );
    monotonic(
      'stream_frames_dropped_total',
      'Stream frames replaced unsent by a newer state (slow reader or push floor).',
      registers,
      () => sources.stream().framesDroppedTotal,
    );
    monotonic(
      'stream_frames_withheld_total',
      'Stream frames not sent because the quote journal refused them (the client is told: v2 error, v1 close 1013).',
      registers,
      () => sources.stream().framesWithheldTotal,
    );
    monotonic(
      'http_rate_limited_total',
      'Requests and stream upgrades refused 429 by the per-IP rate limit.',
      registers,
      () => sources.refusals().rateLimited,
    );
    monotonic(
      'http_ipv4_refused_total',
      'Requests and stream upgrades refused 403 ipv4_only.',
      registers,
      () => sources.refusals().ipv4Only,
    );
    monotonic(
      'http_connections_shed_total',
      'Connections reset to make room for a newcomer while the server was at CONNECTIONS_MAX.',
      registers,
      () => sources.connections?.().shed ?? 0,
    );
    new Gauge({
      name: 'http_connections_open',
      help: 'Open connections (HTTP and streams) counted against CONNECTIONS_MAX.',
      registers,
      collect() {
        this.set(sources.connections?.().open ?? 0);
      },
    });
    monotonic(
      'journal_appended_records_total',
      'Quote journal records appended to the log.',
      registers,
      () => sources.journal.stats.appended,
    );
    monotonic(
      'journal_append_failures_total',
      'Failed quote journal appends (each retried).',
      registers,
      () => sources.journal.stats.failures,
    );
    new Gauge({
      name: 'journal_queued_bytes',
      help: 'Estimated memory held by quote journal records waiting for their append, both journal topics (bounded by JOURNAL_QUEUE_BYTES each).',
      registers,
      collect() {
        this.set(sources.journal.queuedBytesTotal);
      },
    });
    new Gauge({
      name: 'journal_queued_records',
      help: 'Quote journal records waiting in memory for their append (journal lag).',
      registers,
      collect() {
        this.set(sources.journal.queued);
      },
    });
    monotonic(
      'stream_budget_waits_total',
      'Times the stream budget (STREAM_FRAMES_PER_SEC, STREAM_BYTES_PER_SEC) made waiting frames wait.',
      registers,
      () => sources.stream().budgetWaits,
    );
    new Gauge({
      name: 'stream_frames_waiting',
      help: 'Stream sockets waiting their turn in the stream budget now.',
      registers,
      collect() {
        this.set(sources.stream().waiting);
      },
    });
    new Gauge({
      name: 'stream_subscribers',
      help: 'Open stream sockets.',
      registers,
      collect() {
        this.set(sources.stream().subscribers);
      },
    });
    new Gauge({
      name: 'feed_lag_records',
      help: 'Records appended to the event log that the book feed has not folded yet, per partition.',
      labelNames: ['topic', 'partition'],
      registers,
      async collect() {
        this.reset();
        const positions = sources.feed.positions();
        for (const topic of RECORD_TOPICS) {
          const hwm = await sources.log.highWatermarks(topic);
          const pos = positions[topic] ?? [];
          hwm.forEach((h, p) => this.set({ topic, partition: String(p) }, Math.max(0, h - (pos[p] ?? 0))));
        }
      },
    });
    this.venueGauges(sources, registers);
    if (sources.limits !== undefined) this.limitMetrics(sources.limits, registers);
  }

  /** With REDIS_URL: whether Redis answers, and what this replica judged alone meanwhile (fail open). */
  private limitMetrics(limits: () => LimitStats, registers: Registry[]): void {
    new Gauge({
      name: 'shared_limits_up',
      help: 'Whether the store shared by the replicas (Redis) answered its last call; 1 when the limits are in this process.',
      registers,
      collect() {
        this.set(limits().sharedUp ? 1 : 0);
      },
    });
    monotonic(
      'shared_limits_fallback_requests_total',
      'Requests and upgrades this replica rate-limited alone because Redis did not answer (fail open).',
      registers,
      () => limits().rateFallbacks,
    );
    monotonic(
      'shared_limits_fallback_streams_total',
      'Streams this replica admitted against its own count because Redis did not answer (fail open).',
      registers,
      () => limits().streamFallbacks,
    );
  }

  /** One GET/POST /route answer and its duration. */
  observeRoute(method: string, status: number, seconds: number): void {
    this.quotes.inc({ method, status: String(status) });
    this.routeSeconds.observe({ method }, seconds);
  }

  /** One stream frame written, `delayMs` after the change it answers was folded. */
  observePush(delayMs: number): void {
    this.pushSeconds.observe(delayMs / 1000);
  }

  /** Health, and per venue: connection, fresh books and the age of its newest book, from one status report per scrape. */
  private venueGauges(sources: MetricSources, registers: Registry[]): void {
    let report: { at: number; value: StatusReport } | null = null;
    // The four gauges read one report per scrape, not four.
    const current = (): StatusReport => {
      const t = performance.now();
      if (report === null || t - report.at > 100) report = { at: t, value: sources.status() };
      return report.value;
    };
    new Gauge({
      name: 'health_status',
      help: '1 for the current /health status, 0 for the others.',
      labelNames: ['status'],
      registers,
      collect() {
        const now = current().status;
        for (const s of HEALTH) this.set({ status: s }, s === now ? 1 : 0);
      },
    });
    const perVenue = (
      name: string,
      help: string,
      value: (v: StatusReport['venues'][number], now: number) => number | null,
    ): void => {
      new Gauge({
        name,
        help,
        labelNames: ['venue'],
        registers,
        collect() {
          this.reset();
          const r = current();
          for (const v of r.venues) {
            const x = value(v, r.now);
            if (x !== null) this.set({ venue: v.exchangeId }, x);
          }
        },
      });
    };
    new Gauge({
      name: 'clock_skew_seconds',
      help: 'The ingestor clock less this API clock, from the records folded in the last 10 s (positive: books stamped ahead; above 1 s they do not route and /health is degraded). Absent when none was folded.',
      registers,
      collect() {
        this.reset();
        const skew = current().clockSkewMs;
        if (skew !== null) this.set(skew / 1000);
      },
    });
    perVenue('venue_connected', '1 when the venue reports itself connected.', (v) => (v.connected ? 1 : 0));
    perVenue(
      'venue_fresh_books',
      'Books of the venue in sync and younger than STALE_BOOK_MS.',
      (v) => v.freshBooks,
    );
    perVenue('venue_book_age_seconds', 'Age of the venue’s newest book at the service clock.', (v, now) =>
      v.newestBookAt === null ? null : Math.max(0, now - v.newestBookAt) / 1000,
    );
  }
}

/** A counter that follows a count kept elsewhere (it only ever grows by the difference). */
function monotonic(name: string, help: string, registers: Registry[], read: () => number): void {
  let last = 0;
  new Counter({
    name,
    help,
    registers,
    collect() {
      const value = read();
      if (value > last) this.inc(value - last);
      last = Math.max(last, value);
    },
  });
}
