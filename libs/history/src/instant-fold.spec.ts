import { describe, expect, it } from 'vitest';
import type { EventRecord } from '@app/events';
import { messyLog, seeded, stateHashes, versionedFold } from '@test/support';
import { InstantFold } from './instant-fold';
import type { RecordSource } from './record-sources';

/** One partition in memory: read ahead in random chunks, [] once nothing at or before `until` is left. */
function memorySource(records: readonly EventRecord[], rand: () => number): RecordSource {
  const suffixMin: number[] = new Array<number>(records.length + 1).fill(Infinity);
  for (let i = records.length - 1; i >= 0; i--)
    suffixMin[i] = Math.min(suffixMin[i + 1]!, records[i]!.receivedAt);
  let next = 0;
  return {
    take(max: number, until: number): Promise<EventRecord[] | null> {
      if (next >= records.length) return Promise.resolve(null);
      if (suffixMin[next]! > until) return Promise.resolve([]);
      const n = Math.min(max, 1 + Math.floor(rand() * 40));
      const out = records.slice(next, next + n);
      next += out.length;
      return Promise.resolve(out);
    },
  };
}

describe('InstantFold: the versioned read, forwards', () => {
  it.each([1, 2, 3, 4, 5, 6])(
    'seed %i: at every instant, books, markets and venues equal an independent versioned fold',
    async (seed) => {
      const records = messyLog(seed);
      const rand = seeded(seed * 7919);
      // Two partitions, by key, each in log order (as a log would hold them).
      const part = (r: EventRecord): number => (r.exchangeId === 'a' ? 0 : 1);
      const sources = [0, 1].map((p) =>
        memorySource(
          records.filter((r) => part(r) === p),
          rand,
        ),
      );
      const fold = new InstantFold(sources, 16);
      const times = records.map((r) => r.receivedAt).sort((a, b) => a - b);
      const first = times[0]!;
      const last = times[times.length - 1]!;
      let admitted = 0;
      for (let t = first - 5; t <= last + 5; t += 37) {
        await fold.advanceTo(t);
        expect(stateHashes(fold.cache), `seed ${seed} t ${t}`).toEqual(
          stateHashes(versionedFold(records, t)),
        );
        admitted = records.filter((r) => r.receivedAt <= t).length;
        expect(fold.folded).toBe(admitted);
      }
      await fold.advanceTo(last);
      expect(fold.folded).toBe(records.length);
      expect(fold.span).toEqual({ first, last });
    },
  );
});
