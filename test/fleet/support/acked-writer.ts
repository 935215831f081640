import { KafkaLog, LogError } from '@app/event-log';

/**
 * A writer whose acknowledgements the test knows: the service's own Kafka adapter (KafkaLog, as
 * the ingestor and the journal append) appending numbered entries, acks from 2 of 3 replicas.
 * Every entry whose append resolved (or that a failed append names as appended) is acknowledged.
 */
export class AckedWriter {
  readonly acked: { seq: number; at: number }[] = [];
  readonly failures: string[] = [];
  private readonly log: KafkaLog;
  private running = true;
  private loop: Promise<void> | null = null;
  private seq = 0;

  constructor(
    brokers: string,
    readonly topicPrefix: string,
  ) {
    this.log = new KafkaLog({
      brokers: brokers.split(','),
      topicPrefix,
      replicationFactor: 3,
      minInsyncReplicas: 2,
      onProblem: () => undefined,
    });
  }

  /** Physical name of the topic written. */
  get topic(): string {
    return `${this.topicPrefix}.books`;
  }

  start(): void {
    this.loop = (async () => {
      while (this.running) {
        const batch = Array.from({ length: 4 }, () => ++this.seq);
        const entries = batch.map((s) => ({ key: `ack|S${s % 8}`, value: JSON.stringify({ seq: s }) }));
        try {
          await this.log.append('books', entries);
          const at = Date.now();
          for (const s of batch) this.acked.push({ seq: s, at });
        } catch (e) {
          const at = Date.now();
          if (e instanceof LogError) for (const i of e.appended) this.acked.push({ seq: batch[i]!, at });
          this.failures.push(e instanceof Error ? e.message : String(e));
          await new Promise((r) => setTimeout(r, 100));
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    await this.log.close();
  }
}
