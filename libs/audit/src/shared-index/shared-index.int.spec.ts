import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { JournalTopic } from '@app/events';
import { KafkaLog, partitionFor, type EventLog, type SharedTopic } from '@app/event-log';
import { seeded, waitFor } from '@test/support';
import { testBrokers } from '../../../../test/kafka/broker';
import { journalLookup } from '../journal-lookup';
import { SharedIndexPublisher } from './index-publisher';
import { BLOCK, decodeHead, encodeHead, pageKey, runKey, type RunHead } from './run-codec';
import { RunsView } from './runs-view';
import { SharedJournalIndex, sharedIndexTopics } from './shared-index';

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

async function appendAll(
  log: EventLog,
  keys: readonly string[],
  topic: JournalTopic = 'quotes',
): Promise<void> {
  for (let i = 0; i < keys.length; i += 2000)
    await log.append(
      topic,
      keys.slice(i, i + 2000).map((key, j) => ({ key, value: JSON.stringify({ n: i + j }) })),
    );
}

/** Offsets of every key of the journal, by reading it whole: what a look-up must give. */
async function scanAll(log: EventLog, topic: JournalTopic = 'quotes'): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  const ends = await log.highWatermarks(topic);
  for (const [p, end] of ends.entries())
    for (const e of await log.read(topic, p, 0, end)) out.set(e.key, [...(out.get(e.key) ?? []), e.offset]);
  return out;
}

/** Publish until no publisher has anything left to build. */
async function settle(publishers: readonly SharedIndexPublisher[]): Promise<void> {
  for (let round = 0; round < 50; round++)
    if ((await Promise.all(publishers.map((p) => p.catchUp()))).every((n) => n === 0)) return;
  throw new Error('the publishers did not settle');
}

/**
 * What the index topics hold once compacted: the page keys still live (latest record not a
 * tombstone), against those the live heads name, and the live claims. Nothing else may be left.
 */
async function leftovers(
  reader: EventLog,
): Promise<{ orphans: string[]; missing: string[]; claims: string[] }> {
  const topics = sharedIndexTopics(reader)!;
  const latest = async (t: SharedTopic): Promise<Map<string, Buffer | null>> => {
    const out = new Map<string, Buffer | null>();
    for (let at = 0, end = await t.end(); at < end;) {
      const got = await t.read(at, 4096);
      if (got.length === 0) break;
      for (const r of got) out.set(r.key, r.value);
      at = got[got.length - 1]!.offset + 1;
    }
    return out;
  };
  const runs = await latest(topics.runs);
  const named = new Set<string>();
  for (const [key, value] of runs) {
    const head = key.startsWith('run/') && value !== null ? decodeHead(key, value) : null;
    head?.pages.forEach((_, i) => named.add(pageKey(head, i)));
  }
  const live = new Set([...(await latest(topics.pages))].filter(([, v]) => v !== null).map(([k]) => k));
  return {
    orphans: [...live].filter((k) => !named.has(k)),
    missing: [...named].filter((k) => !live.has(k)),
    claims: [...runs].filter(([k, v]) => k.startsWith('claim/') && v !== null).map(([k]) => k),
  };
}

/** Blocks and merges a binary counter of `n` blocks builds. */
const expected = (n: number): { blocks: number; merges: number } => ({
  blocks: n,
  merges:
    n -
    n
      .toString(2)
      .split('')
      .filter((b) => b === '1').length,
});

describe('the shared requestId index: published to Kafka by the API replicas, read from anywhere (real broker)', () => {
  const logs: KafkaLog[] = [];
  let brokers: string[];
  const open = async (topicPrefix: string): Promise<KafkaLog> => {
    brokers ??= (await testBrokers()).split(',');
    const log = new KafkaLog({
      brokers,
      topicPrefix,
      partitions: { books: 1, venues: 1, quotes: 2, stream: 1 },
    });
    logs.push(log);
    return log;
  };
  afterAll(async () => {
    for (const l of logs) await l.close();
  });

  it('two replicas publish each run once; a reader elsewhere finds every occurrence of a key with one page per run and a tail under a block', async () => {
    const prefix = `si-${randomUUID().slice(0, 8)}`;
    const [a, b, reader] = [await open(prefix), await open(prefix), await open(prefix)];
    const keys = ids(40_000, 7);
    const publishers = [a, b].map((log) => new SharedIndexPublisher(log, sharedIndexTopics(log)!));
    // Journalled and published in uneven passes, both replicas at once, as the API's indexers do.
    for (const [from, to] of [
      [0, 5000],
      [5000, 21_000],
      [21_000, 22_000],
      [22_000, 40_000],
    ] as const) {
      await appendAll(a, keys.slice(from, to));
      await settle(publishers);
    }
    const ends = await reader.highWatermarks('quotes');
    const built = publishers.reduce(
      (s, p) => ({ blocks: s.blocks + p.stats.blocks, merges: s.merges + p.stats.merges }),
      { blocks: 0, merges: 0 },
    );
    const want = ends.map((e) => expected(Math.floor(e / BLOCK)));
    expect(built).toEqual({
      blocks: want.reduce((s, w) => s + w.blocks, 0),
      merges: want.reduce((s, w) => s + w.merges, 0),
    });
    const view = new RunsView(sharedIndexTopics(reader)!.runs);
    await view.refresh();
    for (const [p, end] of ends.entries()) {
      const chain = view.chain(p);
      // The binary decomposition of the partition's complete blocks.
      expect(chain.map((r) => (r.to - r.from) / BLOCK)).toEqual(
        Math.floor(end / BLOCK)
          .toString(2)
          .split('')
          .map((bit, i, bits) => (bit === '1' ? 2 ** (bits.length - 1 - i) : 0))
          .filter((n) => n > 0),
      );
    }
    const truth = await scanAll(reader);
    const reused = [...truth].filter(([, o]) => o.length > 1).map(([k]) => k);
    expect(reused.length).toBeGreaterThan(100);
    const index = new SharedJournalIndex(reader, sharedIndexTopics(reader)!);
    for (const key of [...reused.slice(0, 30), ...keys.filter((_, i) => i % 997 === 0), keys[39_999]!]) {
      const got = await index.entries(key);
      expect(got.entries.map((e) => e.offset)).toEqual(truth.get(key));
      expect(got.entries.every((e) => e.key === key)).toBe(true);
      expect(got.runs).toBeGreaterThan(0);
      expect(got.scanned).toBeLessThan(BLOCK);
    }
    expect((await index.entries('never-journalled')).entries).toEqual([]);
    // Merged runs' pages and the claims were deleted; every page a live head names is there.
    expect(await leftovers(reader)).toEqual({ orphans: [], missing: [], claims: [] });
  }, 180_000);

  it('a halted publisher (the API stopping) stops at the next page and leaves nothing behind; another finishes', async () => {
    const prefix = `sh-${randomUUID().slice(0, 8)}`;
    const log = await open(prefix);
    await appendAll(log, ids(70_000, 3));
    const first = new SharedIndexPublisher(log, sharedIndexTopics(log)!);
    const pass = first.catchUp();
    await waitFor('the first runs', () => first.stats.blocks + first.stats.merges >= 3, 60_000);
    first.halt();
    await pass;
    const ends = await log.highWatermarks('quotes');
    const all = ends.reduce((s, e) => s + Math.floor(e / BLOCK), 0);
    expect(first.stats.blocks).toBeLessThan(all);
    expect(await first.catchUp()).toBe(0);
    expect((await leftovers(log)).claims).toEqual([]);
    const second = new SharedIndexPublisher(log, sharedIndexTopics(log)!);
    await settle([second]);
    expect(first.stats.blocks + second.stats.blocks).toBe(all);
    expect(await leftovers(log)).toEqual({ orphans: [], missing: [], claims: [] });
  }, 180_000);

  it('falls back to the journal, with the same answer: no index, an index behind, a run whose page is gone, an index of another journal', async () => {
    const prefix = `sf-${randomUUID().slice(0, 8)}`;
    const log = await open(prefix);
    const keys = ids(20_000, 9);
    await appendAll(log, keys.slice(0, 12_000));
    const topics = sharedIndexTopics(log)!;
    const probe = [...keys.slice(0, 12_000).filter((_, i) => i % 1499 === 0), keys[11_999]!];
    const check = async (reader: KafkaLog, what: string): Promise<number[]> => {
      const truth = await scanAll(reader);
      const index = new SharedJournalIndex(reader, sharedIndexTopics(reader)!);
      const runs: number[] = [];
      for (const key of probe) {
        const got = await index.entries(key);
        expect(
          got.entries.map((e) => e.offset),
          `${what}: ${key}`,
        ).toEqual(truth.get(key) ?? []);
        runs.push(got.runs);
      }
      return runs;
    };
    // No publisher yet: the index topics do not even exist.
    expect((await check(await open(prefix), 'no index')).every((r) => r === 0)).toBe(true);
    await new SharedIndexPublisher(log, topics).catchUp();
    // Behind: journalled after the last pass, found in the tail.
    await appendAll(log, keys.slice(12_000));
    probe.push(keys[19_999]!, keys[15_000]!);
    expect((await check(await open(prefix), 'index behind')).some((r) => r > 0)).toBe(true);
    // A run whose head names a page the pages topic does not hold as written (merged away).
    const view = new RunsView(topics.runs);
    await view.refresh();
    const run = view.chain(0)[0]!;
    const moved: RunHead = { ...run, pages: run.pages.map((pg) => ({ ...pg, offset: pg.offset + 1 })) };
    await rewrite(topics.runs, moved);
    await check(await open(prefix), 'a page gone');
    // Runs of another journal of the same name: the newest run's last entry is not this journal's.
    const last = view.chain(1).at(-1)!;
    await rewrite(topics.runs, { ...last, last: { offset: last.last!.offset, hash: Buffer.alloc(8, 7) } });
    const runs = await check(await open(prefix), 'another journal');
    expect(runs.every((r, i) => partitionOf(probe[i]!) !== 1 || r === 0)).toBe(true);
  }, 180_000);

  it('the stream journal has an index of its own beside it, which journalLookup reads (issue 22)', async () => {
    const prefix = `ss-${randomUUID().slice(0, 8)}`;
    const log = await open(prefix);
    const keys = ids(2 * BLOCK + 500, 11);
    await appendAll(log, keys, 'stream');
    const publisher = new SharedIndexPublisher(log, sharedIndexTopics(log, 'stream')!);
    await settle([publisher]);
    expect(publisher.stats.blocks).toBe(2);
    const reader = await open(prefix);
    // On Kafka the data directory is not read: both look-ups are the shared ones.
    const lookups = journalLookup(reader, '/nonexistent');
    expect(lookups.stream).toBeInstanceOf(SharedJournalIndex);
    expect([lookups.quotes.topic, lookups.stream.topic]).toEqual(['quotes', 'stream']);
    const truth = await scanAll(reader, 'stream');
    for (const key of [...keys.filter((_, i) => i % 499 === 0), keys.at(-1)!]) {
      const got = await lookups.stream.entries(key);
      expect(got.entries.map((e) => e.offset)).toEqual(truth.get(key));
      expect(got.runs).toBeGreaterThan(0);
      expect(got.scanned).toBeLessThan(BLOCK);
      // Nothing of the stream is in the REST journal or its index.
      expect((await lookups.quotes.entries(key)).entries).toEqual([]);
    }
  }, 180_000);
});

/** Append a changed head under its run's key (the latest record of a key is the one read). */
async function rewrite(runs: SharedTopic, head: RunHead): Promise<void> {
  const key = runKey(head.partition, head.from, head.to);
  const value = encodeHead(head);
  expect(decodeHead(key, value)).not.toBeNull();
  await runs.append([{ key, value }]);
}

/** The journal has two partitions (see open()). */
const partitionOf = (key: string): number => partitionFor(key, 2);
