/**
 * The parts of kafkajs 2.2.4's internal cluster client that KafkaFetcher uses (kafka-fetch.ts).
 * kafkajs exposes no consumer without a consumer group; its own consumer reads through exactly
 * these calls (src/consumer/consumerGroup.js: findLeaderForPartitions, findBroker, broker.fetch).
 * The version is pinned in package.json; a change of version must re-check these shapes.
 */
declare module 'kafkajs/src/cluster' {
  import type { RetryOptions } from 'kafkajs';

  export interface FetchedMessage {
    readonly offset: string;
    readonly key: Buffer | null;
    readonly value: Buffer | null;
    readonly isControlRecord?: boolean;
  }

  export interface FetchedPartition {
    readonly partition: number;
    readonly errorCode: number;
    readonly highWatermark: string;
    readonly lastStableOffset?: string;
    readonly lastStartOffset?: string;
    readonly messages: FetchedMessage[];
  }

  export interface FetchRequest {
    readonly replicaId?: number;
    readonly isolationLevel: number;
    readonly maxWaitTime: number;
    readonly minBytes: number;
    readonly maxBytes: number;
    readonly topics: {
      readonly topic: string;
      readonly partitions: {
        readonly partition: number;
        readonly fetchOffset: string;
        readonly maxBytes: number;
      }[];
    }[];
  }

  export interface ClusterBroker {
    fetch(
      request: FetchRequest,
    ): Promise<{ responses: { topicName: string; partitions: FetchedPartition[] }[] }>;
  }

  export interface ClusterOptions {
    readonly logger: unknown;
    readonly brokers: string[];
    readonly clientId: string;
    readonly connectionTimeout: number;
    readonly requestTimeout: number;
    readonly enforceRequestTimeout: boolean;
    readonly metadataMaxAge: number;
    readonly retry: RetryOptions;
    readonly allowAutoTopicCreation: boolean;
    readonly maxInFlightRequests: number | null;
    readonly isolationLevel: number;
    readonly socketFactory: unknown;
  }

  export default class Cluster {
    constructor(options: ClusterOptions);
    connect(): Promise<void>;
    disconnect(): Promise<void>;
    refreshMetadata(): Promise<void>;
    addTargetTopic(topic: string): Promise<void>;
    /** Leader node id (as a string key) to the partitions it leads. */
    findLeaderForPartitions(topic: string, partitions: number[]): Record<string, number[]>;
    findBroker(node: { nodeId: string }): Promise<ClusterBroker>;
    fetchTopicsOffset(
      topics: { topic: string; partitions: { partition: number }[]; fromBeginning: boolean }[],
    ): Promise<{ topic: string; partitions: { partition: number; offset: string }[] }[]>;
  }
}

declare module 'kafkajs/src/loggers' {
  export function createLogger(options: { level: number; logCreator: unknown }): unknown;
}

declare module 'kafkajs/src/network/socketFactory' {
  export default function defaultSocketFactory(): unknown;
}
