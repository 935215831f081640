export { generateMarket, DEFAULT_GEN } from './market-sim';
export type { MarketGenSpec } from './market-sim';
export { MARKETS, TIERS, venueProfiles } from './profiles';
export type { MarketSpec, Tier, VenueProfile } from './profiles';
export { writeJsonl } from './write-events';
export { SYNTH_EPOCH, between, exponential, gaussian, seeded } from './random';
export type { Random } from './random';
export { bookRecords, listingRecords, toEntries, venueId } from './record-stream';
export type { StreamSpec } from './record-stream';
