/**
 * One API replica of the fleet bench, in its own process: folds the books from Kafka, shares its
 * limits through Redis (REDIS_URL when given), journals strictly (as the fleet runs):
 *   node dist/bench/fleet-server.js <brokers> <topicPrefix> [redisUrl]
 * Prints one JSON line with its URL once listening; SIGTERM closes it.
 */
import { createLogger } from '@app/telemetry';
import { startApiServer } from '../apps/api/src/bootstrap';
import { WallClock } from '../apps/api/src/clock';
import { closeHost, onShutdown, openFeed } from '../apps/api/src/compose';
import { SERVER_DEFAULTS } from '@app/config';

const QUIET = { log: () => undefined, warn: () => undefined, error: (m: string) => console.error(m) };

async function main(): Promise<void> {
  const [brokers, topicPrefix, redisUrl] = process.argv.slice(2);
  if (brokers === undefined || topicPrefix === undefined)
    throw new Error('usage: fleet-server <brokers> <topicPrefix> [redisUrl]');
  const host = await openFeed(
    {
      kafkaBrokers: brokers.split(','),
      dataDir: '/nonexistent',
      topicPrefix,
    },
    QUIET,
  );
  host.server = await startApiServer({
    config: {
      ...SERVER_DEFAULTS,
      port: 0,
      host: '127.0.0.1',
      // The limit is on (every request pays for it) but never reached: one bench client address.
      rateLimitRps: 1e9,
      streamMaxPerIp: 1e6,
      trustedProxies: ['127.0.0.1'],
      routing: { ...SERVER_DEFAULTS.routing, staleBookMs: 3_600_000 },
      journalStrict: true,
      http: { ...SERVER_DEFAULTS.http, connectionsPerIp: 1e6, connectionsMax: 1e6 },
      redisUrl: redisUrl ?? null,
    },
    feed: host.feed,
    log: host.log,
    clock: new WallClock(),
    logger: false,
  });
  process.stdout.write(`${JSON.stringify({ url: host.server.url, port: host.server.port })}\n`);
  const logger = createLogger({ level: 'warn', format: 'json', destination: 2 });
  onShutdown(() => closeHost(host), { deadlineMs: 30_000, logger, pending: () => null });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
