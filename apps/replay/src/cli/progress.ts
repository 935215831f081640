/** A one-line progress bar on a terminal's stderr; a no-op when stderr is not a TTY. */
export interface Progress {
  update(done: number): void;
  finish(): void;
}

const WIDTH = 30;

export function progressBar(
  label: string,
  total: number,
  enabled: boolean,
  write: (text: string) => void = (t) => process.stderr.write(t),
  now: () => number = () => performance.now(),
): Progress {
  if (!enabled || total <= 0) return { update: () => undefined, finish: () => undefined };
  let last = -Infinity;
  const start = now();
  const draw = (done: number): void => {
    const f = Math.min(1, done / total);
    const bar = '#'.repeat(Math.round(f * WIDTH)).padEnd(WIDTH, '.');
    const secs = (now() - start) / 1000;
    write(`\r${label} [${bar}] ${(f * 100).toFixed(0).padStart(3)}% ${done}/${total} ${secs.toFixed(1)}s`);
  };
  return {
    update(done: number): void {
      const t = now();
      if (t - last < 100) return;
      last = t;
      draw(done);
    },
    finish(): void {
      draw(total);
      write('\n');
    },
  };
}
