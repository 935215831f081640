import { ROUTE_DEFAULTS } from '@app/request';
import { describe, expect, it } from 'vitest';
import { Subscription } from './subscription';

// A frame's envelope is taken when it is journalled: seq +1 per frame sent and never reused,
// ticksSkipped the states it never got, including a frame the strict journal refused.
const { requestId: _, ...params } = { ...ROUTE_DEFAULTS, requestId: '', from: 'USDT', to: 'BTC', amount: 1 };
const sub = (): Subscription => new Subscription('a', 'stream-1', params, 'open', 0);

describe('Subscription envelope', () => {
  it('seq is contiguous; ticksSkipped counts the ticks between two frames sent', () => {
    const s = sub();
    expect(s.next(1)).toEqual({ streamId: 'stream-1', id: 'a', seq: 1, tick: 1, ticksSkipped: 0 });
    expect(s.next(4)).toMatchObject({ seq: 2, tick: 4, ticksSkipped: 2 });
    expect(s.next(5)).toMatchObject({ seq: 3, ticksSkipped: 0 });
  });

  it('a frame not sent gives its seq back, and the next frame counts its tick as skipped', () => {
    const s = sub();
    s.next(1);
    s.unsent(s.next(2));
    expect(s.seq).toBe(1);
    expect(s.next(3)).toMatchObject({ seq: 2, tick: 3, ticksSkipped: 1 });
  });

  it('once a later frame took a seq, an earlier one not sent leaves the seqs as they are', () => {
    const s = sub();
    const first = s.next(1);
    const second = s.next(2);
    s.unsent(first);
    expect(s.seq).toBe(second.seq);
    expect(s.next(3)).toMatchObject({ seq: 3, ticksSkipped: 0 });
  });
});
