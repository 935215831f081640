import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBrokers } from '../../../../test/kafka/broker';
import type { LogEntry } from '../event-log';
import { partitionFor } from '../partitioner';
import { KafkaLog } from './kafka-log';

let log: KafkaLog;

beforeAll(async () => {
  const brokers = await testBrokers();
  log = new KafkaLog({
    brokers: brokers.split(','),
    topicPrefix: `t-${randomUUID().slice(0, 8)}`,
    partitions: { books: 3, venues: 2, quotes: 1 },
  });
});
afterAll(async () => {
  await log?.close();
});

describe('KafkaLog (real broker)', () => {
  it('creates topics, partitions by key like the embedded log, and reads each partition in order', async () => {
    expect(await log.partitions('books')).toBe(3);
    const entries = Array.from({ length: 60 }, (_, i) => ({
      key: `venue|S${i % 7}/USDT`,
      value: JSON.stringify({ i }),
      snapshot: i % 10 === 0,
    }));
    await log.append('books', entries.slice(0, 30));
    await log.append('books', entries.slice(30));
    const hwm = await log.highWatermarks('books');
    expect(hwm.reduce((a, b) => a + b, 0)).toBe(60);
    const all: LogEntry[] = [];
    for (let p = 0; p < 3; p++) {
      const got = await log.read('books', p, 0);
      expect(got.map((e) => e.offset)).toEqual(got.map((_, i) => i));
      for (const e of got) expect(partitionFor(e.key, 3)).toBe(p);
      all.push(...got);
    }
    expect(all).toHaveLength(60);
    for (const key of new Set(entries.map((e) => e.key))) {
      const is = all.filter((e) => e.key === key).map((e) => (JSON.parse(e.value) as { i: number }).i);
      expect(is).toEqual(
        entries
          .filter((e) => e.key === key)
          .map((_, j, arr) => arr[j]!)
          .map((e) => (JSON.parse(e.value) as { i: number }).i),
      );
    }
    // Snapshot marks let a rebuild skip to the latest snapshot of each key.
    const starts = await log.rebuildStarts('books', hwm);
    for (let p = 0; p < 3; p++) {
      const perKey = new Map<string, number>();
      for (const e of all.filter((x) => x.partition === p)) {
        const snapshot = (JSON.parse(e.value) as { i: number }).i % 10 === 0;
        if (snapshot || !perKey.has(e.key)) perKey.set(e.key, e.offset);
      }
      expect(starts[p]).toBe(Math.min(...perKey.values()));
    }
    expect(starts.some((s, p) => s > 0 && s < hwm[p]!)).toBe(true);
  });

  it('follows the tail from given positions and stops on abort', async () => {
    const hwm = await log.highWatermarks('venues');
    const ac = new AbortController();
    const seen: LogEntry[] = [];
    const done = (async () => {
      const from = hwm.map((offset, partition) => ({ topic: 'venues' as const, partition, offset }));
      for await (const batch of log.follow(from, { signal: ac.signal })) {
        seen.push(...batch);
        if (seen.length >= 20) ac.abort();
      }
    })();
    for (let i = 0; i < 4; i++) {
      await log.append(
        'venues',
        Array.from({ length: 5 }, (_, j) => ({ key: `v${j}`, value: `${i * 5 + j}` })),
      );
      await new Promise((r) => setTimeout(r, 30));
    }
    await done;
    expect(seen.map((e) => Number(e.value)).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i),
    );
    for (const e of seen) expect(e.topic).toBe('venues');
  });
});
