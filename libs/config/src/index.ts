export { ConfigError, UsageError } from './config-error';
export { deepFreeze } from './deep-freeze';
export type { ConfigIssue } from './config-error';
export { loadConfig } from './app-config';
export type {
  ApiConfig,
  IngestorConfig,
  ReplayToolConfig,
  StartConfig,
  VenuesCheckConfig,
} from './app-config';
export type { AppName, ConfigKey } from './keys/config-key';
export { defaultText, keyName } from './keys/config-key';
export { CONFIG_KEYS, defaultOf } from './keys/keys';
export type { LogConfig } from './log-config';
export type { ReplayConfig, ReplaySpeed, ShardConfig } from './ingest-config';
export { SERVER_DEFAULTS } from './server-config';
export type { ReceiptSettings, RoutingSettings, ServerConfig, StreamBudgetSettings } from './server-config';
export { loadConfigOrExit } from './load-or-exit';
export { HTTP_LIMIT_DEFAULTS } from './http-limits';
export type { HttpLimits } from './http-limits';
export { LOG_LEVELS } from './observability';
export type { ConsoleConfig, LogFormat, LogLevelName, MetricsConfig } from './observability';
export { packageVersion } from './package-version';
export { readBuiltFile } from './built-file';
export { ENV_HELP, FLAG_HELP, FLAGS_OF, envTable } from './help';
export type { EnvHelp, FlagHelp } from './help';
export { DEFAULT_RETENTION } from './log-retention';
export type { LogRetention } from './log-retention';
export { parseNumber } from './parse-number';
export type { NumberBounds } from './parse-number';
export { configOption, numberArg } from './tool-options';
