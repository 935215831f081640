import { describe, expect, it } from 'vitest';
import type { BookRecord, EventRecord } from '@app/events';
import { LogError, type RecordSink } from '@app/event-log';
import { RecordWriter } from './record-writer';

const book = (symbol: string, sequence: number, snapshot = false): BookRecord => ({
  v: 1,
  type: 'book',
  exchangeId: 'x',
  symbol,
  snapshot,
  bids: [[1, 1]],
  asks: [[2, 1]],
  sequence,
  exchangeTimestamp: null,
  receivedAt: sequence,
});

/** A sink that fails while `down`, optionally taking a prefix of the batch first. */
class ScriptedSink implements RecordSink {
  readonly written: EventRecord[] = [];
  down = false;
  partial = 0;
  write(records: readonly EventRecord[]): Promise<void> {
    const tooBig = records.flatMap((r, i) => (r.type === 'book' && r.symbol === 'HUGE' ? [i] : []));
    if (tooBig.length > 0)
      return Promise.reject(new LogError('too_large', 'too large', { rejected: tooBig }));
    if (this.down) {
      const took = records.slice(0, this.partial);
      this.written.push(...took);
      this.partial = 0;
      return Promise.reject(new LogError('no_space', 'full', { appended: took.map((_, i) => i) }));
    }
    this.written.push(...records);
    return Promise.resolve();
  }
}

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

describe('RecordWriter', () => {
  it('retries a refused batch, keeps order, never repeats what a failed write put in, and reports recovery once', async () => {
    const sink = new ScriptedSink();
    let recovered = 0;
    const w = new RecordWriter({
      sink,
      logger: quiet,
      budgetBytes: 1 << 20,
      backoff: { initialMs: 1, maxMs: 5 },
      onLost: () => undefined,
      onRecovered: () => recovered++,
    });
    sink.down = true;
    sink.partial = 2;
    w.push([book('A', 1, true), book('A', 2), book('A', 3)]);
    w.push([book('A', 4)]);
    await until(() => w.stats.failures >= 2);
    sink.down = false;
    await until(() => w.queued === 0 && !w.failing);
    expect(sink.written.map((r) => (r as BookRecord).sequence)).toEqual([1, 2, 3, 4]);
    expect(recovered).toBe(1);
    await w.close();
  });

  it('drops a record the log refuses for its size, names its book lost, and writes the rest', async () => {
    const sink = new ScriptedSink();
    const lost: string[] = [];
    const w = new RecordWriter({
      sink,
      logger: quiet,
      budgetBytes: 1 << 20,
      backoff: { initialMs: 1, maxMs: 5 },
      onLost: (b) => lost.push(...b),
      onRecovered: () => undefined,
    });
    w.push([book('A', 1, true), book('HUGE', 1, true), book('A', 2)]);
    await until(() => w.queued === 0);
    expect(sink.written.map((r) => (r as BookRecord).symbol)).toEqual(['A', 'A']);
    expect(lost).toEqual(['x|HUGE']);
    expect(w.stats.refused).toBe(1);
  });

  it('over budget while failing: drops the oldest book records, then deltas of those books until their snapshot', async () => {
    const sink = new ScriptedSink();
    const lost: string[] = [];
    const w = new RecordWriter({
      sink,
      logger: quiet,
      budgetBytes: 2_000,
      backoff: { initialMs: 1, maxMs: 5 },
      onLost: (b) => lost.push(...b),
      onRecovered: () => undefined,
    });
    sink.down = true;
    w.push([book('A', 1, true)]);
    await until(() => w.failing);
    for (let s = 2; s < 30; s++) w.push([book('A', s)]);
    expect(w.stats.dropped).toBeGreaterThan(0);
    expect(lost).toContain('x|A');
    w.push([book('A', 30), book('A', 31, true), book('A', 32)]);
    sink.down = false;
    await until(() => w.queued === 0 && !w.failing);
    // What reached the log folds to a book in sync: nothing after a gap but the snapshot and its deltas.
    const seqs = sink.written.map((r) => (r as BookRecord).sequence);
    expect(seqs.slice(-2)).toEqual([31, 32]);
    expect(sink.written.filter((r) => (r as BookRecord).sequence === 30)).toEqual([]);
  });
});
