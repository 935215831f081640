export { ConfigError, UsageError } from './config-error';
export { deepFreeze } from './deep-freeze';
export type { ConfigIssue } from './config-error';
export { loadConfig } from './app-config';
export type {
  ApiConfig,
  AppName,
  IngestorConfig,
  LogConfig,
  ReplayConfig,
  ReplaySpeed,
  RoutingSettings,
  ServerConfig,
  StreamBudgetSettings,
  ShardConfig,
  StartConfig,
} from './app-config';
export { loadConfigOrExit } from './load-or-exit';
export { HTTP_LIMIT_DEFAULTS } from './http-limits';
export type { HttpLimits } from './http-limits';
export { LOG_LEVELS } from './observability';
export type { ConsoleConfig, LogFormat, LogLevelName, MetricsConfig } from './observability';
export { packageVersion } from './package-version';
export { ENV_HELP, FLAG_HELP, FLAGS_OF } from './options';
export type { EnvHelp, FlagHelp } from './options';
export { DEFAULT_RETENTION } from './log-retention';
export type { LogRetention } from './log-retention';
