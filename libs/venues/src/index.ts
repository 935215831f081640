export { Ingestor } from './ingestor';
export {
  ingestorOptions,
  stderrLogger,
  DEFAULT_BUFFER_BYTES,
  DEFAULT_DEPTH,
  DEFAULT_SNAPSHOT_EVERY,
  DEFAULT_LISTING_REPUBLISH_MS,
} from './options';
export { ListingRepublisher } from './listing-republisher';
export { RecordWriter } from './record-writer';
export type { RecordWriterOptions } from './record-writer';
export type { IngestorLogger, IngestorOptions, IngestorOptionsInput, VenueSettings } from './options';
export { loadVenuesConfig, parseVenuesConfig, VenuesConfigError } from './venues-config';
export type { VenueConfigEntry, VenuesConfig, VenuesDefaults } from './venues-config';
export { watchOrderBookIds } from './ccxt-venue';
export { DEFAULT_ASSETS, DEFAULT_VENUES, EXCLUDED_VENUES } from './default-venues';
export { TAKER_FEE_OVERRIDES } from './fees';
// The ingestion pipeline's parts, for benchmarks that time one stage at a time.
export { BookPublisher } from './book-publisher';
export type { CcxtBook } from './ccxt-venue';
export { touchedBand, trackBook } from './side-tracker';
export { VenueRunner } from './venue-runner';
export { registerVenueMetrics } from './venue-metrics';
export { VENUE_EVENTS } from './venue-counters';
export type { VenueCounters, VenueEvent, VenueHealth } from './venue-counters';
export { DEFAULT_RULE, VENUE_RULES, ruleOf } from './venue-rules';
export type { VenueRule } from './venue-rule';
export { DEFAULT_BREAKER } from './breaker';
export type { BreakerPolicy } from './breaker';
export { RULES_TABLE_HEAD, subscribePacingMs, venueRulesRows, venueRulesTable } from './rules-table';
export { DEFAULT_CHECKSUM_EVERY_MS, INTEGRITY_CHECKS, krakenCheck, okxCheck } from './integrity';
export type { ChecksumSampling } from './integrity';
export type { IntegrityCheck, IntegrityFault, IntegrityView } from './integrity';
