import { describe, expect, it } from 'vitest';
import { turnEnd } from './turn-end';

describe('turnEnd: what an answer awaits before it is journalled and written', () => {
  it('is one wait for every caller of a turn, and a new one in the next turn', async () => {
    const a = turnEnd();
    const b = turnEnd();
    expect(b).toBe(a);
    await a;
    const c = turnEnd();
    expect(c).not.toBe(a);
    await c;
  });

  it("lets the turn's other work run first: everything queued before it, and the turn's promise jobs", async () => {
    const order: string[] = [];
    setImmediate(() => order.push('immediate queued before'));
    const waits = [1, 2, 3].map((i) =>
      turnEnd().then(() => {
        order.push(`answer ${i}`);
      }),
    );
    void Promise.resolve().then(() => order.push('a promise job of the same turn'));
    await Promise.all(waits);
    expect(order).toEqual([
      'a promise job of the same turn',
      'immediate queued before',
      'answer 1',
      'answer 2',
      'answer 3',
    ]);
  });
});
