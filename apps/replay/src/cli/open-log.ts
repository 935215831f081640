import { loadConfig, type LogConfig } from '@app/config';
import { openEventLog, type EventLog } from '@app/log';
import { UsageError, type Args } from './args';

/**
 * The event log the command reads: KAFKA_BROKERS selects Kafka, otherwise the embedded log in
 * `--data-dir` or DATA_DIR (default ./.data). Environment parsing stays in @app/config.
 */
export function logConfig(
  args: Args,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): LogConfig {
  const dataDir = args.flags.get('data-dir');
  try {
    // The ingestor's config reads exactly KAFKA_BROKERS and DATA_DIR (plus VENUES_CONFIG, ignored here).
    const { log } = loadConfig(
      'ingestor',
      [],
      { ...env, VENUES_CONFIG: undefined, ...(dataDir === undefined ? {} : { DATA_DIR: dataDir }) },
      cwd,
    );
    return log;
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}

export function openLog(config: LogConfig): EventLog {
  return openEventLog({
    kafkaBrokers: config.kafkaBrokers,
    dataDir: config.dataDir,
    topicPrefix: config.topicPrefix,
    clientId: 'route-replay',
  });
}
