import { describe, expect, it } from 'vitest';
import { AsyncQueue } from './async-queue';

/** Resolves to 'timeout' if `p` has not settled within `ms` (a lost wake-up never settles). */
function within<T>(p: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'timeout'>((res) => (timer = setTimeout(() => res('timeout'), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

describe('AsyncQueue', () => {
  it('two pushes waiting on a full queue are both woken as the reader makes room, in order', async () => {
    const q = new AsyncQueue<string>(1);
    await q.push('a');
    const pushed: string[] = [];
    const b = q.push('b').then(() => pushed.push('b'));
    const c = q.push('c').then(() => pushed.push('c'));
    const taken: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const item = await within(q.next(), 5_000);
      expect(item, `item ${i} never came: a waiting push was not woken`).not.toBe('timeout');
      taken.push(item);
    }
    expect(await within(Promise.all([b, c]), 5_000)).not.toBe('timeout');
    expect(taken).toEqual(['a', 'b', 'c']);
    expect(pushed).toEqual(['b', 'c']);
  });

  it('end wakes every waiting push (they return without queueing) and the reader gets null after the items', async () => {
    const q = new AsyncQueue<number>(1);
    await q.push(1);
    const waiting = [q.push(2), q.push(3), q.push(4)];
    q.end();
    expect(await within(Promise.all(waiting), 5_000)).not.toBe('timeout');
    expect(await q.next()).toBe(1);
    expect(await q.next()).toBeNull();
  });

  it('fail wakes every waiting push and the reader throws once the queued items are taken', async () => {
    const q = new AsyncQueue<number>(1);
    await q.push(1);
    const waiting = [q.push(2), q.push(3)];
    q.fail(new Error('broker gone'));
    expect(await within(Promise.all(waiting), 5_000)).not.toBe('timeout');
    expect(await q.next()).toBe(1);
    await expect(q.next()).rejects.toThrow('broker gone');
  });
});
