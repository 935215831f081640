import type { RecordSink } from '@app/event-log';
import { createLogger } from '@app/telemetry';
import type { Random } from '@app/retry';
import { DEFAULT_BREAKER, type BreakerPolicy } from './breaker';
import { DEFAULT_ASSETS, DEFAULT_VENUES } from './default-venues';
import { DEFAULT_CHECKSUM_EVERY_MS } from './integrity';
import type { VenueRule } from './venue-rule';
import { defaultSilenceMs, ruleOf } from './venue-quirks';
import type { VenueConfigEntry, VenuesConfig } from './venues-config';

/** Structured log lines (the service logger of @app/telemetry fits); the default writes JSON to stderr. */
export interface IngestorLogger {
  /**
   * Per-attempt detail (a venue's retries, markets loaded): its state is in the venue records and
   * the periodic console summary, so a long outage is not a line per retry. Optional.
   */
  debug?(message: string, fields?: Readonly<Record<string, unknown>>): void;
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
  error(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

/** One venue to ingest. */
export interface VenueSettings {
  readonly exchangeId: string;
  /** Unified symbols; null = every spot market with base and quote in `assets`. */
  readonly symbols: readonly string[] | null;
  /** Passed to the ccxt constructor (deep-merged by ccxt into its defaults). */
  readonly ccxt: Readonly<Record<string, unknown>>;
  /** `limit` for watchOrderBook(ForSymbols); undefined = ccxt's default channel. */
  readonly watchLimit: number | undefined;
  /** The venue's rules (venue-quirks.ts). */
  readonly rule: VenueRule;
  /** A book silent this long is resubscribed. */
  readonly silenceMs: number;
  /** The ingestor's own integrity checks (integrity.ts) on; VENUES_CONFIG `checksum: false` opts out (ccxt's own stay). */
  readonly checksum: boolean;
  /** Checksums over the ingestor's book (okx family, kraken): each book verified at most once per this many ms; 0 = every message. */
  readonly checksumEveryMs: number;
}

/** Everything the ingestor needs, resolved; build it with `ingestorOptions`. */
export interface IngestorOptions {
  readonly venues: readonly VenueSettings[];
  /** Levels per side published (the top of ccxt's book). */
  readonly depth: number;
  /** A snapshot record after this many delta records of one book. */
  readonly snapshotEvery: number;
  /** A snapshot at least this often (ms) for a book that keeps changing. */
  readonly snapshotEveryMs: number;
  readonly assets: readonly string[];
  /** Symbols per watchOrderBookForSymbols call. */
  readonly symbolsPerSubscription: number;
  /** Re-subscription backoff: full jitter under a ceiling doubling from initialMs to maxMs (ccxt adds its own dial backoff). */
  readonly backoff: { readonly initialMs: number; readonly maxMs: number };
  /** When a failing venue is parked, and how it is probed. */
  readonly breaker: BreakerPolicy;
  /** Randomness for backoff jitter (seeded in tests). */
  readonly random: Random;
  /** A monotonic clock (ms) for silence timers. */
  readonly clock: () => number;
  /** The clock; receivedAt is stamped with it when an update arrives. */
  readonly now: () => number;
  readonly logger: IngestorLogger;
  readonly sink: RecordSink;
  /** Bytes of records held while the log refuses writes (outage, full disk); past it book records are dropped. */
  readonly bufferBytes: number;
  /** Every market and venue record is written again this often (ms; 0 = never): repairs a lost one. */
  readonly listingRepublishMs: number;
}

/**
 * What a caller may set; everything else takes the documented defaults (docs/venues.md). The
 * write buffer and the listing period are configuration (WRITE_BUFFER_BYTES, LISTING_REPUBLISH_MS):
 * the caller passes them, their defaults are libs/config's.
 */
export interface IngestorOptionsInput {
  readonly sink: RecordSink;
  readonly bufferBytes: number;
  readonly listingRepublishMs: number;
  readonly venuesConfig?: VenuesConfig | null;
  readonly depth?: number;
  readonly snapshotEvery?: number;
  readonly snapshotEveryMs?: number;
  readonly assets?: readonly string[];
  readonly symbolsPerSubscription?: number;
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number };
  readonly breaker?: BreakerPolicy;
  readonly random?: Random;
  readonly clock?: () => number;
  readonly now?: () => number;
  readonly logger?: IngestorLogger;
}

export const DEFAULT_DEPTH = 500;
export const DEFAULT_SNAPSHOT_EVERY = 1000;
export const DEFAULT_SNAPSHOT_EVERY_MS = 30_000;
export const DEFAULT_SYMBOLS_PER_SUBSCRIPTION = 20;
export const DEFAULT_BACKOFF = Object.freeze({ initialMs: 500, maxMs: 30_000 });

/** The same JSON lines as every service process, on stderr (for embedders that pass no logger). */
export const stderrLogger: IngestorLogger = createLogger({ level: 'info', format: 'json', destination: 2 });

function positiveInt(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`ingestor option ${name} must be a positive integer, got ${value}`);
  return value;
}

function republishMs(value: number): number {
  if (!Number.isInteger(value) || value < 0)
    throw new RangeError(`ingestor option listingRepublishMs must be an integer >= 0, got ${value}`);
  return value;
}

/**
 * Resolve the ingestor's options: the venues of VENUES_CONFIG in the order written, or the
 * default spot venues; every numeric knob validated.
 */
export function ingestorOptions(input: IngestorOptionsInput): IngestorOptions {
  const configured = input.venuesConfig?.venues;
  const defaults = input.venuesConfig?.defaults ?? {};
  const venues: VenueSettings[] = configured
    ? [...configured].map(([exchangeId, entry]) => venueSettings(exchangeId, entry, defaults.silenceMs))
    : DEFAULT_VENUES.map((exchangeId) => venueSettings(exchangeId, null, defaults.silenceMs));
  const backoff = input.backoff ?? defaults.backoff ?? DEFAULT_BACKOFF;
  if (!(backoff.initialMs >= 0 && backoff.maxMs >= backoff.initialMs))
    throw new RangeError('ingestor backoff must satisfy 0 <= initialMs <= maxMs');
  const breaker = input.breaker ?? { ...DEFAULT_BREAKER, ...defaults.breaker };
  const assets = input.assets ?? DEFAULT_ASSETS;
  if (assets.length === 0) throw new RangeError('ingestor asset universe must not be empty');
  return {
    venues,
    depth: positiveInt('depth', input.depth ?? DEFAULT_DEPTH),
    snapshotEvery: positiveInt('snapshotEvery', input.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY),
    snapshotEveryMs: positiveInt('snapshotEveryMs', input.snapshotEveryMs ?? DEFAULT_SNAPSHOT_EVERY_MS),
    assets,
    symbolsPerSubscription: positiveInt(
      'symbolsPerSubscription',
      input.symbolsPerSubscription ?? DEFAULT_SYMBOLS_PER_SUBSCRIPTION,
    ),
    backoff,
    breaker,
    random: input.random ?? Math.random,
    clock: input.clock ?? (() => performance.now()),
    now: input.now ?? Date.now,
    logger: input.logger ?? stderrLogger,
    sink: input.sink,
    bufferBytes: positiveInt('bufferBytes', input.bufferBytes),
    listingRepublishMs: republishMs(input.listingRepublishMs),
  };
}

/** One venue's settings: its rules, with what VENUES_CONFIG sets winning. */
function venueSettings(
  exchangeId: string,
  entry: VenueConfigEntry | null,
  silenceMs: number | undefined,
): VenueSettings {
  const rule = ruleOf(exchangeId);
  return {
    exchangeId,
    symbols: entry?.symbols ?? null,
    // A class whose own REST pace is faster than the venue's budget is given the budget's.
    ccxt:
      rule.rateLimitMs !== undefined && entry?.ccxt?.rateLimit === undefined
        ? { rateLimit: rule.rateLimitMs, ...entry?.ccxt }
        : (entry?.ccxt ?? {}),
    watchLimit: entry?.watchLimit ?? rule.watchLimit ?? undefined,
    rule,
    silenceMs: entry?.silenceMs ?? silenceMs ?? defaultSilenceMs(rule),
    checksum: entry?.checksum ?? true,
    checksumEveryMs: entry?.checksumEveryMs ?? DEFAULT_CHECKSUM_EVERY_MS,
  };
}
