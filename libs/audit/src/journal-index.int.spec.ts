import { randomUUID } from 'node:crypto';
import { copyFileSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedLog, KafkaLog, type EventLog } from '@app/event-log';
import { seeded, tempDir } from '@test/support';
import { testBrokers } from '../../../test/kafka/broker';
import { JournalIndex } from './journal-index';

/** Client-supplied ids: no order, no time in them; some reused (a client resending x-request-id). */
function ids(n: number, seed: number): string[] {
  const rnd = seeded(seed);
  const out: string[] = [];
  for (let i = 0; i < n; i++)
    out.push(
      i > 10 && rnd() < 0.05 ? out[Math.floor(rnd() * i)]! : `req-${Math.floor(rnd() * 1e12).toString(36)}`,
    );
  return out;
}

/** The offsets of `key` by reading its whole partition: what the index must give. */
async function scan(log: EventLog, partition: number, key: string): Promise<number[]> {
  const end = (await log.highWatermarks('quotes'))[partition]!;
  const out: number[] = [];
  for (let at = 0; at < end;) {
    const entries = await log.read('quotes', partition, at, end - at);
    for (const e of entries) if (e.key === key) out.push(e.offset);
    at = entries[entries.length - 1]!.offset + 1;
  }
  return out;
}

async function appendAll(log: EventLog, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 500)
    await log.append(
      'quotes',
      keys.slice(i, i + 500).map((key, j) => ({ key, value: JSON.stringify({ n: i + j }) })),
    );
}

async function exercise(log: EventLog, dir: string): Promise<void> {
  const keys = ids(6000, 11);
  const index = new JournalIndex(log, dir);
  // Written and indexed in uneven passes, as the API's indexer does every second.
  for (const [from, to] of [
    [0, 700],
    [700, 2500],
    [2500, 2600],
    [2600, 5000],
  ] as const) {
    await appendAll(log, keys.slice(from, to));
    await index.catchUp();
  }
  const reused = keys.filter((k, i) => keys.indexOf(k) !== i);
  expect(reused.length).toBeGreaterThan(50);
  for (const key of [...reused.slice(0, 40), ...keys.slice(0, 5000).filter((_, i) => i % 97 === 0)]) {
    const got = await index.entries(key);
    expect(got.scanned, 'an index that is up to date reads no journal entry to find a key').toBe(0);
    expect(got.entries.map((e) => e.offset)).toEqual(await scan(log, got.partition, key));
    expect(got.entries.every((e) => e.key === key)).toBe(true);
  }
  const found = await index.entries(reused[0]!);
  expect(found.entries.length).toBeGreaterThan(1);
  // Runs merge like a binary counter: a handful per partition, not one per pass.
  expect(found.runs).toBeLessThanOrEqual(Math.ceil(Math.log2(5000)) + 1);
  // Entries appended since the last pass: found by reading only that tail.
  await appendAll(log, keys.slice(5000));
  const late = keys[5500]!;
  const tail = await index.entries(late);
  expect(tail.entries.map((e) => e.offset)).toEqual(await scan(log, tail.partition, late));
  expect(tail.scanned).toBeGreaterThan(0);
  expect(tail.scanned).toBeLessThanOrEqual(1000);
  expect((await index.entries('never-journalled')).entries).toEqual([]);
}

describe('JournalIndex: the requestId index of the journal', () => {
  const dir = tempDir('journal-index');
  const opened: EventLog[] = [];
  afterAll(async () => {
    for (const log of opened) await log.close();
    dir.remove();
  });

  it('embedded log: every occurrence of a key, by binary searches, and the unindexed tail by reading it', async () => {
    const log = new EmbeddedLog({ dataDir: join(dir.path, 'log'), partitions: { quotes: 2 } });
    opened.push(log);
    await exercise(log, join(dir.path, 'log', 'journal-index'));
  });

  it('a crash mid-merge or a torn run loses nothing: leftovers are ignored, then removed; a torn run is re-indexed', async () => {
    const log = new EmbeddedLog({ dataDir: join(dir.path, 'crash'), partitions: { quotes: 1 } });
    opened.push(log);
    const at = join(dir.path, 'crash-index');
    const keys = ids(3000, 5);
    const index = new JournalIndex(log, at);
    await appendAll(log, keys.slice(0, 1000));
    await index.catchUp();
    await appendAll(log, keys.slice(1000, 1100));
    await index.catchUp();
    const runs = readdirSync(at).sort();
    expect(runs.length).toBe(2);
    // An interrupted merge: a merged output beside inputs (same coverage) and a torn temporary file.
    copyFileSync(join(at, runs[0]!), join(at, 'p0.0000000000000000-0000000000000001.run'));
    writeFileSync(join(at, `${runs[1]!}.tmp`), 'torn');
    // A torn newest run (a crash while the disk lost its tail): it must be ignored, not believed.
    truncateSync(join(at, runs[1]!), 40);
    const key = keys[1050]!;
    const got = await index.entries(key);
    expect(got.entries.map((e) => e.offset)).toEqual(await scan(log, 0, key));
    expect(got.scanned).toBe(100);
    await appendAll(log, keys.slice(1100));
    await index.catchUp();
    expect(
      readdirSync(at).some((f) => f.endsWith('.tmp') || f.startsWith('p0.0000000000000000-0000000000000001')),
    ).toBe(false);
    for (const k of [key, keys[2999]!, keys[3]!]) {
      const again = await index.entries(k);
      expect(again.scanned).toBe(0);
      expect(again.entries.map((e) => e.offset)).toEqual(await scan(log, 0, k));
    }
  });

  it('an index left by an older, longer journal of the same name is not believed, then rebuilt', async () => {
    const at = join(dir.path, 'recreated-index');
    const old = new EmbeddedLog({ dataDir: join(dir.path, 'old'), partitions: { quotes: 1 } });
    opened.push(old);
    await appendAll(old, ids(2000, 21));
    await new JournalIndex(old, at).catchUp();
    const log = new EmbeddedLog({ dataDir: join(dir.path, 'new'), partitions: { quotes: 1 } });
    opened.push(log);
    const keys = ids(500, 22);
    await appendAll(log, keys);
    const index = new JournalIndex(log, at);
    const before = await index.entries(keys[400]!);
    expect(before.entries.map((e) => e.offset)).toEqual(await scan(log, 0, keys[400]!));
    expect(before.scanned).toBe(500);
    await index.catchUp();
    const after = await index.entries(keys[400]!);
    expect(after.scanned).toBe(0);
    expect(after.entries.map((e) => e.offset)).toEqual(before.entries.map((e) => e.offset));
  });

  it('Kafka (real broker): the same lookups over a Kafka journal', async () => {
    const brokers = await testBrokers();
    const log = new KafkaLog({
      brokers: brokers.split(','),
      topicPrefix: `ji-${randomUUID().slice(0, 8)}`,
      partitions: { books: 1, venues: 1, quotes: 2 },
    });
    opened.push(log);
    await exercise(log, join(dir.path, 'kafka-index'));
  }, 120_000);
});
