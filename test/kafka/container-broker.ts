import {
  GenericContainer,
  ImageName,
  Wait,
  getContainerRuntimeClient,
  type ContainerRuntimeClient,
  type StartedTestContainer,
} from 'testcontainers';

/**
 * The Kafka broker of the tests when a Docker engine answers: one KRaft node in a container,
 * started through testcontainers. The image is, in order:
 *   - ROUTE_TEST_KAFKA_IMAGE when set;
 *   - the local build of scripts/docker/images.sh (LOCAL_KAFKA_IMAGE: the official image's layout,
 *     built from Debian's Java and Kafka's jars, for machines that cannot pull) when present;
 *   - else the official image (OFFICIAL_KAFKA_IMAGE), pulled from Docker Hub.
 * Both take the same KAFKA_* variables, pinned to the version the jar broker runs (scripts/kafka).
 * testcontainers' Kafka module of the 11.x line (the last that runs on Node 20) drives Confluent
 * Platform images only, so the broker is a generic container with Kafka's own settings.
 *
 * Networking: on an engine with its default bridge network the broker's port is published on the
 * host's 127.0.0.1:<port>; an engine started without one (`dockerd --bridge=none`, as on CI here)
 * runs the container in the host's network, listening on 127.0.0.1:<port> and <port + 1>.
 * Either way the advertised listener names 127.0.0.1:<port>, fixed before the broker starts.
 */
export const OFFICIAL_KAFKA_IMAGE = 'apache/kafka:3.9.1';
export const LOCAL_KAFKA_IMAGE = 'route-service/kafka:3.9.1';
/** Label on every broker container of a test run (the global teardown removes what is left). */
export const RUN_LABEL = 'route-service.test-run';
const STARTED = 'Kafka Server started';
// The brokers are reached on 127.0.0.1 in either network mode. Said before testcontainers is
// first asked, it also skips finding the host through the default bridge network, which an engine
// started with --bridge=none does not have (it would report no working runtime).
process.env.TESTCONTAINERS_HOST_OVERRIDE ??= '127.0.0.1';

/** Whether testcontainers finds a container runtime (Docker or a compatible engine). */
export async function dockerReachable(): Promise<boolean> {
  if (process.env.ROUTE_TEST_NO_DOCKER === 'true' || process.env.ROUTE_TEST_KAFKA === 'jar') return false;
  try {
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

/** The image to run (see above) and whether the engine already holds it. */
export async function kafkaImage(runtime: ContainerRuntimeClient): Promise<{ name: string; local: boolean }> {
  const pick = process.env.ROUTE_TEST_KAFKA_IMAGE?.trim();
  for (const name of pick ? [pick] : [LOCAL_KAFKA_IMAGE, OFFICIAL_KAFKA_IMAGE]) {
    if (await runtime.image.exists(ImageName.fromString(name))) return { name, local: true };
  }
  return { name: pick || OFFICIAL_KAFKA_IMAGE, local: false };
}

/** A started broker container, stoppable and startable again with its data. */
export interface ContainerBroker {
  readonly brokers: string;
  readonly container: StartedTestContainer;
  readonly image: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** SIGKILL the broker (no clean shutdown); start() brings it back with its data. */
  kill(): Promise<void>;
  dispose(): Promise<void>;
}

/** Start one KRaft broker container advertising 127.0.0.1:`port`. */
export async function startContainerBroker(port: number): Promise<ContainerBroker> {
  // No reaper container (its image cannot be pulled everywhere): the broker's owner removes it,
  // and the global teardown removes what a run left behind (removeRunContainers).
  process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
  const runtime = await getContainerRuntimeClient();
  const image = await kafkaImage(runtime);
  if (!image.local) {
    console.info(
      `[kafka] ${image.name} is not in the engine (the local image: scripts/docker/images.sh kafka); pulling it`,
    );
    await runtime.image.pull(ImageName.fromString(image.name)).catch((e: unknown) => {
      throw new Error(
        `no Kafka test image: ${image.name} could not be pulled (${e instanceof Error ? e.message : String(e)}); ` +
          `build the local one with scripts/docker/images.sh kafka, or run on the jar broker (ROUTE_TEST_KAFKA=jar)`,
      );
    });
  }
  const networks = await runtime.container.dockerode.listNetworks({ filters: { name: ['bridge'] } });
  const hostNetwork = !networks.some((n) => n.Name === 'bridge');
  const controller = hostNetwork ? `127.0.0.1:${port + 1}` : 'localhost:9093';
  const listeners = hostNetwork
    ? `PLAINTEXT://127.0.0.1:${port},CONTROLLER://${controller}`
    : 'PLAINTEXT://:9092,CONTROLLER://:9093';
  let container = new GenericContainer(image.name)
    .withEnvironment({
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: listeners,
      KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://127.0.0.1:${port}`,
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
      KAFKA_INTER_BROKER_LISTENER_NAME: 'PLAINTEXT',
      KAFKA_CONTROLLER_QUORUM_VOTERS: `1@${controller}`,
      KAFKA_LOG_DIRS: '/var/lib/kafka/data',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
      KAFKA_LOG_CLEANER_BACKOFF_MS: '5000',
      KAFKA_NUM_PARTITIONS: '4',
      // The jar broker's JVM settings (scripts/kafka): a small heap and a quick start on 2 cores.
      KAFKA_HEAP_OPTS: '-Xms256m -Xmx512m',
      KAFKA_JVM_PERFORMANCE_OPTS: '-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true',
    })
    .withLabels({ [RUN_LABEL]: process.env.ROUTE_TEST_RUN_ID ?? 'none' })
    .withWaitStrategy(Wait.forLogMessage(STARTED))
    .withStartupTimeout(180_000);
  container = hostNetwork
    ? container.withNetworkMode('host')
    : container.withExposedPorts({ container: 9092, host: port });
  const started = await container.start();
  const id = started.getId();
  console.info(
    `[kafka] testcontainers broker: image ${image.name}, container ${id.slice(0, 12)}, ` +
      `127.0.0.1:${port} (${hostNetwork ? 'host network' : 'published port'})`,
  );
  const handle = runtime.container.getById(id);
  const startedCount = async (): Promise<number> => {
    const logs = await handle.logs({ stdout: true, stderr: true, follow: false });
    return String(logs).split(STARTED).length - 1;
  };
  return {
    brokers: `127.0.0.1:${port}`,
    container: started,
    image: image.name,
    stop: () => runtime.container.stop(handle, { timeout: 30 }),
    start: async () => {
      // Ready when the broker logs its start once more (as the jar broker's start waits for).
      const before = await startedCount();
      await runtime.container.start(handle);
      for (const deadline = Date.now() + 180_000; (await startedCount()) <= before;) {
        if (Date.now() > deadline) throw new Error(`broker container ${id} did not start again in 180 s`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    kill: async () => {
      await handle.kill({ signal: 'SIGKILL' });
      await handle.wait();
    },
    dispose: async () => {
      await handle.remove({ force: true, v: true }).catch(() => undefined);
    },
  };
}

/** Remove every broker container a test run left behind (its label names the run). */
export async function removeRunContainers(runId: string): Promise<void> {
  if (!(await dockerReachable())) return;
  const runtime = await getContainerRuntimeClient();
  const left = await runtime.container.dockerode.listContainers({
    all: true,
    filters: { label: [`${RUN_LABEL}=${runId}`] },
  });
  for (const c of left) await runtime.container.getById(c.Id).remove({ force: true, v: true });
}
