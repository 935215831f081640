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
export type { VenueConfigEntry, VenuesConfig } from './venues-config';
export { watchOrderBookIds } from './ccxt-venue';
export { DEFAULT_ASSETS, DEFAULT_VENUES, EXCLUDED_VENUES } from './default-venues';
export { TAKER_FEE_OVERRIDES } from './fees';
// The ingestion pipeline's parts, for benchmarks that time one stage at a time.
export { BookPublisher } from './book-publisher';
export type { CcxtBook } from './ccxt-venue';
export { touchedBand, trackBook } from './side-tracker';
export { VenueRunner } from './venue-runner';
