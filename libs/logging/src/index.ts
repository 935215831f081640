export { createLogger, SILENT_LOGGER } from './logger';
export type { Fields, LevelName, LoggerOptions, ServiceLogger } from './logger';
export { quietRepeats } from './quiet-repeats';
export { venueSummary } from './venue-summary';
export type { SummaryInput, VenueLine } from './venue-summary';
