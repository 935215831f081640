import { describe, expect, it } from 'vitest';
import { progress } from './progress';

/** A stream that keeps what is written (a terminal when `tty`). */
function sink(tty: boolean): { stream: NodeJS.WritableStream; text: () => string } {
  const chunks: string[] = [];
  const stream = {
    isTTY: tty,
    columns: 120,
    write: (chunk: string | Uint8Array, ...rest: unknown[]) => {
      chunks.push(String(chunk));
      const cb = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      cb?.();
      return true;
    },
  } as unknown as NodeJS.WritableStream;
  return { stream, text: () => chunks.join('') };
}

describe('progress', () => {
  it('off a terminal, prints a plain line at most every interval, with the figures and the note', () => {
    let now = 0;
    const out = sink(false);
    const p = progress('backtest', 200, 'instants', {
      stream: out.stream,
      tty: false,
      plainEveryMs: 5000,
      now: () => now,
    });
    now = 1000;
    p.update(10);
    expect(out.text()).toBe('');
    now = 6000;
    p.update(50, 'at 12:00');
    now = 7000;
    p.update(60);
    now = 11_000;
    p.update(100);
    p.finish();
    expect(out.text()).toBe(
      'backtest  25% 50/200 instants, 6s elapsed, eta 18s, at 12:00\nbacktest  50% 100/200 instants, 11s elapsed, eta 11s\n',
    );
  });

  it('on a terminal, draws a bar with cli-progress and ends the line', () => {
    const out = sink(true);
    const p = progress('record', 4, 'entries', { stream: out.stream, tty: true });
    p.update(2, 'books-00');
    p.finish();
    const text = out.text();
    expect(text).toMatch(/record \[[^\]]{30}\] 100% 4\/4 entries/);
    expect(text.endsWith('\n')).toBe(true);
  });

  it('shows nothing for an empty total', () => {
    const out = sink(false);
    const p = progress('audit', 0, 'quotes', { stream: out.stream, tty: false, now: () => 1e9 });
    p.update(0);
    p.finish();
    expect(out.text()).toBe('');
  });
});
