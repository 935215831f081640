/**
 * What a scenario needs from the machine beyond Node and this checkout. A scenario whose need is
 * missing is skipped with the one-line reason `missing` gives (bench/main.ts), never failed.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * kafka: KAFKA_BROKERS, or java (and mvn, unless the jars are cached) for the jar broker of
 * scripts/kafka; redis: Debian's redis-server; haproxy: Debian's haproxy.
 */
export type Need = 'kafka' | 'redis' | 'haproxy';

/** What of `needs` this machine lacks, as one line; null when it has them all. */
export function missing(needs: readonly Need[]): string | null {
  const why = needs.map((n) => CHECKS[n]()).filter((w): w is string => w !== null);
  return why.length === 0 ? null : why.join('; ');
}

const CHECKS: Record<Need, () => string | null> = {
  kafka: () => {
    if (process.env.KAFKA_BROKERS?.trim()) return null;
    if (!onPath('java'))
      return 'no Kafka: KAFKA_BROKERS is not set and java is not on PATH for the jar broker';
    if (!onPath('mvn') && !jarsCached())
      return 'no Kafka: KAFKA_BROKERS is not set, and mvn is not on PATH to fetch the jar broker once';
    return null;
  },
  redis: () =>
    onPath('redis-server') ? null : 'redis-server is not on PATH (Debian: apt-get install redis-server)',
  haproxy: () => (onPath('haproxy') ? null : 'haproxy is not on PATH (Debian: apt-get install haproxy)'),
};

/** Whether an executable `name` is in a directory of PATH. */
function onPath(name: string): boolean {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      /* not here */
    }
  }
  return false;
}

/** scripts/kafka/kafka.mjs marks its jar cache complete with this file. */
function jarsCached(): boolean {
  const cache = process.env.KAFKA_CACHE_DIR ?? join(homedir(), '.cache', 'route-service', 'kafka-3.9.1');
  return existsSync(join(cache, '.complete'));
}
