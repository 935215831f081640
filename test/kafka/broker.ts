import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { getContainerRuntimeClient } from 'testcontainers';
import { dockerReachable, removeRunContainers, startContainerBroker } from './container-broker';

/**
 * The one entry point integration tests use to get a real Kafka broker (README "Tests"):
 *   1. KAFKA_BROKERS when set (a broker the caller runs, e.g. `docker compose up kafka`);
 *   2. else, when a Docker engine answers, a broker container through testcontainers
 *      (./container-broker.ts: the local image of scripts/docker/images.sh, else the official
 *      apache/kafka image), started once per test run and stopped at its end;
 *   3. else the jar broker of scripts/kafka (`npm run kafka:start`) on a test port and a tmpfs
 *      data dir, started once per test run and stopped by ./global-setup.ts at the end.
 * ROUTE_TEST_KAFKA=jar (or ROUTE_TEST_NO_DOCKER=true) picks the jar broker even when Docker
 * answers; ROUTE_TEST_KAFKA=container fails instead of falling back when Docker does not answer.
 * The test log names the path taken: the container's image and id, or the jar broker.
 */
const run = promisify(execFile);
const repo = resolve(__dirname, '..', '..');
const script = join(repo, 'scripts', 'kafka', 'kafka.mjs');
/** Terminal colour codes (ESC [ ... m). */
const ANSI_ESCAPES = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const SHARED_PORT = Number(process.env.TEST_KAFKA_PORT ?? 19092);
const shmRoot = existsSync('/dev/shm') ? '/dev/shm' : join(repo, '.kafka');

export const sharedDataDir = (): string => join(shmRoot, `route-service-test-kafka-${SHARED_PORT}`);

/** Brokers for the tests (cached per worker). */
let shared: Promise<string> | null = null;
export function testBrokers(): Promise<string> {
  const fromEnv = process.env.KAFKA_BROKERS?.trim();
  if (fromEnv) return Promise.resolve(fromEnv);
  shared ??= startShared();
  return shared;
}

async function startShared(): Promise<string> {
  const dataDir = sharedDataDir();
  const lock = `${dataDir}.lock`;
  // Test files run in parallel workers: one starts the broker, the others wait for it.
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    if (await useContainers()) return await sharedContainer();
    const wasRunning = await kafkaScript('status', dataDir, SHARED_PORT).then(
      () => true,
      () => false,
    );
    const brokers = await kafkaScript('start', dataDir, SHARED_PORT);
    console.info(`[kafka] jar broker (scripts/kafka) on ${brokers}${wasRunning ? ', already running' : ''}`);
    const runId = process.env.ROUTE_TEST_RUN_ID;
    if (!wasRunning && runId !== undefined) writeFileSync(join(dataDir, 'started-by-run'), runId);
    return brokers;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The shared broker as a container: reused while running, else started and marked for teardown. */
async function sharedContainer(): Promise<string> {
  const marker = `${sharedDataDir()}.container`;
  if (existsSync(marker)) {
    const [id, brokers] = readFileSync(marker, 'utf8').split('\n');
    const runtime = await getContainerRuntimeClient();
    const info = await runtime.container.inspect(runtime.container.getById(id ?? '')).catch(() => null);
    if (info?.State.Running === true && brokers !== undefined) {
      console.info(
        `[kafka] testcontainers broker: image ${info.Config.Image}, container ${info.Id.slice(0, 12)}, ${brokers} (shared, running)`,
      );
      return brokers;
    }
  }
  // Stopped explicitly at the end of the run (not by a reaper, which would stop it with the
  // worker process that happened to start it).
  const broker = await startContainerBroker(SHARED_PORT);
  writeFileSync(
    marker,
    `${broker.container.getId()}\n${broker.brokers}\n${process.env.ROUTE_TEST_RUN_ID ?? ''}`,
  );
  return broker.brokers;
}

/** Stop the shared broker if this test run started it (called by the global teardown). */
export async function stopSharedIfOurs(runId: string): Promise<void> {
  try {
    await stopShared(runId);
  } finally {
    await removeRunContainers(runId);
  }
}

async function stopShared(runId: string): Promise<void> {
  const container = `${sharedDataDir()}.container`;
  if (existsSync(container)) {
    const [id, , startedBy] = readFileSync(container, 'utf8').split('\n');
    if (startedBy !== runId) return;
    const runtime = await getContainerRuntimeClient();
    const handle = runtime.container.getById(id ?? '');
    await runtime.container.stop(handle, { timeout: 10 }).catch(() => undefined);
    await runtime.container.remove(handle, { removeVolumes: true }).catch(() => undefined);
    rmSync(container, { force: true });
    return;
  }
  const dataDir = sharedDataDir();
  const marker = join(dataDir, 'started-by-run');
  if (!existsSync(marker) || readFileSync(marker, 'utf8') !== runId) return;
  await kafkaScript('stop', dataDir, SHARED_PORT);
  rmSync(marker, { force: true });
}

/** A broker a test may stop and start (a restart keeps its data), on its own port and data dir. */
export interface OwnedBroker {
  readonly brokers: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** SIGKILL the broker process (no clean shutdown); `start` brings it back on its data. */
  kill(): Promise<void>;
  /** Stop and wipe. */
  dispose(): Promise<void>;
}

/**
 * `slot` (1..9) picks the port TEST_KAFKA_PORT + 10 * slot (and the next one for its controller),
 * inside the checkout's own block of 100 ports: checkouts take TEST_KAFKA_PORTs 100 apart, so test
 * runs in several of them at once never share (or collide on) a broker.
 */
export async function ownedBroker(name: string, slot: number): Promise<OwnedBroker> {
  if (!Number.isInteger(slot) || slot < 1 || slot > 9)
    throw new RangeError(`broker slot must be 1..9, got ${slot}`);
  const port = SHARED_PORT + 10 * slot;
  if (await useContainers()) return startContainerBroker(port);
  const dataDir = join(shmRoot, `route-service-test-${name}-${port}`);
  await kafkaScript('reset', dataDir, port);
  const brokers = await kafkaScript('start', dataDir, port);
  return {
    brokers,
    stop: async () => void (await kafkaScript('stop', dataDir, port)),
    start: async () => void (await kafkaScript('start', dataDir, port)),
    kill: async () => {
      const pid = Number(readFileSync(join(dataDir, 'broker.pid'), 'utf8').trim());
      process.kill(pid, 'SIGKILL');
      // Gone once reaped; a zombie left by an init that does not reap holds no port either.
      for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
        try {
          process.kill(pid, 0);
        } catch {
          return;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    dispose: async () => void (await kafkaScript('reset', dataDir, port)),
  };
}

/** Whether brokers run as containers (see the top of this file). */
async function useContainers(): Promise<boolean> {
  if (await dockerReachable()) return true;
  if (process.env.ROUTE_TEST_KAFKA === 'container')
    throw new Error(
      'ROUTE_TEST_KAFKA=container but no Docker engine answers (DOCKER_HOST, scripts/docker/dockerd.sh)',
    );
  return false;
}

/** A KRaft cluster a test may break: every node a broker and a controller voter. */
export interface OwnedCluster {
  /** Every node's `127.0.0.1:<port>`, comma-separated (KAFKA_BROKERS). */
  readonly brokers: string;
  /** Node id (1..n) to its broker port. */
  readonly ports: ReadonlyMap<number, number>;
  /** SIGKILL one node (no clean shutdown); `start` brings it back on its data. */
  kill(node: number): Promise<void>;
  /** Start every node that is not running. */
  start(): Promise<void>;
  /** Stop and wipe. */
  dispose(): Promise<void>;
}

/**
 * Failure detection compressed for tests on a busy 2-core machine (Kafka's defaults: heartbeats
 * every 2 s, a silent broker fenced after 9 s, a silent follower out of the ISR after 30 s, group
 * sessions of at least 6 s), and small thread pools: three brokers share the machine.
 */
export const FAST_FAILOVER_PROPS = [
  'broker.heartbeat.interval.ms=500',
  'broker.session.timeout.ms=4000',
  'replica.lag.time.max.ms=4000',
  'group.min.session.timeout.ms=1000',
  'num.network.threads=2',
  'num.io.threads=2',
  'background.threads=2',
  'log.cleaner.threads=1',
].join(',');

/**
 * A cluster of `nodes` jar brokers (scripts/kafka with KAFKA_NODES) on the ports of `slot` (as
 * ownedBroker: TEST_KAFKA_PORT + 10 * slot, node i on + 2(i-1) and its controller on the next),
 * small heaps, fast failover. Jars only: the container path runs one broker.
 */
export async function ownedCluster(name: string, slot: number, nodes = 3): Promise<OwnedCluster> {
  if (!Number.isInteger(slot) || slot < 1 || slot > 9)
    throw new RangeError(`broker slot must be 1..9, got ${slot}`);
  if (nodes < 1 || nodes > 5) throw new RangeError(`a test cluster has 1 to 5 nodes, got ${nodes}`);
  const port = SHARED_PORT + 10 * slot;
  const dataDir = join(shmRoot, `route-service-test-${name}-${port}`);
  const extra = { KAFKA_NODES: String(nodes), KAFKA_HEAP: '256m', KAFKA_PROPS: FAST_FAILOVER_PROPS };
  await kafkaScript('reset', dataDir, port, extra);
  const brokers = await kafkaScript('start', dataDir, port, extra);
  const ports = new Map(Array.from({ length: nodes }, (_, i) => [i + 1, port + 2 * i] as const));
  return {
    brokers,
    ports,
    kill: async (node) =>
      void (await run('node', [script, 'kill', String(node)], { env: scriptEnv(dataDir, port, extra) })),
    start: async () => void (await kafkaScript('start', dataDir, port, extra)),
    dispose: async () => void (await kafkaScript('reset', dataDir, port, extra)),
  };
}

function scriptEnv(dataDir: string, port: number, extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    KAFKA_DATA_DIR: dataDir,
    KAFKA_PORT: String(port),
    KAFKA_CONTROLLER_PORT: String(port + 1),
    KAFKA_NUM_PARTITIONS: '4',
    ...extra,
  };
}

/** Run scripts/kafka/kafka.mjs; for start, returns the brokers from its last line. */
export async function kafkaScript(
  command: 'start' | 'stop' | 'reset' | 'status',
  dataDir: string,
  port: number,
  extra: Record<string, string> = {},
): Promise<string> {
  const env = scriptEnv(dataDir, port, extra);
  const { stdout } = await run('node', [script, command], {
    env,
    timeout: 240_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  if (command !== 'start') return '';
  // Tolerate terminal escape codes a child tool may have left on the line.
  const lines = stdout.replace(ANSI_ESCAPES, '').trim().split('\n');
  const m = /^KAFKA_BROKERS=(.+)$/.exec(lines[lines.length - 1]?.trim() ?? '');
  if (m === null) throw new Error(`kafka start printed no KAFKA_BROKERS line:\n${stdout}`);
  return m[1]!;
}
