export { createLogger, SILENT_LOGGER } from './logger';
export type { Fields, LevelName, LoggerOptions, ServiceLogger } from './logger';
export { MIN_VENUE_FAILURE_WINDOW_MS, quietRepeats, venueFailures } from './quiet-repeats';
export { PARKED_PREFIX, venueSummary } from './venue-summary';
export type { SummaryInput, VenueLine } from './venue-summary';
export { startAdminServer } from './admin-server';
export type { AdminServer } from './admin-server';
