import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownedCluster, type OwnedCluster } from '../../kafka/broker';
import { binanceCcxt } from '../../venues/ingest-harness';
import { spawnApp, type FleetProcess } from './fleet-process';
import { startHaproxy, type TestHaproxy } from './haproxy';
import { startRedis, type TestRedis } from './redis';
import { SYNTHETIC_SYMBOLS, SyntheticBinance } from './synthetic-binance';

/** The venues of the fleet: two binance-protocol venues, one per ingestor when both are up. */
export const FLEET_VENUES = ['binance', 'binanceus'] as const;
/** The ingestors' group session (INGESTOR_SESSION_MS): the takeover the fleet test holds them to. */
export const SESSION_MS = 3_000;

/** Everything of docs/operations-fleet.md's topology, on 127.0.0.1. */
export interface Fleet {
  readonly cluster: OwnedCluster;
  readonly redis: TestRedis;
  readonly haproxy: TestHaproxy;
  readonly apis: FleetProcess[];
  /** Each API replica's own URL, by name. */
  readonly apiUrls: Map<string, string>;
  readonly ingestors: FleetProcess[];
  readonly venues: SyntheticBinance[];
  /** The settings every process shares (an auditor needs only KAFKA_BROKERS and TOPIC_PREFIX). */
  readonly env: Readonly<Record<string, string>>;
  readonly dir: string;
  /** Start one more ingestor of the group. */
  addIngestor(name: string): FleetProcess;
  stop(): Promise<void>;
}

/**
 * Start the fleet: a 3-node KRaft cluster (topics with 3 replicas, 2 in sync to acknowledge), a
 * redis-server, two API replicas sharing limits through it behind HAProxy, two ingestors of one
 * group over the synthetic venues. `slot` picks the cluster's ports (test/kafka/broker.ts).
 */
export async function startFleet(slot: number, apiEnv: Record<string, string> = {}): Promise<Fleet> {
  const dir = mkdtempSync(join(tmpdir(), 'route-fleet-'));
  const stops: (() => Promise<void>)[] = [];
  const fleet: Partial<Fleet> & {
    apis: FleetProcess[];
    ingestors: FleetProcess[];
    venues: SyntheticBinance[];
  } = { apis: [], ingestors: [], venues: [] };
  const stop = async (): Promise<void> => {
    for (const s of stops.splice(0).reverse()) await s().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Each part is stopped at the end even if another failed to start.
    const owned = <T>(start: Promise<T>, stopIt: (t: T) => Promise<void>): Promise<T> =>
      start.then((t) => (stops.push(() => stopIt(t)), t));
    const [cluster, redis, ...venues] = await settled([
      owned(ownedCluster('fleet', slot, 3), (c) => c.dispose()),
      owned(startRedis(), (r) => r.stop()),
      ...FLEET_VENUES.map((_, i) => owned(new SyntheticBinance(i + 1).start(), (v) => v.close())),
    ]);
    const venuesConfig = join(dir, 'venues.json');
    writeFileSync(
      venuesConfig,
      JSON.stringify({
        venues: Object.fromEntries(
          FLEET_VENUES.map((id, i) => [
            id,
            {
              symbols: SYNTHETIC_SYMBOLS.map(([, s]) => s),
              ccxt: binanceCcxt(venues[i]!.http, venues[i]!.ws),
            },
          ]),
        ),
      }),
    );
    const env = {
      KAFKA_BROKERS: cluster.brokers,
      TOPIC_PREFIX: `fleet-${process.pid}`,
      KAFKA_REPLICATION_FACTOR: '3',
      KAFKA_MIN_INSYNC_REPLICAS: '2',
    };
    const ingestorEnv = {
      ...env,
      VENUES_CONFIG: venuesConfig,
      INGESTOR_GROUP: `fleet-${process.pid}`,
      INGESTOR_SESSION_MS: String(SESSION_MS),
    };
    const addIngestor = (name: string): FleetProcess => {
      const p = spawnApp(name, 'apps/ingestor/src/main.js', [], {
        ...ingestorEnv,
        DATA_DIR: join(dir, name),
      });
      fleet.ingestors.push(p);
      stops.push(() => p.stop());
      return p;
    };
    const ingestors = [addIngestor('ingestor-1'), addIngestor('ingestor-2')];
    const apiUrls = new Map<string, string>();
    await Promise.all([
      ...ingestors.map((p) => p.waitForLine('its venues', (l) => l.message === 'venues assigned', 90_000)),
      ...['api-a', 'api-b'].map(async (name) => {
        const p = spawnApp(name, 'apps/api/src/main.js', ['--port', '0', '--host', '127.0.0.1'], {
          ...env,
          DATA_DIR: join(dir, name),
          REDIS_URL: redis.url,
          TRUSTED_PROXY: '127.0.0.1',
          JOURNAL_STRICT: 'true',
          ...apiEnv,
        });
        fleet.apis.push(p);
        stops.push(() => p.stop());
        const l = await p.waitForLine('listening', (x) => x.message === 'listening', 90_000);
        apiUrls.set(name, `http://127.0.0.1:${l.port as number}`);
      }),
    ]);
    const haproxy = await startHaproxy(
      dir,
      [...apiUrls].map(([name, url]) => ({ name, address: url.slice('http://'.length) })),
    );
    stops.push(() => haproxy.stop());
    return {
      cluster,
      redis,
      haproxy,
      apis: fleet.apis,
      apiUrls,
      ingestors: fleet.ingestors,
      venues,
      env,
      dir,
      addIngestor,
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** Promise.all that waits for every part, so each one started is known (and stopped) before a failure is thrown. */
async function settled<T extends readonly unknown[]>(parts: T): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const results = await Promise.allSettled(parts);
  const failed = results.find((r) => r.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as {
    [K in keyof T]: Awaited<T[K]>;
  };
}
