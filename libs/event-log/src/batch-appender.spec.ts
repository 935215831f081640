import { describe, expect, it } from 'vitest';
import { BatchAppender, type BatchAppenderOptions } from './batch-appender';
import { LogError } from './log-error';

interface Item {
  readonly lane: string;
  readonly n: number;
}

/** A log that appends while `up`; while down, the first `partial` items of a batch go in anyway. */
class ScriptedLog {
  readonly appended: Item[] = [];
  readonly batches: Item[][] = [];
  up = true;
  partial = 0;
  refuse = new Set<number>();

  write = (batch: readonly Item[]): Promise<void> => {
    this.batches.push([...batch]);
    const rejected = batch.flatMap((it, i) => (this.refuse.has(it.n) ? [i] : []));
    if (rejected.length > 0) {
      this.appended.push(...batch.filter((_, i) => !rejected.includes(i)));
      const appended = batch.flatMap((_, i) => (rejected.includes(i) ? [] : [i]));
      return Promise.reject(new LogError('too_large', 'too large', { appended, rejected }));
    }
    if (!this.up) {
      const took = batch.slice(0, this.partial);
      this.appended.push(...took);
      this.partial = 0;
      return Promise.reject(new LogError('unavailable', 'down', { appended: took.map((_, i) => i) }));
    }
    this.appended.push(...batch);
    return Promise.resolve();
  };
}

const items = (lane: string, ...ns: number[]): Item[] => ns.map((n) => ({ lane, n }));
const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 2));
  expect(check()).toBe(true);
};

function appender(log: ScriptedLog, more: Partial<BatchAppenderOptions<Item>> = {}): BatchAppender<Item> {
  return new BatchAppender<Item>({
    write: log.write,
    sizeOf: (it) => 10 + it.n,
    maxBatch: 3,
    laneOf: (it) => it.lane,
    backoff: { initialMs: 1, maxMs: 4 },
    random: () => 0.5,
    ...more,
  });
}

describe('BatchAppender', () => {
  it('appends in batches of one lane at most maxBatch long, in order, counting bytes per lane', async () => {
    const log = new ScriptedLog();
    const a = appender(log);
    a.push([...items('q', 1, 2, 3, 4), ...items('s', 5), ...items('q', 6)]);
    expect(a.bytes('q')).toBe(10 * 5 + 1 + 2 + 3 + 4 + 6);
    expect(a.bytes('s')).toBe(15);
    await a.flush();
    expect(log.batches.map((b) => b.map((it) => it.n))).toEqual([[1, 2, 3], [4], [5], [6]]);
    expect(a.bytes()).toBe(0);
    expect(a.counts.written).toBe(6);
  });

  it('after a failed append: repeats nothing it put in, keeps the rest, pauses, and tells the recovery once', async () => {
    const log = new ScriptedLog();
    const told: string[] = [];
    const a = appender(log, {
      onFailure: (e, first) => told.push(`${first ? 'first ' : ''}failure: ${e.message}`),
      onRecovered: () => told.push('recovered'),
    });
    log.up = false;
    log.partial = 1;
    a.push(items('q', 1, 2));
    a.kick();
    await until(() => a.counts.failures >= 3);
    expect(a.failing).toBe(true);
    a.push(items('q', 3));
    log.up = true;
    await until(() => a.queued === 0 && !a.failing);
    expect(log.appended.map((it) => it.n)).toEqual([1, 2, 3]);
    expect(told.slice(0, 2)).toEqual(['first failure: down', 'failure: down']);
    expect(told.filter((t) => t === 'recovered')).toHaveLength(1);
    expect(a.counts.outages).toBe(1);
  });

  it('drops what the log refuses for its size and appends the rest at once, not as an outage', async () => {
    const log = new ScriptedLog();
    const refused: number[] = [];
    const a = appender(log, { onRefused: (its) => refused.push(...its.map((it) => it.n)) });
    log.refuse.add(2);
    a.push(items('q', 1, 2, 3, 4));
    await a.flush();
    expect(log.appended.map((it) => it.n)).toEqual([1, 3, 4]);
    expect(refused).toEqual([2]);
    expect(a.counts).toMatchObject({ refused: 1, failures: 0, written: 3 });
    expect(a.failing).toBe(false);
  });

  it('flush rejects at the next failure; items the owner abandons leave the queue, the others stay', async () => {
    const log = new ScriptedLog();
    const a = appender(log, {
      abandon: (it) => it.n % 2 === 0,
      backoff: { initialMs: 60_000, maxMs: 60_000 },
    });
    log.up = false;
    a.push(items('q', 1, 2, 3));
    await expect(a.flush()).rejects.toThrow('down');
    expect(a.items.map((it) => it.n)).toEqual([1, 3]);
    // The pause after the failure is a minute long: flush cuts it short.
    log.up = true;
    await a.flush();
    expect(log.appended.map((it) => it.n)).toEqual([1, 3]);
    a.stop();
  });

  it('appends an item pushed the moment the last append settles, and a flush then resolves', async () => {
    const log = new ScriptedLog();
    let written: () => void = () => undefined;
    const a = appender(log, { onWritten: () => written() });
    // A strict journal's caller goes on as soon as its record is in: right as the run ends.
    for (let n = 1; n <= 3; n++) {
      const done = new Promise<void>((r) => (written = r));
      a.push(items('q', n));
      a.kick();
      await done;
    }
    await a.flush();
    expect(log.appended.map((it) => it.n)).toEqual([1, 2, 3]);
  });

  it('retain drops queued items but never those being appended', () => {
    const log = new ScriptedLog();
    let release: () => void = () => undefined;
    const a = appender(log, {
      write: (batch) => {
        log.batches.push([...batch]);
        return new Promise((r) => (release = r));
      },
    });
    a.push(items('q', 1, 2, 3, 4, 5));
    a.kick();
    expect(a.inFlight).toBe(3);
    a.retain(() => false);
    expect(a.items.map((it) => it.n)).toEqual([1, 2, 3]);
    expect(a.bytes()).toBe(36);
    release();
  });

  it('close gives up after its timeout while the log refuses, leaving the queue as it was', async () => {
    const log = new ScriptedLog();
    const a = appender(log);
    log.up = false;
    a.push(items('q', 1, 2));
    const started = performance.now();
    await a.close(50);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(a.queued).toBe(2);
    await expect(a.flush()).rejects.toThrow('stopped');
  });
});
