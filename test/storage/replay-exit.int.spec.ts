import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventRecord } from '@app/events';
import { EmbeddedLog, KafkaLog, type EventLog } from '@app/event-log';
import { bookRecords, listingRecords, type StreamSpec } from '@test/support';
import { testBrokers } from '../kafka/broker';
import { startApp, type App } from './support/processes';

// Issue 21: `ingestor --replay <file> --speed max` into Kafka logged "replay finished" and then
// never exited (the Kafka client kept the process alive); on the embedded log it exited 0.
const SPEC: StreamSpec = {
  venues: 3,
  symbolsPerVenue: 2,
  bookRecords: 600,
  levels: 4,
  snapshotEvery: 50,
  startAt: 1_786_000_000_000,
  stepMs: 10,
};

const dirs: string[] = [];
const apps: App[] = [];
afterAll(() => {
  for (const a of apps) if (a.alive()) a.child.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Entries in the books and venues topics. */
async function written(log: EventLog): Promise<number> {
  let n = 0;
  for (const topic of ['books', 'venues'] as const) for (const w of await log.highWatermarks(topic)) n += w;
  return n;
}

describe('ingestor --replay <file> --speed max exits by itself once the recording is fed', () => {
  const records: EventRecord[] = [...listingRecords(SPEC), ...bookRecords(SPEC)];

  function recording(): { dir: string; file: string } {
    const dir = mkdtempSync(join(tmpdir(), 'replay-exit-'));
    dirs.push(dir);
    const file = join(dir, 'recording.jsonl');
    writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    return { dir, file };
  }

  async function runToExit(env: Record<string, string>, file: string): Promise<App> {
    const ingestor = startApp('apps/ingestor/src/main.js', ['--replay', file, '--speed', 'max'], env);
    apps.push(ingestor);
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      ingestor.exited,
      new Promise<'still running'>((res) => (timer = setTimeout(() => res('still running'), 90_000))),
    ]).finally(() => clearTimeout(timer));
    expect(outcome, `the ingestor did not exit:\n${ingestor.stderr().slice(-2000)}`).toEqual({
      code: 0,
      signal: null,
    });
    expect(ingestor.stdout() + ingestor.stderr()).toMatch(/"message":"replay finished"/);
    return ingestor;
  }

  it('into a real Kafka broker: status 0, every record in the topics', async () => {
    const { dir, file } = recording();
    const brokers = await testBrokers();
    const topicPrefix = `rx-${randomUUID().slice(0, 8)}`;
    await runToExit({ KAFKA_BROKERS: brokers, TOPIC_PREFIX: topicPrefix, DATA_DIR: dir }, file);
    const reader = new KafkaLog({ brokers: brokers.split(','), topicPrefix, onProblem: () => undefined });
    try {
      expect(await written(reader)).toBe(records.length);
    } finally {
      await reader.close();
    }
  }, 150_000);

  it('into the embedded log: status 0, every record in the topics', async () => {
    const { dir, file } = recording();
    const dataDir = join(dir, 'data');
    await runToExit({ DATA_DIR: dataDir }, file);
    const reader = new EmbeddedLog({ dataDir, readOnly: true });
    try {
      expect(await written(reader)).toBe(records.length);
    } finally {
      await reader.close();
    }
  }, 150_000);
});
