import type { Socket } from 'node:net';
import { Kafka, logLevel, type ISocketFactory } from 'kafkajs';
import defaultSocketFactory from 'kafkajs/src/network/socketFactory';
import type { TopicName } from '@app/events';
import { SNAPSHOT_TOPICS, type AppendEntry } from '../event-log';
import { LogError } from '../log-error';
import type { HealthRegistry } from '../log-health';
import { checkEntries } from '../record-limits';
import { KafkaAppender } from './kafka-append';

/**
 * A writer of the log whose sending can be stopped at once, requests already under way included
 * (see KafkaLog.gatedWriter).
 */
export interface GatedWriter {
  /** Append as EventLog.append; refused ('unavailable') while shut. */
  append(topic: TopicName, entries: readonly AppendEntry[]): Promise<void>;
  /**
   * Stop sending, synchronously: every connection of the writer is destroyed and no new one opens
   * until `open()`. A request already handed to the network may still land; nothing is sent after.
   */
  shut(why: string): void;
  /** Send again (after `shut`). */
  open(): void;
  readonly isOpen: boolean;
  close(): Promise<void>;
}

/** What a gated writer needs of the KafkaLog it writes for. */
export interface GatedHost {
  readonly brokers: readonly string[];
  readonly clientId: string;
  readonly health: HealthRegistry;
  partitions(topic: TopicName): Promise<number>;
  physical(topic: TopicName): string;
  marksTopic(topic: TopicName): string;
  /** Asked before every request is sent: false refuses it as `shut` does (a lease that lapsed). */
  readonly may?: () => boolean;
}

/**
 * Its own kafkajs client (and idempotent producer, through KafkaAppender), whose connections come
 * from a socket factory this writer controls. Closing a gate in front of `append` is not enough to
 * stop a writer: an append already started keeps sending, since kafkajs retries a failed produce
 * inside one `send` (for seconds: a leader being elected, a broker lost) and KafkaAppender sends
 * again what a send left out. The factory is the one place every request passes: `shut` destroys
 * the sockets and refuses new ones, so each retry fails at connect and the append rejects. Each
 * write to a socket also asks `host.may` first (the shard group's lease, read at that moment).
 */
export class KafkaGatedWriter implements GatedWriter {
  private readonly sockets = new Set<Socket>();
  private why: string | null = null;
  private readonly appender: KafkaAppender;
  private closed = false;

  constructor(private readonly host: GatedHost) {
    const base = defaultSocketFactory() as ISocketFactory;
    const socketFactory: ISocketFactory = (args) => {
      const socket = base(args);
      // kafkajs may have let go of a socket it gave up on: its errors must not be unhandled.
      socket.on('error', () => undefined);
      if (this.why !== null) {
        socket.destroy(new Error(`this writer is shut: ${this.why}`));
        return socket;
      }
      // Every request passes here: refused (the socket destroyed) once the lease is not held.
      const write = socket.write.bind(socket) as (...a: unknown[]) => boolean;
      socket.write = (...a: unknown[]): boolean => {
        if (this.why === null && (this.host.may?.() ?? true)) return write(...a);
        socket.destroy(new Error(`this writer may not send: ${this.why ?? 'its lease is not held'}`));
        return false;
      };
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
      return socket;
    };
    const kafka = new Kafka({
      clientId: host.clientId,
      brokers: [...host.brokers],
      logLevel: logLevel.NOTHING,
      socketFactory,
      retry: { initialRetryTime: 200, maxRetryTime: 2000, retries: 10 },
    });
    this.appender = new KafkaAppender(kafka, host.health);
  }

  get isOpen(): boolean {
    return this.why === null && !this.closed;
  }

  shut(why: string): void {
    this.why ??= why;
    for (const s of this.sockets) s.destroy(new Error(`this writer is shut: ${why}`));
    this.sockets.clear();
  }

  open(): void {
    if (!this.closed) this.why = null;
  }

  async append(topic: TopicName, entries: readonly AppendEntry[]): Promise<void> {
    if (this.closed) throw new LogError('closed', 'the writer is closed');
    if (this.why !== null) throw new LogError('unavailable', `the writer is shut: ${this.why}`);
    if (entries.length === 0) return;
    checkEntries(topic, entries);
    let n: number;
    try {
      n = await this.host.partitions(topic);
    } catch (e) {
      throw e instanceof LogError
        ? e
        : new LogError('unavailable', `Kafka metadata of ${topic}: ${String(e)}`);
    }
    const marks = SNAPSHOT_TOPICS.includes(topic) ? this.host.marksTopic(topic) : null;
    await this.appender.append(this.host.physical(topic), n, entries, marks);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.shut('closed');
    this.closed = true;
    await this.appender.close();
  }
}
