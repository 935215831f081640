import { ConfigError } from './config-error';
import { deepFreeze } from './deep-freeze';
import {
  readReplay,
  readShards,
  readVenuesConfig,
  readWriter,
  type ReplayConfig,
  type ShardConfig,
} from './ingest-config';
import { keyName, type AppName } from './keys/config-key';
import { flagKey, flagsOf } from './keys/keys';
import { readLog, readLogLocation, type ReaderLogConfig, type WriterLogConfig } from './log-config';
import {
  readConsole,
  readMetrics,
  readShutdownTimeout,
  type ConsoleConfig,
  type MetricsConfig,
} from './observability';
import { parseArgv, type ParsedArgv } from './parse-argv';
import { Reader } from './read-values';
import { readServer, type ServerConfig } from './server-config';

/** What every service process reads besides its own section. */
interface ServiceConfig {
  readonly log: WriterLogConfig;
  readonly console: ConsoleConfig;
  readonly metrics: MetricsConfig | null;
  /** SHUTDOWN_TIMEOUT_MS: the deadline of a graceful stop. */
  readonly shutdownTimeoutMs: number;
}

/** `apps/api/src/main.ts`: the API process folding the log. */
export interface ApiConfig extends ServiceConfig {
  readonly app: 'api';
  readonly server: ServerConfig;
  /** Pinned clock (epoch ms), or null for the wall clock. */
  readonly nowMs: number | null;
}

/** `npm start`: ingestor (live) or replay feeder, plus the API, in one process. */
export interface StartConfig extends ServiceConfig {
  readonly app: 'start';
  readonly server: ServerConfig;
  readonly nowMs: number | null;
  /** null = live venues through the ingestor. */
  readonly replay: ReplayConfig | null;
  readonly venuesConfig: string | null;
  /** WRITE_BUFFER_BYTES: records the ingestor holds while the log refuses writes. */
  readonly writeBufferBytes: number;
  /** LISTING_REPUBLISH_MS: how often the ingestor writes every market and venue record again (0 = never). */
  readonly listingRepublishMs: number;
}

/** `apps/ingestor`: live venues into the log. */
export interface IngestorConfig extends ServiceConfig {
  readonly app: 'ingestor';
  /** null = live venues; otherwise the recording is fed into the log instead. */
  readonly replay: ReplayConfig | null;
  readonly venuesConfig: string | null;
  readonly writeBufferBytes: number;
  readonly listingRepublishMs: number;
  /** null = this ingestor runs every configured venue. */
  readonly shards: ShardConfig | null;
}

/** `route-service replay`: the event log its commands read (never write). */
export interface ReplayToolConfig {
  readonly app: 'replay';
  readonly log: ReaderLogConfig;
}

/** `route-service venues check`: the venues the ingestor would run. */
export interface VenuesCheckConfig {
  readonly app: 'venues';
  /** VENUES_CONFIG, or null for the default venues. */
  readonly venuesConfig: string | null;
}

export type ConfigOf<A extends AppName> = {
  api: ApiConfig;
  start: StartConfig;
  ingestor: IngestorConfig;
  replay: ReplayToolConfig;
  venues: VenuesCheckConfig;
}[A];

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Build the frozen configuration of `app` from its command line and the environment: `argv`
 * (without node and script) for a service process, or the flags commander already parsed for a
 * tool's subcommand (replay's `--data-dir`). Throws ConfigError listing every bad key; never
 * reads process.* itself (see loadConfigOrExit).
 */
export function loadConfig<A extends AppName>(
  app: A,
  argv: readonly string[] | ReadonlyMap<string, string>,
  env: Env,
  cwd: string,
): ConfigOf<A> {
  const parsed =
    argv instanceof Map ? { flags: argv, issues: [] } : parseAppArgv(app, argv as readonly string[]);
  return readConfig(app, parsed, env, cwd);
}

/** `app`'s command line read against the table's flags for it (one parse: parse-argv.ts). */
export function parseAppArgv(app: AppName, argv: readonly string[]): ParsedArgv {
  const names = flagsOf(app);
  const switches = names.filter((n) => flagKey(n).value.type === 'switch');
  return parseArgv(
    argv,
    names.filter((n) => !switches.includes(n)),
    switches,
  );
}

/** The configuration from flags already read (and the problems found reading them). */
export function readConfig<A extends AppName>(
  app: A,
  parsed: Pick<ParsedArgv, 'flags' | 'issues'>,
  env: Env,
  cwd: string,
): ConfigOf<A> {
  const r = new Reader(app, parsed.flags, env, cwd);
  r.issues.push(...parsed.issues);
  const config = readApp(r);
  // The table's "apps" column is what the code reads: a key given to `app` and never read is a bug.
  const unread = r.unread().map(keyName);
  if (unread.length > 0) throw new Error(`libs/config: ${app} never reads ${unread.join(', ')} (keys.ts)`);
  if (r.issues.length > 0) throw new ConfigError(r.issues);
  return deepFreeze(config) as ConfigOf<A>;
}

/** `app`'s sections, read in the order their problems are listed. */
function readApp(r: Reader): ConfigOf<AppName> {
  switch (r.app) {
    case 'replay':
      return { app: 'replay', log: readLogLocation(r) };
    case 'venues':
      return { app: 'venues', venuesConfig: readVenuesConfig(r) };
    case 'ingestor': {
      const common = readService(r);
      return {
        app: 'ingestor',
        ...common,
        replay: readReplay(r),
        venuesConfig: readVenuesConfig(r),
        ...readWriter(r),
        shards: readShards(r, common.log),
        metrics: readMetrics(r),
      };
    }
    case 'api':
    case 'start': {
      const common = readService(r);
      const server = readServer(r);
      const nowMs = r.intOrNull('--now');
      const metrics = readMetrics(r);
      if (r.app === 'api') return { app: 'api', ...common, server, nowMs, metrics };
      return {
        app: 'start',
        ...common,
        server,
        nowMs,
        metrics,
        replay: readReplay(r),
        venuesConfig: readVenuesConfig(r),
        ...readWriter(r),
      };
    }
  }
}

/** The log, console and stop deadline of a service process (metrics are read in each one's order). */
function readService(r: Reader): Omit<ServiceConfig, 'metrics'> {
  // `npm start -- --replay` (the demo) keeps its own directory, never mixed with the live log's.
  const demo = r.app === 'start' && r.given('--replay');
  return {
    log: readLog(r, demo ? './.data-replay' : undefined),
    console: readConsole(r),
    shutdownTimeoutMs: readShutdownTimeout(r),
  };
}
