import { AssignerProtocol, Kafka, logLevel, type Consumer, type PartitionAssigner } from 'kafkajs';
import { retry } from '@app/retry';

/** A rebalance waits at least this long for the group's members to join, however short their session. */
const MIN_REBALANCE_MS = 10_000;

export interface ShardGroupOptions {
  readonly brokers: readonly string[];
  /** The consumer group: members of one group split the slots between them. */
  readonly group: string;
  /** Name of the (empty) topic whose partitions are the slots; created when missing. */
  readonly topic: string;
  /** Partitions of `topic` when it is created (an existing topic keeps its own). */
  readonly slots: number;
  /** A member silent for this long is evicted by the coordinator and its slots given to others. */
  readonly sessionMs: number;
  /** Replicas of `topic` when it is created (KAFKA_REPLICATION_FACTOR). */
  readonly replicationFactor: number;
  /** The slots this member owns now (after each join, and after it fenced itself and is heard again). */
  onAssign(slots: ReadonlySet<number>): void;
  /** Synchronously, before the member rejoins a rebalance or once its lease may have lapsed: own nothing. */
  onRevoke(why: string): void;
  readonly clientId?: string;
}

/**
 * Membership of a shard group through a Kafka consumer group (kafkajs): the coordinator keeps one
 * live member per slot (round-robin over the members sorted by id), evicts a member that sent no
 * heartbeat for `sessionMs`, and gives its slots to the others at the next rebalance.
 *
 * No slot has two owners at once: a member gives up everything synchronously when a rebalance
 * starts, before it sends its JoinGroup (the coordinator hands out no new assignment until every
 * live member has rejoined); and a member that has not had a heartbeat acknowledged for 60% of the
 * session fences itself, so it has stopped before the coordinator can evict it (heartbeats go every
 * fifth of the session). What it sent before either moment was sent before the new owner got the
 * slot. Assumed, as by every lease: clocks that run at the same rate, and a heartbeat round trip
 * shorter than a fifth of the session.
 */
export class ShardGroup {
  private readonly kafka: Kafka;
  private consumer: Consumer | null = null;
  private owned: ReadonlySet<number> = new Set();
  /** True while this member may act on `owned` (joined, heard within the lease). */
  private holding = false;
  private lastAck = 0;
  private fence: NodeJS.Timeout | null = null;
  private readonly heartbeatMs: number;
  private readonly stopping = new AbortController();

  constructor(private readonly options: ShardGroupOptions) {
    this.kafka = new Kafka({
      clientId: options.clientId ?? 'route-shards',
      brokers: [...options.brokers],
      logLevel: logLevel.NOTHING,
      retry: { initialRetryTime: 200, maxRetryTime: 2000, retries: 10 },
    });
    this.heartbeatMs = Math.max(100, Math.floor(options.sessionMs / 5));
  }

  /**
   * Join the group; a cluster that cannot answer yet (starting, a topic just created and not yet
   * known to every broker) is retried (full jitter under 100 ms doubling to 2 s) for a minute before
   * this rejects. Resolves without joining once stop() was called.
   */
  async start(): Promise<void> {
    const { signal } = this.stopping;
    try {
      await retry(
        async () => {
          if (signal.aborted) return;
          try {
            await this.ensureTopic();
            await this.join();
          } catch (e) {
            await this.consumer?.disconnect().catch(() => undefined);
            this.consumer = null;
            throw e;
          }
        },
        { initialMs: 100, maxMs: 2_000, withinMs: 60_000, signal },
      );
    } catch (e) {
      if (!signal.aborted) throw e;
    }
  }

  private async join(): Promise<void> {
    const consumer = this.kafka.consumer({
      groupId: this.options.group,
      sessionTimeout: this.options.sessionMs,
      heartbeatInterval: this.heartbeatMs,
      rebalanceTimeout: Math.max(this.options.sessionMs, MIN_REBALANCE_MS),
      // Nothing is ever read: a short fetch wait keeps heartbeats on time.
      maxWaitTimeInMs: Math.min(500, this.heartbeatMs),
      allowAutoTopicCreation: false,
      partitionAssigners: [slotAssigner],
    });
    this.consumer = consumer;
    consumer.on(consumer.events.GROUP_JOIN, (e) => {
      this.lastAck = performance.now();
      this.owned = new Set(e.payload.memberAssignment[this.options.topic] ?? []);
      this.holding = true;
      this.options.onAssign(this.owned);
    });
    consumer.on(consumer.events.HEARTBEAT, () => {
      this.lastAck = performance.now();
      if (this.holding) return;
      // Fenced on silence, yet still a member of the same generation: the slots are still ours.
      this.holding = true;
      this.options.onAssign(this.owned);
    });
    consumer.on(consumer.events.REBALANCING, () => this.revoke('the group is rebalancing'));
    consumer.on(consumer.events.CRASH, () => this.revoke('the group member restarts after an error'));
    if (this.fence !== null) clearInterval(this.fence);
    this.fence = setInterval(
      () => {
        const silent = performance.now() - this.lastAck;
        if (this.holding && silent > 0.6 * this.options.sessionMs)
          this.revoke(`no heartbeat acknowledged for ${Math.round(silent)} ms`);
      },
      Math.max(50, Math.floor(this.heartbeatMs / 4)),
    );
    this.fence.unref();
    await consumer.connect();
    await consumer.subscribe({ topics: [this.options.topic], fromBeginning: false });
    await consumer.run({ autoCommit: false, eachBatch: () => Promise.resolve() });
  }

  /**
   * True while this member may act on its slots: joined, and a heartbeat acknowledged within 60% of
   * the session. The same test as the fence timer, made at the moment it is asked (a writer asks
   * before every request it sends: a process that was stalled past its lease sends nothing even if
   * a timer of its own fires before the fence timer does).
   */
  holds(): boolean {
    return this.holding && performance.now() - this.lastAck <= 0.6 * this.options.sessionMs;
  }

  /** Leave the group (the others take the slots at once) after giving them up here. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.revoke('stopping');
    if (this.fence !== null) clearInterval(this.fence);
    await this.consumer?.disconnect().catch(() => undefined);
    this.consumer = null;
  }

  private revoke(why: string): void {
    if (!this.holding) return;
    this.holding = false;
    this.options.onRevoke(why);
  }

  private async ensureTopic(): Promise<void> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const topics = await admin.listTopics();
      if (!topics.includes(this.options.topic))
        await admin
          .createTopics({
            waitForLeaders: true,
            topics: [
              {
                topic: this.options.topic,
                numPartitions: this.options.slots,
                replicationFactor: this.options.replicationFactor,
              },
            ],
          })
          // Another member created it meanwhile.
          .catch((e: unknown) => {
            if (!String(e).includes('already exists')) throw e;
          });
    } finally {
      await admin.disconnect();
    }
  }
}

/**
 * Round robin over the members sorted by id, of the slots sorted by number: slot i goes to member
 * i mod n, so consecutive slots (consecutive venues) land on different members. kafkajs's own
 * round robin takes the partitions in the order the metadata lists them, which is not by number.
 */
const slotAssigner: PartitionAssigner = ({ cluster }) => ({
  name: 'RouteSlotRoundRobin',
  version: 0,
  assign({ members, topics }) {
    const ids = members.map((m) => m.memberId).sort();
    const assignment = new Map<string, Record<string, number[]>>(ids.map((id) => [id, {}]));
    for (const topic of topics) {
      const slots = cluster
        .findTopicPartitionMetadata(topic)
        .map((m) => m.partitionId)
        .sort((a, b) => a - b);
      slots.forEach((slot, i) => {
        const mine = assignment.get(ids[i % ids.length]!)!;
        (mine[topic] ??= []).push(slot);
      });
    }
    return Promise.resolve(
      [...assignment].map(([memberId, a]) => ({
        memberId,
        memberAssignment: AssignerProtocol.MemberAssignment.encode({
          version: 0,
          assignment: a,
          userData: Buffer.alloc(0),
        }),
      })),
    );
  },
  protocol({ topics }) {
    return {
      name: 'RouteSlotRoundRobin',
      metadata: AssignerProtocol.MemberMetadata.encode({ version: 0, topics, userData: Buffer.alloc(0) }),
    };
  },
});
