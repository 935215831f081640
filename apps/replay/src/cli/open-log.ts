import { existsSync, statSync } from 'node:fs';
import { ConfigError, loadConfig, type LogConfig, UsageError } from '@app/config';
import { openEventLog, type EventLog } from '@app/event-log';
import type { CliContext } from './context';

/**
 * The event log a command reads (replay's config section): KAFKA_BROKERS selects Kafka, otherwise
 * the embedded log in `--data-dir`, else DATA_DIR, else the table's default. Values are
 * validated by @app/config. An embedded log directory that does not exist is an error, never created.
 */
export function logConfig(dataDir: string | undefined, ctx: CliContext): LogConfig {
  let log: LogConfig;
  try {
    const flags = new Map(dataDir === undefined ? [] : [['data-dir', dataDir]]);
    ({ log } = loadConfig('replay', flags, ctx.env, ctx.cwd));
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
  if (log.kafkaBrokers === null && !(existsSync(log.dataDir) && statSync(log.dataDir).isDirectory())) {
    const key = dataDir === undefined ? 'DATA_DIR' : '--data-dir';
    throw new UsageError(`${key}: no event log directory at ${log.dataDir}`);
  }
  return log;
}

/** Open the log for reading: the embedded log read-only, so a command never writes where it reads. */
export function openReadLog(dataDir: string | undefined, ctx: CliContext): EventLog {
  const config = logConfig(dataDir, ctx);
  if (ctx.openLog !== undefined) return ctx.openLog(config);
  return openEventLog({
    kafkaBrokers: config.kafkaBrokers,
    dataDir: config.dataDir,
    topicPrefix: config.topicPrefix,
    replication: config.replication,
    clientId: 'route-replay',
    readOnly: true,
  });
}
