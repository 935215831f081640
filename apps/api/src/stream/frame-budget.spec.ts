import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FairQueue, FrameBudget } from './frame-budget';

describe('FrameBudget', () => {
  it('refills at its rates up to a tenth of a second of either, and says how long to wait', () => {
    const b = new FrameBudget({ framesPerSec: 1000, bytesPerSec: 100_000 }, 0);
    // A tenth of a second's worth at start: 100 frames, 10,000 bytes.
    expect(b.allows(100, 10_000, 0)).toBe(true);
    expect(b.allows(101, 0, 0)).toBe(false);
    b.charge(100, 10_000, 0);
    expect(b.allows(1, 0, 0)).toBe(false);
    expect(b.waitFor(1, 0, 0)).toBeCloseTo(1, 9);
    expect(b.waitFor(1, 500, 0)).toBeCloseTo(5, 9);
    expect(b.allows(10, 1000, 10)).toBe(true);
    // Never more than the burst, however long it was idle.
    expect(b.allows(101, 0, 60_000)).toBe(false);
  });

  it('a charge may go below zero (an opening frame is never held back); what follows waits for the debt', () => {
    const b = new FrameBudget({ framesPerSec: 100, bytesPerSec: 1e9 }, 0);
    b.charge(30, 0, 0);
    expect(b.allows(1, 0, 0)).toBe(false);
    expect(b.waitFor(1, 0, 0)).toBeCloseTo(210, 9);
  });
});

describe('FairQueue', () => {
  it('serves keys in turn, each its oldest item, whatever how many items a key has', () => {
    const q = new FairQueue<string>();
    for (const item of ['a1', 'a2', 'a3', 'a4']) q.push('a', item);
    q.push('b', 'b1');
    q.push('c', 'c1');
    q.push('c', 'c2');
    q.push('a', 'a1');
    expect(q.size).toBe(7);
    const order: string[] = [];
    for (let next = q.peek(); next !== null; next = q.peek()) {
      order.push(next.item);
      q.take(next.key, next.item);
    }
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'c2', 'a3', 'a4']);
    expect(q.size).toBe(0);
  });

  it('forgets an item (a closed stream) without disturbing the turn order', () => {
    const q = new FairQueue<string>();
    q.push('a', 'a1');
    q.push('b', 'b1');
    q.delete('a', 'a1');
    q.delete('a', 'never queued');
    expect(q.peek()).toEqual({ key: 'b', item: 'b1' });
    expect(q.size).toBe(1);
  });
});

/** The same queue the obvious way (a list of keys in turn, each with its list of items). */
class ModelQueue {
  readonly turns: { key: string; items: number[] }[] = [];
  push(key: string, item: number): void {
    let lane = this.turns.find((l) => l.key === key);
    if (lane === undefined) this.turns.push((lane = { key, items: [] }));
    if (!lane.items.includes(item)) lane.items.push(item);
  }
  peek(): { key: string; item: number } | null {
    const lane = this.turns[0];
    return lane === undefined ? null : { key: lane.key, item: lane.items[0]! };
  }
  take(): void {
    const lane = this.turns.shift()!;
    lane.items.shift();
    if (lane.items.length > 0) this.turns.push(lane);
  }
  delete(key: string, item: number): void {
    const i = this.turns.findIndex((l) => l.key === key);
    if (i < 0) return;
    const lane = this.turns[i]!;
    lane.items = lane.items.filter((x) => x !== item);
    if (lane.items.length === 0) this.turns.splice(i, 1);
  }
  get size(): number {
    return this.turns.reduce((n, l) => n + l.items.length, 0);
  }
}

describe('FairQueue against a model (property)', () => {
  it('any sequence of push, take and delete serves the same items in the same order', () => {
    const op = fc.oneof(
      fc.record({ op: fc.constant('push' as const), key: fc.constantFrom('a', 'b', 'c'), item: fc.nat(20) }),
      fc.record({ op: fc.constant('take' as const) }),
      fc.record({
        op: fc.constant('delete' as const),
        key: fc.constantFrom('a', 'b', 'c'),
        item: fc.nat(20),
      }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const q = new FairQueue<number>();
        const m = new ModelQueue();
        // An item is queued under one key only (a subscriber has one address).
        const keyOf = (item: number): string => 'abc'[item % 3]!;
        for (const o of ops) {
          if (o.op === 'push') {
            q.push(keyOf(o.item), o.item);
            m.push(keyOf(o.item), o.item);
          } else if (o.op === 'delete') {
            q.delete(keyOf(o.item), o.item);
            m.delete(keyOf(o.item), o.item);
          } else {
            const next = q.peek();
            expect(next).toEqual(m.peek());
            if (next !== null) {
              q.take(next.key, next.item);
              m.take();
            }
          }
          expect(q.size).toBe(m.size);
        }
      }),
      { numRuns: 300 },
    );
  });
});
