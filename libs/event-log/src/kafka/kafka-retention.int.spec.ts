import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBrokers } from '../../../../test/kafka/broker';
import { KafkaLog } from './kafka-log';
import { describeRetention } from './kafka-retention';

const ROOT = join(__dirname, '../../../..');
let brokers: string;
const logs: KafkaLog[] = [];

beforeAll(async () => {
  brokers = await testBrokers();
});
afterAll(async () => {
  for (const l of logs) await l.close();
});

const open = (prefix: string, maxAgeMs: number | null): KafkaLog => {
  const log = new KafkaLog({
    brokers: brokers.split(','),
    topicPrefix: prefix,
    partitions: { books: 2, venues: 1, quotes: 1 },
    retention: { maxAgeMs, maxBytes: 1_000_000_000 },
  });
  logs.push(log);
  return log;
};

describe('Kafka topic retention (real broker)', () => {
  it('creates books and quotes with the configured retention and keeps venues whole', async () => {
    const prefix = `r-${randomUUID().slice(0, 8)}`;
    const log = open(prefix, 3_600_000);
    await log.partitions('books');
    const admin = new Kafka({ brokers: brokers.split(','), clientId: 'retention-check' }).admin();
    await admin.connect();
    try {
      expect(await describeRetention(admin, `${prefix}.books`)).toEqual({
        ms: 3_600_000,
        bytes: 1_000_000_000,
      });
      expect(await describeRetention(admin, `${prefix}.quotes`)).toEqual({
        ms: 3_600_000,
        bytes: 1_000_000_000,
      });
      expect((await describeRetention(admin, `${prefix}.venues`)).ms).toBe(-1);
    } finally {
      await admin.disconnect();
    }
    expect(await log.snapshotRetentionProblem(30_000)).toBeNull();
    expect(await log.retainedFrom('books')).toEqual([0, 0]);
  });

  it('names a books topic whose retention is under ten snapshot periods', async () => {
    const log = open(`r-${randomUUID().slice(0, 8)}`, 60_000);
    const problem = await log.snapshotRetentionProblem(30_000);
    expect(problem).toMatch(/retention\.ms=60000, under 10 snapshot periods/);
  });

  it('the ingestor refuses to start on such a topic, saying why', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/route-service.mjs'), 'ingestor'], {
      cwd: ROOT,
      env: {
        ...process.env,
        KAFKA_BROKERS: brokers,
        TOPIC_PREFIX: `r-${randomUUID().slice(0, 8)}`,
        LOG_RETENTION_MS: '60000',
        LOG_FORMAT: 'json',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const t = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('exit', (c) => {
        clearTimeout(t);
        resolve(c);
      });
    });
    expect(code).toBe(2);
    expect(out).toContain('retention.ms=60000, under 10 snapshot periods');
  }, 90_000);
});
