import { GenericContainer, Wait, getContainerRuntimeClient, type StartedTestContainer } from 'testcontainers';

/**
 * The Kafka broker of the tests when a Docker engine is reachable: the official image, pinned to
 * the version the jar broker runs (scripts/kafka), as one KRaft node. testcontainers' Kafka module
 * of the 11.x line (the last that runs on Node 20) drives Confluent Platform images only, so the
 * official image is started as a generic container with Kafka's own settings. The host port is
 * fixed so the advertised listener can name it before the broker starts.
 */
export const KAFKA_IMAGE = 'apache/kafka:3.9.1';

/** Whether testcontainers finds a container runtime (Docker or a compatible engine). */
export async function dockerReachable(): Promise<boolean> {
  if (process.env.ROUTE_TEST_NO_DOCKER === 'true') return false;
  try {
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

/** A started broker container, stoppable and startable again with its data. */
export interface ContainerBroker {
  readonly brokers: string;
  readonly container: StartedTestContainer;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** SIGKILL the broker (no clean shutdown); start() brings it back with its data. */
  kill(): Promise<void>;
  dispose(): Promise<void>;
}

/** Start one KRaft broker container advertising 127.0.0.1:`port`. */
export async function startContainerBroker(port: number): Promise<ContainerBroker> {
  const container = await new GenericContainer(KAFKA_IMAGE)
    .withExposedPorts({ container: 9092, host: port })
    .withEnvironment({
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
      KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://127.0.0.1:${port}`,
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
      KAFKA_NUM_PARTITIONS: '4',
    })
    .withWaitStrategy(Wait.forLogMessage('Kafka Server started'))
    .withStartupTimeout(180_000)
    .start();
  const runtime = await getContainerRuntimeClient();
  const handle = runtime.container.getById(container.getId());
  return {
    brokers: `127.0.0.1:${port}`,
    container,
    stop: () => runtime.container.stop(handle, { timeout: 10 }),
    start: () => runtime.container.start(handle),
    kill: async () => void (await handle.kill({ signal: 'SIGKILL' })),
    dispose: async () => void (await container.stop()),
  };
}
