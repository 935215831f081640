import { describe, expect, it } from 'vitest';
import { defaultOf } from '@app/config';
import { ResumePoints } from './resume-points';

const KEY = '{"from":"USDT","to":"BTC","amountIn":1000}';
const T0 = 1_786_300_000_000;
/** The service's default window; each verdict holds for any window, the default is what users get. */
const RESUME_WINDOW_MS = defaultOf('STREAM_RESUME_WINDOW_MS');

describe('ResumePoints: what a reconnecting v2 client is told (time is an argument)', () => {
  it('resumed with the exact missed frames inside the window, up to its last millisecond', () => {
    const p = new ResumePoints(RESUME_WINDOW_MS);
    p.opened('s1', KEY);
    p.closed('s1', KEY, 7, T0);
    expect(p.verdict({ streamId: 's1', seq: 4 }, KEY, T0 + 1)).toEqual({ resumed: true, missedFrames: 3 });
    expect(p.verdict({ streamId: 's1', seq: 7 }, KEY, T0 + RESUME_WINDOW_MS)).toEqual({
      resumed: true,
      missedFrames: 0,
    });
  });

  it('expired once the window has passed, not unknown: the end is kept twice the window', () => {
    const p = new ResumePoints(RESUME_WINDOW_MS);
    p.opened('s1', KEY);
    p.closed('s1', KEY, 7, T0);
    expect(p.verdict({ streamId: 's1', seq: 4 }, KEY, T0 + RESUME_WINDOW_MS + 1)).toEqual({
      resumed: false,
      reason: 'expired',
    });
    // Another stream closing later prunes ends older than twice the window: then it is unknown.
    p.closed('s2', KEY, 1, T0 + 2 * RESUME_WINDOW_MS + 1);
    expect(p.verdict({ streamId: 's1', seq: 4 }, KEY, T0 + 2 * RESUME_WINDOW_MS + 2)).toEqual({
      resumed: false,
      reason: 'unknown_stream',
    });
  });

  it('still_open before the old socket’s close is seen; request_mismatch and seq_ahead as named', () => {
    const p = new ResumePoints(RESUME_WINDOW_MS);
    p.opened('s1', KEY);
    expect(p.verdict({ streamId: 's1', seq: 1 }, KEY, T0)).toEqual({ resumed: false, reason: 'still_open' });
    p.closed('s1', KEY, 5, T0);
    expect(p.verdict({ streamId: 's1', seq: 1 }, '{"from":"BTC"}', T0 + 1)).toEqual({
      resumed: false,
      reason: 'request_mismatch',
    });
    expect(p.verdict({ streamId: 's1', seq: 6 }, KEY, T0 + 1)).toEqual({
      resumed: false,
      reason: 'seq_ahead',
    });
    expect(p.verdict({ streamId: 'never', seq: 1 }, KEY, T0 + 1)).toEqual({
      resumed: false,
      reason: 'unknown_stream',
    });
  });
});
